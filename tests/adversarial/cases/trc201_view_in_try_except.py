"""A .view() inside try/except RuntimeError that falls back to a contiguous copy and warns
about it: the except arm must still run; a rewrite to .reshape() never raises."""
import warnings

import torch


def merge_heads(x):
    b, h, n, d = x.shape
    try:
        return x.transpose(1, 2).view(b, n, h * d)
    except RuntimeError:
        warnings.warn("merge_heads: non-viewable layout, copying", RuntimeWarning)
        return x.transpose(1, 2).contiguous().view(b, n, h * d)


def run():
    x = torch.arange(2 * 3 * 4 * 5.0).view(2, 3, 4, 5)
    return merge_heads(x)
