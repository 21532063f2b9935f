"""A `:=` in a comprehension's element rebinds `t` for the next iteration: the first
copy is of a tensor, the second of a list."""
import torch


def run():
    t = torch.randn(3)
    return [(torch.tensor(t), (t := [1.0])) for _ in range(2)]
