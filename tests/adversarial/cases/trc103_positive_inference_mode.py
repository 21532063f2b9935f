"""Positive: clone().detach() inside and across inference_mode keeps inference-ness."""
import torch

EXPECT_FIX = True


def run():
    with torch.inference_mode():
        t = torch.randn(3)
        a = t.clone().detach()
    b = t.clone().detach()
    u = torch.randn(3, requires_grad=True)
    with torch.inference_mode():
        c = u.clone().detach()
    return t, a, b, c
