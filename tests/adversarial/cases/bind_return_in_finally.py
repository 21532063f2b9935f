"""return in finally runs with t a list when the try body raised before rebinding it."""
import torch


def load(n_text):
    t = [1.0, 2.0]
    try:
        t = torch.zeros(int(n_text))
    finally:
        return torch.tensor(t)  # noqa: B012


def run():
    return load("x"), load("2")
