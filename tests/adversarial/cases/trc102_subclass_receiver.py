"""x.new_tensor(t) with x a Tensor subclass: new_tensor returns the subclass,
t.detach().to(dtype=x.dtype, device=x.device, copy=True) returns t's type."""
import torch


class Quantity(torch.Tensor):
    pass


def run():
    x = torch.zeros(2, dtype=torch.float64).as_subclass(Quantity)
    t = torch.randn(2)
    y = x.new_tensor(t)
    return x, y, type(y).__name__
