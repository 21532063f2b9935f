"""copy.deepcopy(t) of a Parameter with a grad: reported only, never fixed by default."""
import copy

import torch

EXPECT_FIX = False


def run():
    p = torch.nn.Parameter(torch.ones(2))
    p.sum().backward()
    q = copy.deepcopy(p)
    return type(q).__name__, q, q.grad
