"""torch.tensor of an MKLDNN tensor raises NotImplementedError (a RuntimeError), which the
handler relies on; t.detach().clone() copies it."""
import torch


def run():
    t = torch.ones(2, 2).to_mkldnn()
    try:
        return torch.tensor(t).to_dense()
    except RuntimeError:
        return "no copy of an mkldnn tensor"
