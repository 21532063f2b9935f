"""Positive: clone(memory_format=...) moves with the clone; strides must be identical."""
import torch

EXPECT_FIX = True


def run():
    x = torch.randn(2, 3, 4, 5, requires_grad=True)
    cl = x.contiguous(memory_format=torch.channels_last)
    a = cl.clone(memory_format=torch.preserve_format).detach()
    b = cl.clone(memory_format=torch.contiguous_format).detach()
    c = x.transpose(1, 3).clone().detach()
    return a, b, c
