"""x.new_tensor(t) with x an attribute chain whose last step is a property that hands out
the next buffer of a ring on every read: the rewrite reads x.dtype and x.device, i.e. the
property twice."""
import torch


class Ring:
    def __init__(self):
        self.buffers = [torch.zeros(1, dtype=torch.float64), torch.zeros(1, dtype=torch.float16)]
        self.reads = 0

    @property
    def current(self):
        b = self.buffers[self.reads % len(self.buffers)]
        self.reads += 1
        return b


class Holder:
    def __init__(self):
        self.ring = Ring()


def run():
    h = Holder()
    t = torch.randn(3)
    y = h.ring.current.new_tensor(t)
    return y, h.ring.reads
