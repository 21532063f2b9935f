"""for t in lst: the body appends a list to lst, which the list's iterator reads live: the
second pass binds t to a list (torch.tensor of it is float32, a list has no detach)."""
import torch

EXPECT_FIX = False


def run():
    lst = [torch.ones(2, dtype=torch.float64)]
    out = []
    for t in lst:
        out.append(torch.tensor(t))
        if len(lst) < 2:
            lst.append([1.0, 2.0])
    return out
