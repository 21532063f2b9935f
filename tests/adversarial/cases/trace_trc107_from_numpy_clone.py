"""torch.jit.trace of a function whose torch.from_numpy(t.numpy()).clone() the trace keeps
as a constant."""
import torch

EXPECT_FIX = False


def g(x):
    t = torch.zeros(3) + 1
    t.add_(x)
    return torch.from_numpy(t.numpy()).clone()


def run():
    tf = torch.jit.trace(g, (torch.zeros(3),))
    return tf(torch.ones(3))
