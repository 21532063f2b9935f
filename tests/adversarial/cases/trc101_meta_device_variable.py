"""with torch.device(target): the device comes from a variable (here "meta")."""
import torch

target = "meta"


def run():
    t = torch.ones(2)
    with torch.device(target):
        y = torch.tensor(t)
    return str(y.device)
