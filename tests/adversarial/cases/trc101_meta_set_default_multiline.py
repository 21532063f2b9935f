"""torch.set_default_device(\n"meta") split over lines, at module level below the function."""
import torch


def snapshot():
    t = torch.zeros(2, device="cpu")
    return torch.tensor(t)


torch.set_default_device(
    "meta"
)


def run():
    return str(snapshot().device)
