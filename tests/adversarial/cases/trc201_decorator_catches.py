"""a decorator calls the function inside a try; the view in the function on a local tensor."""
import functools
import torch

EXPECT_FIX = False


def fallback(f):
    @functools.wraps(f)
    def g(*a):
        try:
            return f(*a)
        except RuntimeError:
            return "fallback"
    return g


@fallback
def merge():
    x = torch.randn(2, 3, 4)
    return x.transpose(1, 2).view(2, 12)


def run():
    return merge()
