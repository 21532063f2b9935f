"""torch.tensor of int64 and float32 arrays is float32, of np.array of them float64; 0-d
arrays raise only in torch; an empty comprehension is float32 against float64.  No safe fix."""
import numpy as np
import torch

EXPECT_FIX = False


def run():
    i = np.arange(3)
    f = np.ones(3, dtype=np.float32)
    mixed = torch.tensor([i, f])
    try:
        zero_d = torch.tensor([np.array(1.0), np.array(2.0)])
    except TypeError as exc:
        zero_d = str(exc)
    empty = torch.tensor([np.zeros(3) for _ in range(0)])
    rows = []
    for _ in range(2):
        rows.append(np.zeros((0, 3)) + 1.0)
    return mixed, zero_d, empty, torch.tensor(rows)
