"""A generator's element runs when it is consumed: `t` is a list by then."""
import torch


def run():
    t = torch.randn(3)
    gen = (torch.tensor(t) for _ in range(2))
    t = [1.0, 2.0]
    return list(gen)
