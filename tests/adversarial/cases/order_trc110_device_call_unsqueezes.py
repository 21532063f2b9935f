"""t.to(torch.device(grow(t))).detach(): grow unsqueezes t in place; the rewrite detaches first."""
import torch

EXPECT_FIX = False


def grow(t):
    t.unsqueeze_(0)
    return "cpu"


def run():
    t = torch.ones(3, requires_grad=True) * 2
    y = t.to(torch.device(grow(t))).detach()
    return y
