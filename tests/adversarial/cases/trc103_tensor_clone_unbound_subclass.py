"""torch.Tensor.clone(t).detach() on a subclass that overrides clone: the unbound call
bypasses the override, t.detach().clone() would call it."""
import torch


class Tracked(torch.Tensor):
    clones = 0

    def clone(self, *args, **kwargs):
        Tracked.clones += 1
        print("Tracked.clone called")
        return super().clone(*args, **kwargs)


def raw_snapshot(t):
    # deliberately skip the subclass's bookkeeping
    return torch.Tensor.clone(t).detach()


def run():
    t = torch.randn(3, requires_grad=True).as_subclass(Tracked)
    s = raw_snapshot(t)
    return s, Tracked.clones
