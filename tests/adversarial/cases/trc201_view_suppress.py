"""A view inside contextlib.suppress(RuntimeError): the result is used only if the view
worked, and the in-place write must reach the source only then."""
import contextlib

import torch


def run():
    x = torch.zeros(2, 3, 4)
    flat = None
    with contextlib.suppress(RuntimeError):
        flat = x.permute(0, 2, 1).view(2, -1)
    if flat is not None:
        flat.fill_(1.0)
    return x, flat is None
