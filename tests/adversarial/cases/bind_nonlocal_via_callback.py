"""A nested function that rebinds t (nonlocal) is passed as a callback and called by
someone else before the copy."""
import torch


def _apply(callback):
    callback()


def run():
    t = torch.zeros(3)

    def load():
        nonlocal t
        t = [1.0, 2.0, 3.0]

    _apply(load)
    return torch.tensor(t)
