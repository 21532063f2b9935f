"""torch.tensor(t, device=g(), dtype=f()) with f and g printing: keyword arguments are
evaluated in source order, the fix must keep device= before dtype=."""
import torch


def f():
    print("dtype chosen")
    return torch.float64


def g():
    print("device chosen")
    return "cpu"


def run():
    t = torch.randn(2)
    y = torch.tensor(t, device=g(), dtype=f())
    return y
