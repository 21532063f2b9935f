"""A view after transpose written in place, where batch size decides: for the shapes used
here the view raises and the caller falls back to writing through the source."""
import torch


def scale_rows(x, k):
    b, c, t = x.shape
    y = x.transpose(1, 2)
    try:
        flat = y.view(b, t * c)
        flat.mul_(k)
        return "in place"
    except RuntimeError:
        x.mul_(k)
        return "fallback"


def run():
    x = torch.ones(2, 3, 4)
    mode = scale_rows(x, 2.0)
    return x, mode
