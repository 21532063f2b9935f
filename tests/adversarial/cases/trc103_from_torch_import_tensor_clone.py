"""Tensor.clone(w).detach() (from torch import Tensor) used as a type check: the
unbound descriptor raises TypeError for anything but a tensor, and the code relies on it."""
import numpy as np
import torch
from torch import Tensor


def snapshot(w):
    try:
        return Tensor.clone(w).detach()
    except TypeError:
        return np.array(w, copy=True)


class Weights:
    def __init__(self, v):
        self.v = list(v)

    def clone(self):
        return Weights(self.v)

    def detach(self):
        return self

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.v, dtype=dtype)


def run():
    t = snapshot(torch.arange(3.0, requires_grad=True))
    a = snapshot(np.arange(3.0))
    b = snapshot(Weights([1.0, 2.0]))
    return t, a, b
