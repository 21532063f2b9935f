"""x.new_tensor(...) reads x before its argument, which rebinds x with `:=`: the copy
has the old x's dtype. A fix reading x.dtype after the argument would take the new one."""
import torch


def run():
    x = torch.zeros(2)
    y = x.new_tensor((x := torch.zeros(2, dtype=torch.float64)) + 1)
    return x, y
