"""A module-level ``def list`` below the function: ``list([t])[0]`` is no tensor."""
import torch


def run():
    t = torch.ones(2)
    return torch.tensor(list([t])[0])


def list(*args):  # noqa: A001 - the module shadows the builtin after the function
    return [1.0, 2.0]
