"""torch.tensor(t.numpy(), dtype=pick(t)): pick mutates t after numpy() made a view."""
import torch

EXPECT_FIX = False


def pick(t):
    t.resize_(5)
    t.fill_(2.0)
    return torch.float64


def run():
    t = torch.ones(3)
    y = torch.tensor(t.numpy(), dtype=pick(t))
    return y
