"""Positive: empty_like(t).copy_(t) keeps the gradient path into t, like t.clone()."""
import torch

EXPECT_FIX = True


def run():
    t = torch.randn(3, requires_grad=True)
    y = torch.empty_like(t).copy_(t)
    (y * y).sum().backward()
    return t, y.detach(), y.requires_grad, y.grad_fn is not None
