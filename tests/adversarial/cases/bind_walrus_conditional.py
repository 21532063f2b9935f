"""A walrus in the branch of a conditional expression that is not taken."""
import torch


def pick(use_random):
    t = [1.0, 2.0, 3.0]
    _ = (t := torch.randn(3)) if use_random else None
    return torch.tensor(t)


def run():
    return pick(False)
