"""A TorchFunctionMode of the module logs each call: TRC110's swap of .cpu() and .detach()
reorders them."""
import torch
from torch.overrides import TorchFunctionMode


class Log(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.calls.append(getattr(func, "__name__", str(func)))
        return func(*args, **(kwargs or {}))


def export():
    w = torch.ones(2, requires_grad=True)
    return w.cpu().detach()


def run():
    with Log() as log:
        export()
    return log.calls
