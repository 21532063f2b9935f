"""Positive: torch.tensor of integer, bool and complex tensors, and of a permuted one."""
import torch

EXPECT_FIX = True


def run():
    i = torch.arange(6).view(2, 3)
    b = i > 2
    c = torch.randn(2, dtype=torch.complex64)
    p = torch.randn(2, 3, 4).permute(2, 0, 1)
    return torch.tensor(i), torch.tensor(b), torch.tensor(c), torch.tensor(p), torch.tensor(i.t())
