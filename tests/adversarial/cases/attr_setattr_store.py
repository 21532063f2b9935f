"""setattr(self, name, value) from a config loop replaces a tensor attribute with a list."""
import torch


class Layer:
    def __init__(self):
        self.bias = torch.zeros(2)

    def configure(self, **cfg):
        for k, v in cfg.items():
            setattr(self, k, v)

    def frozen_bias(self):
        return self.bias.clone().detach(), torch.tensor(self.bias)


class Weird:
    def clone(self):
        return self

    def detach(self):
        return "detached"


def run():
    layer = Layer()
    layer.configure(bias=[0.5, 0.5])
    try:
        return layer.frozen_bias()
    except AttributeError as e:
        return "AttributeError", str(e)
