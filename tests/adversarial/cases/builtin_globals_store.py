"""``globals()["len"] = ...`` in another function shadows the builtin the fill loop counts with."""
import torch


def fill():
    xs = [None] * 2
    for i in range(len(xs)):
        xs[i] = torch.ones(2)
    return torch.tensor(xs[1])


def run():
    globals()["len"] = lambda xs: 1
    return fill()
