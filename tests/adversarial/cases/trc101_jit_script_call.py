"""The module scripts a function by a call, not a decorator: under TorchScript
torch.tensor(t) of a 0-dim int32 tensor is float32, detach().clone() keeps int32."""
import warnings

import torch


def build():
    t = torch.zeros((), dtype=torch.int32)
    return torch.tensor(t)


def run():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # torch.jit.script is deprecated
        scripted = torch.jit.script(build)
    return scripted()
