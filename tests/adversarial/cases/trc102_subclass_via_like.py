"""x = torch.zeros_like(q) with q a Tensor subclass: x.new_tensor(t) returns the subclass;
t.detach().to(dtype=x.dtype, device=x.device, copy=True) returns a plain Tensor."""
import torch


class Units(torch.Tensor):
    pass


def _encode(q):
    x = torch.zeros_like(q)
    t = torch.arange(3.0)
    return x.new_tensor(t)


def run():
    q = torch.zeros(3, dtype=torch.float64).as_subclass(Units)
    y = _encode(q)
    return type(y).__name__, y
