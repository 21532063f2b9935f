"""exec("t = [1.0]") at module level rebinds t after it was a tensor."""
import torch

t = torch.zeros(2)
exec("t = [1.0, 2.0]")
snapshot = torch.tensor(t)


def run():
    return snapshot
