"""An operand or size computed from an unknown (``s * 2`` of a parameter, ``self.scale``)
may be a 0-dim Tensor subclass, or an object whose ``__rmul__`` takes over from
``Tensor.__mul__``: the result is then the subclass (torch.tensor makes it plain,
detach().clone() keeps the class), or no tensor at all (clone/detach called in another
order).  Size arithmetic of an unknown is no proof of a number."""
import torch


class Marked(torch.Tensor):
    pass


class Meter:
    def __init__(self):
        self.log = []

    def __rmul__(self, other):
        return self

    def clone(self):
        self.log.append("clone")
        return self

    def detach(self):
        self.log.append("detach")
        return self


def doubled(s):
    x = torch.ones(3) * (s * 2)
    return torch.tensor(x)


class Buf:
    def __init__(self, n, scale):
        self.n = n
        self.scale = scale

    def sized(self):
        x = torch.zeros(self.n)
        return torch.tensor(x)

    def scaled(self):
        x = torch.ones(3) * self.scale
        return x.clone().detach()


def run():
    sub = torch.tensor(2).as_subclass(Marked)
    return doubled(sub), Buf(sub, None).sized(), Buf(3, Meter()).scaled().log
