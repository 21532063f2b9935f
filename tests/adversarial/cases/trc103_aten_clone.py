"""torch.ops.aten.clone(t).detach() on a __torch_function__ subclass that logs the calls: the
receiver of .clone() is the tensor passed to the op, not torch.ops.aten, and the log shows the
order of clone and detach."""
import torch

LOG = []


class Logged(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        LOG.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs or {})


def quiet_copy(t):
    return torch.ops.aten.clone(t).detach()


def run():
    t = torch.arange(4.0).as_subclass(Logged)
    del LOG[:]
    c = quiet_copy(t)
    return c, list(LOG)
