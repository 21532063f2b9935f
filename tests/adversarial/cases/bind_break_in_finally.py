"""break in finally swallows the exception raised before t became a tensor."""
import torch


def load(n_text):
    t = [1.0, 2.0]
    for _ in range(1):
        try:
            n = int(n_text)
            t = torch.zeros(n)
        finally:
            break  # noqa: B012 - swallows the exception
    return torch.tensor(t)


def run():
    return load("x")
