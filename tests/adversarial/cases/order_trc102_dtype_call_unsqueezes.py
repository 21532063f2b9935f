"""x.new_tensor(t, dtype=pick(t)): pick unsqueezes t in place."""
import torch

EXPECT_FIX = False


def pick(t):
    t.unsqueeze_(0)
    return torch.float64


def run():
    x = torch.zeros(2)
    t = torch.ones(3)
    return x.new_tensor(t, dtype=pick(t))
