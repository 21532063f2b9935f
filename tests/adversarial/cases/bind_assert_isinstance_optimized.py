"""assert isinstance(t, torch.Tensor) as the proof: under python -O the assert is gone and a
list goes through."""
import torch

RUN_OPTIMIZED = True


def _copy(t):
    assert isinstance(t, torch.Tensor)
    return torch.tensor(t)


def run():
    out = [_copy(torch.ones(2))]
    try:
        out.append(_copy([1.0, 2.0]))
    except AssertionError:
        out.append("assertion")
    return out
