"""def snapshot(x): return x.clone().detach() called with a wrapper object whose clone()
returns a plain tensor but which has no detach() of its own."""
import torch


class ShardedParam:
    def __init__(self, shards):
        self.shards = shards

    def clone(self):
        return torch.cat([s.clone() for s in self.shards])


def snapshot(x):
    return x.clone().detach()


def run():
    p = ShardedParam([torch.ones(2, requires_grad=True), torch.zeros(1, requires_grad=True)])
    try:
        return "ok", snapshot(p)
    except AttributeError as e:
        return "AttributeError", str(e)
