"""dev = torch.device; with dev("meta"): the default device through an alias."""
import torch

dev = torch.device


def run():
    t = torch.randn(3)
    with dev("meta"):
        y = torch.tensor(t)
    return str(y.device)
