"""acc = torch.zeros(3); acc += x with x a logging __torch_function__ subclass: __iadd__
dispatches to the subclass and rebinds acc to a tensor of that subclass, so the log records
cpu and detach in the order they run."""
import torch

LOG = []


class Logging(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in ("cpu", "detach", "clone"):
            LOG.append(name)
        return super().__torch_function__(func, types, args, kwargs or {})


def _summed(xs):
    acc = torch.zeros(3)
    for x in xs:
        acc += x
    return acc.cpu().detach()


def run():
    xs = [torch.ones(3).as_subclass(Logging), torch.ones(3).as_subclass(Logging)]
    del LOG[:]
    y = _summed(xs)
    return y, list(LOG)
