"""A module-level name is a tensor where the function is defined, and rebound to a list
later at module level, before the function is called."""
import torch

WEIGHTS = torch.ones(3)


def frozen_weights():
    return torch.tensor(WEIGHTS)


WEIGHTS = [0.1, 0.2, 0.3]


def run():
    return frozen_weights()
