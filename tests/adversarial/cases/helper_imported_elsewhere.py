"""A private helper imported by another module (simulated with importlib and a computed
attribute name) that passes a list."""
import importlib

import torch


def _to_tensor(x):
    return torch.tensor(x)


def run():
    a = _to_tensor(torch.ones(2))
    me = importlib.import_module(__name__)
    helper = vars(me)["_to" + "_tensor"]
    b = helper([5, 6])
    return a, b
