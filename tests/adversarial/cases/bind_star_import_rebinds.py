"""from math import * after e was a tensor: e is now the float math.e."""
import torch

e = torch.ones(1)
from math import *  # noqa: E402,F401,F403

y = torch.tensor(e)


def run():
    return y
