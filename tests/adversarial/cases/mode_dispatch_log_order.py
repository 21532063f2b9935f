"""A TorchDispatchMode of the module logs the ops: the swap of clone and detach (TRC103)
reorders what it records."""
import torch
from torch.utils._python_dispatch import TorchDispatchMode


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def copy_weights():
    w = torch.ones(2, requires_grad=True)
    return w.clone().detach()


def run():
    with Log() as log:
        copy_weights()
    return log.ops
