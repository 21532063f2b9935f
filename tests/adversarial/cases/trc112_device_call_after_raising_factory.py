"""The device comes from a call with a side effect: the original builds the factory first,
and for a negative size it raises before the call runs."""
import torch

CALLS = []


def pick():
    CALLS.append("pick")
    return "meta"


def build(n):
    return torch.zeros(n).to(device=pick())


def run():
    try:
        build(-1)
    except RuntimeError:
        pass
    return list(CALLS), build(2)
