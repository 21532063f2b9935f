"""t = torch.ones_like(q) * q where q is a Tensor subclass: t is a tensor, but of the
subclass; torch.tensor(t) gives a plain Tensor, t.detach().clone() the subclass."""
import torch


class Meters(torch.Tensor):
    pass


def _normalised(q):
    t = torch.ones_like(q) * q
    return torch.tensor(t)


def run():
    q = torch.arange(3.0).as_subclass(Meters)
    y = _normalised(q)
    return type(y).__name__, y
