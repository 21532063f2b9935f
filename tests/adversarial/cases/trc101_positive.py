"""Positive: torch.tensor(t) on proven tensors, with dtype=, device= and requires_grad=."""
import torch

EXPECT_FIX = True


def run():
    t = torch.randn(3, requires_grad=True)
    a = torch.tensor(t)
    b = torch.tensor(t, dtype=torch.float64)
    c = torch.tensor(t, device="cpu")
    d = torch.tensor(t, requires_grad=True)
    e = torch.tensor(t.detach().t() if t.dim() > 1 else t * 2)
    return t, a, b, c, d, e
