"""A self-check loop calls every module function whose name ends in _copy with a list."""
import torch


def _snapshot_copy(x):
    return torch.tensor(x)


def run():
    a = _snapshot_copy(torch.arange(3.0))
    results = []
    for name, fn in list(globals().items()):
        if name.endswith("_copy") and callable(fn):
            results.append(fn([1, 2, 3]))
    return a, results
