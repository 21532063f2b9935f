"""A probe that uses .view() to ask whether a layout can be viewed."""
import torch


def is_mergeable(x):
    try:
        x.t().view(-1)
        return True
    except RuntimeError:
        return False


def run():
    return is_mergeable(torch.zeros(3, 4)), is_mergeable(torch.zeros(1, 4))
