"""A private helper that copies with torch.tensor(t); its caller sets the default device
with torch.device(...) stored in a variable."""
import torch


def _snapshot():
    t = torch.zeros(2)
    return torch.tensor(t)


def run():
    ctx = torch.device("meta")
    with ctx:
        y = _snapshot()
    return str(y.device)
