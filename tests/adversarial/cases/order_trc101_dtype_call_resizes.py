"""torch.tensor(t, dtype=pick(t)): pick resizes t in place after the original read t; the rewrite
detaches t first and copies the old sizes."""
import torch

EXPECT_FIX = False


def pick(t):
    t.resize_(5)
    t.fill_(2.0)
    return torch.float64


def run():
    t = torch.ones(3)
    y = torch.tensor(t, dtype=pick(t))
    return y
