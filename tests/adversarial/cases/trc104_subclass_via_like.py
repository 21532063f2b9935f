"""t = torch.zeros_like(q) + 2 where q's subclass overrides clone (with bookkeeping):
torch.empty_like(t).copy_(t) does not call it, t.clone() does."""
import torch


class Counted(torch.Tensor):
    clones = 0

    def clone(self, *args, **kwargs):
        Counted.clones += 1
        return super().clone(*args, **kwargs)


def _dup(q):
    t = torch.zeros_like(q) + 2
    return torch.empty_like(t).copy_(t)


def run():
    q = torch.ones(2).as_subclass(Counted)
    y = _dup(q)
    return type(y).__name__, y, Counted.clones
