"""Another function of the module replaces ``builtins.range``: the fill loop stores one slot."""
import builtins

import torch

_range = builtins.range


def patch(f):
    builtins.range = f


def fill():
    xs = [None] * 2
    for i in range(len(xs)):
        xs[i] = torch.ones(2)
    return torch.tensor(xs[1])


def run():
    patch(lambda n: [0])
    try:
        return fill()
    finally:
        patch(_range)
