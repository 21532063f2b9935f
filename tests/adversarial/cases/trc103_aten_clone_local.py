"""torch.ops.aten.clone(w).detach() on a proven plain tensor with requires_grad."""
import torch


def run():
    w = torch.randn(3, requires_grad=True)
    c = torch.ops.aten.clone(w).detach()
    return w, c
