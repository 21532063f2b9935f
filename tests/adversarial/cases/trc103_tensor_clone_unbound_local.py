"""torch.Tensor.clone(w).detach() with w a proven plain tensor: equal either way."""
import torch


def run():
    w = torch.randn(4, requires_grad=True)
    s = torch.Tensor.clone(w).detach()
    return w, s
