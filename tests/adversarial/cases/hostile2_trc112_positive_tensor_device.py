"""Pins the safe TRC112 fixes that are exact: torch.tensor(data).to(torch.device('cpu')) with
mixed int/float data under a float64 default dtype, and zeros/ones/eye .to(dtype)."""
import torch

EXPECT_FIX = True


def run():
    torch.set_default_dtype(torch.float64)
    idx = torch.tensor([1, 2.5, True]).to(torch.device("cpu"))
    ints = torch.tensor([1, 2, 3]).to("cpu")
    acc = torch.zeros(5).to(torch.float32)
    eye = torch.eye(3).to(torch.int16)
    ones = torch.ones(2, 2).to(dtype=torch.bool)
    return idx, ints, acc, eye, ones
