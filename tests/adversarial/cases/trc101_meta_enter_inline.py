"""torch.device("meta").__enter__() entered inline, never exited (as some notebooks do)."""
import torch

torch.device("meta").__enter__()


def run():
    t = torch.zeros(2, device="cpu")
    y = torch.tensor(t)
    return str(y.device)
