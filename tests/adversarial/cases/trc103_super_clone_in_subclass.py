"""A Tensor subclass whose clone returns detached copies, written as
super().clone().detach(): rewritten to super().detach().clone(), the clone at the end is
this very method again (the subclass survives detach), so it recurses forever."""
import torch


class Frozen(torch.Tensor):
    def clone(self, *args, **kwargs):
        return super().clone(*args, **kwargs).detach()


def run():
    base = torch.randn(3, requires_grad=True)
    f = base.as_subclass(Frozen)
    try:
        c = f.clone()
        return "ok", c
    except RecursionError:
        return "recursion", None
