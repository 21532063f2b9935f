"""t.clone(memory_format=fmt(t)).detach(): fmt changes t's shape in place before the clone
runs; the rewrite detaches (fixing the shape) before fmt runs."""
import torch

EXPECT_FIX = False


def fmt(t):
    t.unsqueeze_(0)
    return torch.contiguous_format


def run():
    t = torch.ones(3, requires_grad=True) * 2
    y = t.clone(memory_format=fmt(t)).detach()
    return y
