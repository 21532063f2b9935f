"""Positive: x.permute(0, 2, 1).view(-1) raises unless a size is 1; called here with shapes
where the view is legal, so both versions must agree exactly, aliasing included."""
import torch

EXPECT_FIX = True


def f(x):
    return x.permute(0, 2, 1).view(-1)


def run():
    a = torch.arange(4.0).view(1, 4, 1)
    r = f(a)
    r.mul_(10)
    return a, r
