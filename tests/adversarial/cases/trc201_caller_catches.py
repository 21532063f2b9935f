"""The raising view is in a helper; its caller in the module catches the RuntimeError and
falls back: a reshape would skip the fallback."""
import torch


def _merge(x):
    b, t, c = x.shape
    return x.transpose(1, 2).view(b, t * c)


def run():
    x = torch.zeros(2, 4, 3)
    try:
        return _merge(x)
    except RuntimeError:
        return "fallback"
