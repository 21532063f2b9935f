"""A light, non-nn.Module container with its own register_buffer that stores values as
lists (a numpy/pure-python backend mimicking the nn.Module API)."""
import torch


class Container:
    def __init__(self):
        object.__setattr__(self, "_buffers", {})
        self.register_buffer("running_mean", torch.zeros(3))

    def register_buffer(self, name, value):
        self._buffers[name] = value.tolist()

    def __getattr__(self, name):
        try:
            return object.__getattribute__(self, "_buffers")[name]
        except KeyError:
            raise AttributeError(name) from None

    def export(self):
        return torch.tensor(self.running_mean)


def run():
    c = Container()
    y = c.export()
    return y
