"""getattr(torch, "set_default_device")("meta") sets the default device."""
import torch


def run():
    t = torch.randn(3)
    getattr(torch, "set_default_device")("meta")
    y = torch.tensor(t)
    return str(y.device)
