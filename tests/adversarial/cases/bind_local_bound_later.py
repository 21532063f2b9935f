"""`torch` is bound later in the function, so it is local in all of it: the original's
torch.tensor raises UnboundLocalError, a rewrite that no longer reads `torch` would not."""
import torch
from torch import randn


def build():
    t = randn(3)
    y = torch.tensor(t)
    torch = None  # noqa: F841
    return y


def run():
    return build()
