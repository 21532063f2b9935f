"""from torch import device as D; with D("meta"): the default device through an import."""
import torch
from torch import device as D


def run():
    t = torch.randn(3)
    with D("meta"):
        y = torch.tensor(t)
    return str(y.device)
