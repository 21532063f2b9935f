"""x.new_tensor(t) where x is a subclass that carries metadata: the subclass's
__torch_function__ copies the unit onto results of methods called on it."""
import torch


class WithUnit(torch.Tensor):
    unit = "m"

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        out = super().__torch_function__(func, types, args, kwargs or {})
        if isinstance(out, WithUnit) and args and isinstance(args[0], WithUnit):
            out.unit = args[0].unit
        return out


def run():
    x = torch.ones(3).as_subclass(WithUnit)
    x.unit = "km"
    t = torch.arange(3.0)
    y = x.new_tensor(t)
    return y, getattr(y, "unit", None)
