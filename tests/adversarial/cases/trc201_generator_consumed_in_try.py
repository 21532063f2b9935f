"""a generator's view error caught by the consumer's try around next()."""
import torch

EXPECT_FIX = False


def gen():
    x = torch.randn(2, 3, 4)
    yield x.transpose(1, 2).view(2, 12)


def run():
    g = gen()
    try:
        return next(g)
    except RuntimeError:
        return "caught"
