"""A subclass defined by type() (no class statement, no attribute store) overrides the
tensor attribute with a list as a class attribute."""
import torch


class Base:
    def __init__(self):
        self.weight = torch.ones(2)

    def frozen(self):
        return torch.tensor(self.weight)


def _init(self):
    pass


Light = type("Light", (Base,), {"__init__": _init, "weight": [0.5, 0.5]})


def run():
    return Base().frozen(), Light().frozen()
