"""nonlocal on a one-line nested def rebinds t before the copy."""
import torch


def run():
    t = torch.zeros(2)
    def reset(): nonlocal t; t = [1.0, 2.0]  # noqa: E306,E702,E704
    reset()
    return torch.tensor(t)
