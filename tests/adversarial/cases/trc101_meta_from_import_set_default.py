"""from torch import set_default_device as use_device; use_device("meta")."""
import torch
from torch import set_default_device as use_device


def run():
    t = torch.randn(3)
    use_device("meta")
    y = torch.tensor(t)
    return str(y.device)
