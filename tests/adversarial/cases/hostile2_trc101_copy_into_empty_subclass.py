"""buf = torch.empty(3).copy_(x) with x a Tensor subclass: copy_ dispatches to the subclass and
returns the buffer as that subclass. torch.tensor(buf) is a plain Tensor; buf.detach().clone()
is not."""
import torch


class Tagged(torch.Tensor):
    pass


def _snapshot(x):
    buf = torch.empty(3).copy_(x)
    return torch.tensor(buf)


def run():
    x = torch.arange(3.0).as_subclass(Tagged)
    out = _snapshot(x)
    return out, type(out).__name__
