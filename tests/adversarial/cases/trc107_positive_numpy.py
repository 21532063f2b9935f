"""Positive: torch.tensor(t.cpu().numpy()) and torch.from_numpy(t.detach().numpy()).clone()
on proven tensors of several dtypes and layouts."""
import torch

EXPECT_FIX = True


def run():
    t = torch.randn(3, 4).t()
    i = torch.arange(6, dtype=torch.int32).view(2, 3)
    a = torch.tensor(t.cpu().numpy())
    b = torch.from_numpy(t.detach().numpy()).clone()
    c = torch.tensor(i.numpy())
    return t, a, b, c
