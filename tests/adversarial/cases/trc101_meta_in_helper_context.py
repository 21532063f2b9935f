"""The default device is set by a context manager of the module (a helper that yields
inside torch.device): the call site shows no torch.device at all."""
import contextlib

import torch

_where = "meta"


@contextlib.contextmanager
def on_target():
    with torch.device(_where):
        yield


def run():
    t = torch.randn(3)
    with on_target():
        y = torch.tensor(t)
    return str(y.device)
