"""torch.tensor([a, b]) of 1-d float32 arrays of known non-zero length: the safe fix wraps the
list in np.array(); the tensor, its dtype, shape and strides are the same (a dtype= and
requires_grad= included), only the "extremely slow" warning goes.  Zero-length arrays (other
strides through numpy) keep their call."""
import numpy as np
import torch

EXPECT_FIX = True
WARNINGS_THE_FIX_REMOVES = (r"list of numpy\.ndarrays is extremely slow",)


def run():
    a = np.ones(5, dtype=np.float32) / 3
    b = np.full(5, 0.7, dtype=np.float32).astype(np.float32) * 0.1
    e = np.zeros(0, dtype=np.float32)
    return (torch.tensor([a, b]), torch.tensor([a, b], dtype=torch.float64),
            torch.tensor([e, e]), torch.tensor([a, b, a], requires_grad=True))
