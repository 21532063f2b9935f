"""A nested function reads `torch` of its enclosing function, which binds it after the
def: when called, it gets the enclosing function's value, not the module's."""
import torch
from torch import randn


class FakeTorch:
    @staticmethod
    def tensor(x):
        return ("fake", tuple(x.shape))


def build():
    t = randn(3)

    def copy():
        return torch.tensor(t)
    torch = FakeTorch  # noqa: F811
    return copy()


def run():
    return build()
