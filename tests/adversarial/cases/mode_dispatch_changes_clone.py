"""A TorchDispatchMode of the module changes what aten.clone returns: torch.tensor(w) runs no
clone, its rewrite w.detach().clone() does (TRC101)."""
import torch
from torch.utils._python_dispatch import TorchDispatchMode


class Double(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if func is torch.ops.aten.clone.default:
            out = out * 2
        return out


def copy_weights():
    w = torch.ones(2)
    return torch.tensor(w)


def run():
    with Double():
        return copy_weights()
