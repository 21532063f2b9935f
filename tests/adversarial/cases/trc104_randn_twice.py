"""torch.empty_like(torch.randn(3)).copy_(torch.randn(3)): the RNG is drawn twice."""
import torch


def run():
    y = torch.empty_like(torch.randn(3)).copy_(torch.randn(3))
    z = torch.randn(2)
    return y, z
