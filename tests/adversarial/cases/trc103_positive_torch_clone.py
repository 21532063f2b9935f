"""Positive: torch.clone(g).detach() on a non-leaf tensor, inside and outside no_grad."""
import torch

EXPECT_FIX = True


def run():
    g = torch.ones(2, requires_grad=True)
    h = g * 3
    a = torch.clone(h).detach()
    with torch.no_grad():
        b = torch.clone(h).detach()
    h.sum().backward()
    return g, a, b
