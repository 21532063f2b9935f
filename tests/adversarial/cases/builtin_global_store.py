"""Another function stores the builtin's name as a module global (``global tuple``)."""
import torch


def setup():
    global tuple
    tuple = lambda xs: [[1.0, 2.0]]  # noqa: E731


def run():
    setup()
    t = torch.ones(2)
    return torch.tensor(tuple([t])[0])
