"""for i, t in enumerate(lst): the body replaces the next item by a list before the
iterator reaches it."""
import torch

EXPECT_FIX = False


def run():
    lst = [torch.ones(2), torch.zeros(2)]
    out = []
    for i, t in enumerate(lst):
        out.append(torch.tensor(t))
        if i + 1 < len(lst):
            lst[i + 1] = [1.0, 2.0]
    return out
