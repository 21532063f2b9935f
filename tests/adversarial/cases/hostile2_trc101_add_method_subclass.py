"""y = torch.zeros(3).add(x) with x a Tensor subclass: the result is of x's subclass.
torch.tensor(y) gives a plain Tensor; the fix y.detach().clone() keeps the subclass."""
import torch


class Tagged(torch.Tensor):
    pass


def _offset_copy(x):
    y = torch.zeros(3).add(x)
    return torch.tensor(y)


def run():
    x = torch.arange(3.0).as_subclass(Tagged)
    out = _offset_copy(x)
    return out, type(out).__name__
