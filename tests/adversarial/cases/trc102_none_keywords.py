"""x.new_tensor(t, dtype=None) takes x's dtype (device=None: x's device); the rewrite
t.detach().to(dtype=None, device=x.device, copy=True) keeps t's.  Also through a
parameter that defaults to None."""
import torch


def _as(x, t, dtype=None):
    return x.new_tensor(t, dtype=dtype)


def run():
    x = torch.zeros(2, dtype=torch.float64, device="meta")
    t = torch.arange(2.0)
    return x.new_tensor(t, dtype=None), x.new_tensor(t, device=None), _as(x, t)
