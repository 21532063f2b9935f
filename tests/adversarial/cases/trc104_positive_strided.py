"""Positive: empty_like(t).copy_(t) of a permuted and a channels_last tensor: same strides
as t.clone()."""
import torch

EXPECT_FIX = True


def run():
    t = torch.randn(2, 3, 4).permute(2, 0, 1)
    y = torch.empty_like(t).copy_(t)
    c = torch.randn(1, 3, 2, 2).contiguous(memory_format=torch.channels_last)
    z = torch.empty_like(c).copy_(c)
    return t, y, c, z
