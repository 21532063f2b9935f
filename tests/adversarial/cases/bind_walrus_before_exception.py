"""A walrus binds t to a list in the same statement that then raises; the handler uses t."""
import torch


def run():
    t = torch.randn(2)
    try:
        pair = ((t := [5.0, 6.0]), int("not a number"))
    except ValueError:
        pair = None
    return pair, torch.tensor(t)
