"""A subclass whose clone() returns a plain Tensor and whose detach() keeps the subclass, both
printing: t.clone().detach() runs only the clone override, t.detach().clone() both."""
import torch


class View(torch.Tensor):
    def clone(self, *args, **kwargs):
        print("View.clone")
        return torch.Tensor.clone(self.as_subclass(torch.Tensor), *args, **kwargs)

    def detach(self):
        print("View.detach")
        return super().detach()


def _copy(q):
    t = q * 1
    return t.clone().detach()


def run():
    q = torch.arange(3.0).as_subclass(View)
    y = _copy(q)
    return type(y).__name__, y
