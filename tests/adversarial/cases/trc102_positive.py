"""Positive: x.new_tensor(t) and t.new_tensor(t) on proven plain tensors."""
import torch

EXPECT_FIX = True


def run():
    x = torch.zeros(2, dtype=torch.float64)
    t = torch.randn(2, requires_grad=True)
    y = x.new_tensor(t)
    z = t.new_tensor(t)
    u = x.new_tensor(t, dtype=torch.float16)
    return x, t, y, z, u
