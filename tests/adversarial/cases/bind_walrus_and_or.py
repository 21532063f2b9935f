"""A walrus on the right of `and` whose left side is False, and on the right of `or`
whose left side is True."""
import torch


def run():
    t = [1.0]
    u = [2.0]
    ready = False
    _ = ready and (t := torch.ones(1))
    _ = True or (u := torch.zeros(1))
    return torch.tensor(t), torch.tensor(u)
