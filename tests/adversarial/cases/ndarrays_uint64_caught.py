"""torch.tensor([a, b]) of two uint64 arrays: element by element it raises a TypeError (a
handler returns it), through np.array(...) it converts."""
import numpy as np
import torch

EXPECT_FIX = False


def run():
    try:
        return torch.tensor([np.ones(3, dtype=np.uint64), np.zeros(3, dtype=np.uint64)])
    except TypeError as e:
        return "TypeError", str(e)
