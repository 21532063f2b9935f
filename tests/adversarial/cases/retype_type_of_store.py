"""type(t).detach = ...: the store reaches torch.Tensor through type()."""
import torch


def run():
    t = torch.randn(3)
    original = type(t).detach
    type(t).detach = lambda self: "patched"
    try:
        return torch.tensor(t)
    finally:
        type(t).detach = original
