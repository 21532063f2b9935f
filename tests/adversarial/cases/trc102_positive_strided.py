"""Positive: x.new_tensor(t) with a transposed t and an int x: the strides of the copy."""
import torch

EXPECT_FIX = True


def run():
    x = torch.zeros(1, dtype=torch.int64)
    t = (torch.randn(3, 4) * 10).t()
    y = x.new_tensor(t)
    z = t.new_tensor(t)
    return t, y, z
