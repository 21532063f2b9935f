"""A walrus inside a generator expression that any() stops at once: the binding happens only
for consumed items, here none after the first is False."""
import torch


def run():
    t = [3.0, 4.0]
    found = any(False and (t := torch.zeros(2)) is not None for _ in range(3))
    y = torch.tensor(t)
    return found, y
