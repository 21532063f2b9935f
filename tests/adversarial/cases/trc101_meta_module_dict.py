"""The default device set through torch.__dict__ lookup."""
import torch


def run():
    t = torch.ones(2)
    torch.__dict__["set_default_device"]("meta")
    return str(torch.tensor(t).device)
