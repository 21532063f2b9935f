"""torch.empty_like(x).copy_(x) where x is not a tensor but implements __torch_function__
(a lazy wrapper): torch.empty_like dispatches to it, x.clone() is not defined."""
import torch


class Lazy:
    def __init__(self, fn):
        self.fn = fn

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        args = [a.fn() if isinstance(a, Lazy) else a for a in args]
        return func(*args, **kwargs)


def materialise(x):
    return torch.empty_like(x).copy_(x)


def run():
    lz = Lazy(lambda: torch.arange(4.0))
    try:
        return "ok", materialise(lz)
    except AttributeError as e:
        return "AttributeError", str(e)
