"""A module-level ``def range`` below the function: the loop does not fill every slot."""
import torch


def run():
    xs = [None] * 2
    for i in range(len(xs)):
        xs[i] = torch.ones(2)
    return torch.tensor(xs[1])


def range(n):  # noqa: A001 - the module shadows the builtin after the function
    return [0]
