"""A lambda's body reads names when it is called: `t` is a tensor where the lambda is
made and a list when it runs (in a function and at module level)."""
import torch


def build():
    t = torch.randn(3)
    g = lambda: torch.tensor(t)  # noqa: E731
    t = [1.0, 2.0]
    return g()


u = torch.randn(3)
h = lambda: torch.tensor(u)  # noqa: E731
u = [3.0]


def run():
    return build(), h()
