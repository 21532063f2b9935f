"""Positive: w.clone().detach() on a proven tensor that requires grad."""
import torch

EXPECT_FIX = True


def run():
    w = torch.randn(3, requires_grad=True)
    y = w.clone().detach()
    y.add_(1)
    loss = (w * 2).sum()
    loss.backward()
    return w, y
