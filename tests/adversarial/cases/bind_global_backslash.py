"""A global statement written with a backslash continuation."""
import torch

t = torch.zeros(2)


def reset():
    global \
        t
    t = [5.0, 6.0]


reset()
snapshot = torch.tensor(t)


def run():
    return snapshot
