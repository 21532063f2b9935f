"""torch.ones(3).to(t.device, t.dtype) of a torch.quint4x2 tensor t raises a RuntimeError,
torch.ones(3, device=t.device, dtype=t.dtype) a NotImplementedError: a handler that tells
them apart takes another branch after the fix."""
import torch


def run():
    t = torch.empty(2, dtype=torch.quint4x2)
    try:
        return torch.ones(3).to(t.device, t.dtype)
    except NotImplementedError:
        return "not implemented"
    except RuntimeError:
        return "runtime error"
