"""A walrus inside a list comprehension over an empty range never runs: t stays a list."""
import torch


def run():
    t = [1.0, 2.0]
    _ = [(t := torch.randn(2)) for _ in range(0)]
    y = torch.tensor(t)
    return y
