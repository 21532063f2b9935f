"""The enclosing function binds ``len`` after the nested def: the closure reads it when called."""
import torch


def run():
    def inner():
        xs = [None] * 2
        for i in range(len(xs)):
            xs[i] = torch.ones(2)
        return torch.tensor(xs[1])
    len = lambda xs: 1  # noqa: E731
    return inner()
