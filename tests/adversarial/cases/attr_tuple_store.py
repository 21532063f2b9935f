"""self.scale is a tensor in __init__, but reset() stores it through a tuple assignment."""
import torch


class Norm:
    def __init__(self):
        self.scale = torch.ones(2)
        self.eps = 1e-5

    def reset(self):
        self.scale, self.eps = [1.0, 1.0], 2

    def frozen_scale(self):
        return torch.tensor(self.scale)


def run():
    n = Norm()
    a = n.frozen_scale()
    n.reset()
    b = n.frozen_scale()
    return a, b
