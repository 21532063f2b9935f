"""buffers() on an object that is not an nn.Module yields floats."""
import torch


class RunningStats:
    def __init__(self):
        self.mean = 0.5
        self.var = 2.0

    def buffers(self):
        return iter([self.mean, self.var])


def _copies(obj):
    return [torch.tensor(b) for b in obj.buffers()]


def run():
    return _copies(RunningStats())
