"""torch.clone(t, memory_format=fmt(t)).detach(): as the method form."""
import torch

EXPECT_FIX = False


def fmt(t):
    t.unsqueeze_(0)
    return torch.contiguous_format


def run():
    t = torch.ones(3, requires_grad=True) * 2
    y = torch.clone(t, memory_format=fmt(t)).detach()
    return y
