"""torch.tensor(t.numpy()) used as a check: it raises for a tensor that requires grad, and the
code falls back to a detached copy and records that it did."""
import torch


def export(t):
    try:
        return torch.tensor(t.numpy()), "numpy"
    except RuntimeError:
        return t.detach().clone(), "fallback"


def run():
    w = torch.randn(3, requires_grad=True)
    return export(w)
