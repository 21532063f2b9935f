"""setattr(torch, "tensor", f) at module level patches torch.tensor without an assignment."""
import torch

_orig = torch.tensor
SEEN = []


def _counting(data, *args, **kwargs):
    SEEN.append(1)
    return _orig(data, *args, **kwargs).double()


setattr(torch, "tensor", _counting)


def run():
    t = torch.ones(3)
    y = torch.tensor(t)
    return y, len(SEEN)
