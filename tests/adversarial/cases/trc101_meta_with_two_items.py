"""with open(os.devnull) as f, torch.device("meta"): the device is the second item."""
import os

import torch


def run():
    t = torch.ones(2)
    with open(os.devnull) as f, torch.device("meta"):
        y = torch.tensor(t)
    return str(y.device), f.closed
