"""A view on a literal zero-size dim after transpose: legal (nothing to move), aliasing kept."""
import torch


def run():
    x = torch.zeros(0, 3, 4)
    v = x.transpose(1, 2).view(0, 12)
    w = torch.zeros(2, 0, 4).transpose(0, 1).view(0, 8)
    return x, v, w
