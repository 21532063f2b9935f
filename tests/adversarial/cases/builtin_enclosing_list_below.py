"""The enclosing function binds ``list`` after the nested def: ``list([t])[0]`` is no tensor."""
import torch


def run():
    def inner():
        t = torch.ones(2)
        return torch.tensor(list([t])[0])
    list = lambda xs: [[1.0, 2.0]]  # noqa: E731
    return inner()
