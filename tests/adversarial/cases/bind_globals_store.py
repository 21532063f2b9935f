"""globals()["t"] = [1.0] inside a function called at module level."""
import torch

t = torch.zeros(2)


def reset():
    globals()["t"] = [1.0, 2.0]


reset()
snapshot = torch.tensor(t)


def run():
    return snapshot
