"""A private helper reached through globals() with a computed key."""
import torch


def _freeze_w(x):
    return x.clone().detach()


class Box:
    def __init__(self):
        self.log = []

    def clone(self):
        self.log.append("clone")
        return Box()

    def detach(self):
        self.log.append("detach")
        return self


def apply(name, x):
    return globals()["_freeze_" + name](x)


def run():
    a = _freeze_w(torch.randn(2, requires_grad=True))
    box = Box()
    apply("w", box)
    return a, box.log
