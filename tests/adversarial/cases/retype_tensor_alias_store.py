"""torch.Tensor, imported under another name, gets a detach that prints what it detaches:
clone-then-detach detaches a non-leaf, detach-then-clone the leaf."""
import torch
from torch import Tensor as TT

_ORIGINAL = TT.detach


def loud(self):
    print("detach of a leaf:", self.is_leaf)
    return _ORIGINAL(self)


def run():
    TT.detach = loud
    try:
        w = torch.randn(3, requires_grad=True)
        return w.clone().detach()
    finally:
        TT.detach = _ORIGINAL
