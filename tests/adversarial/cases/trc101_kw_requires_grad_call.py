"""torch.tensor(t, requires_grad=flag()) where flag prints and decides at run time."""
import torch


def flag():
    print("asked for grad")
    return False


def run():
    t = torch.randn(2)
    y = torch.tensor(t, requires_grad=flag())
    z = torch.tensor(t, dtype=torch.float64, requires_grad=flag())
    return y, z
