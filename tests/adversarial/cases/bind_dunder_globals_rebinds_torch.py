"""A decorator rebinds ``torch`` through the function's ``__globals__``."""
import torch


class Fake:
    ones = staticmethod(torch.ones)
    tensor = staticmethod(lambda x: "not torch.tensor")


def deco(f):
    f.__globals__["torch"] = Fake
    return f


@deco
def run():
    t = torch.ones(2)
    return torch.tensor(t)
