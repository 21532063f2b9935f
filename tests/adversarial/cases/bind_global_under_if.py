"""A global statement under an if (it applies to the whole function anyway)."""
import torch

t = torch.zeros(2)


def reset(flag):
    if flag:
        global t
    t = [3.0, 4.0]


reset(False)
snapshot = torch.tensor(t)


def run():
    return snapshot
