"""t = w + 0 with w an nn.Parameter: a plain Tensor (Parameter disables __torch_function__),
so torch.tensor(t) and t.detach().clone() agree. Nothing may change."""
import torch


def run():
    w = torch.nn.Parameter(torch.randn(3))
    t = w + 0
    y = torch.tensor(t)
    return type(y).__name__, y
