"""torch.tensor([a, b]) of 1-element tensors: stacking changes the shape, so the fix is unsafe
and the default fixer leaves the file alone."""
import torch

EXPECT_FIX = False


def run():
    x = torch.randn(3)
    a = x[:1]
    b = x[1:2]
    return torch.tensor([a.sum(), b.sum()]), torch.tensor([a, b])
