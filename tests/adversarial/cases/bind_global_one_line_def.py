"""def reset(): global t; t = [...] on one line, called between the tensor assignment and the
use at module level."""
import torch

t = torch.zeros(2)
def reset(): global t; t = [1.0, 2.0]  # noqa: E301,E302,E305,E702,E704
reset()
snapshot = torch.tensor(t)


def run():
    return snapshot
