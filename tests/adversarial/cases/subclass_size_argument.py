"""A factory's size may be a 0-dim Tensor subclass: torch.zeros(n) is then that subclass,
and so is a method's result whose index argument is one (index_select); torch.tensor
makes them plain, detach().clone() keeps the class."""
import torch


class Marked(torch.Tensor):
    pass


def sized(n):
    t = torch.zeros(n)
    return torch.tensor(t)


def picked(idx):
    t = torch.randn(5, generator=None).index_select(0, idx)
    return torch.tensor(t), t.clone().detach()


def call(f, *args):  # callers elsewhere: what they pass is not seen
    return f(*args)


def run():
    n = torch.tensor(3).as_subclass(Marked)
    idx = torch.tensor([0, 1]).as_subclass(Marked)
    return call(sized, n), call(picked, idx)
