"""A private helper _freeze(x) = x.clone().detach(), called with tensors and with a
user object that counts its detaches (clone makes a fresh counter)."""
import torch


class Versioned:
    def __init__(self, data, detaches=0):
        self.data = data
        self.detaches = detaches

    def clone(self):
        return Versioned(list(self.data))

    def detach(self):
        self.detaches += 1
        return self


def _freeze(x):
    return x.clone().detach()


def run():
    t = _freeze(torch.randn(2, requires_grad=True))
    v = Versioned([1, 2])
    w = _freeze(v)
    return t, v.detaches, w.detaches
