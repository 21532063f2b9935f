"""from torch import tensor, then a module-level def tensor(...) after the function that calls
tensor(t): at call time the name is the module's own function."""
import torch
from torch import tensor


def as_batch(n):
    t = torch.arange(float(n))
    return tensor(t)


def tensor(data, **kwargs):  # project-wide override: always float64, always a copy
    return torch.as_tensor(data, dtype=torch.float64).clone()


def run():
    return as_batch(3)
