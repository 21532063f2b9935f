"""Positive: a chained, multi-line clone().detach() followed by requires_grad_()."""
import torch

EXPECT_FIX = True


def run():
    w = torch.randn(2, 2, requires_grad=True)
    y = (w  # the weights
         .clone()
         .detach()
         .requires_grad_())
    (y * w).sum().backward()
    return w, y
