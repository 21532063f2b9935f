"""t = torch.zeros_like(q) + 1 with q a logging __torch_function__ subclass: t is a tensor of
that subclass, and the log records clone and detach in the order they run."""
import torch

LOG = []


class Logging(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in ("clone", "detach"):
            LOG.append(name)
        return super().__torch_function__(func, types, args, kwargs or {})


def _frozen_copy(q):
    t = torch.zeros_like(q) + 1
    return t.clone().detach()


def run():
    q = torch.randn(2).as_subclass(Logging)
    del LOG[:]
    y = _frozen_copy(q)
    return y, list(LOG)
