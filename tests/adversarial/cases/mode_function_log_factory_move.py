"""A TorchFunctionMode of the module logs each call: TRC112's fold of `.to(torch.float64)` into
the factory drops the `to` call it sees."""
import torch
from torch.overrides import TorchFunctionMode


class Log(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.calls.append(getattr(func, "__name__", str(func)))
        return func(*args, **(kwargs or {}))


def accumulator():
    return torch.zeros(3).to(torch.float64)


def run():
    with Log() as log:
        accumulator()
    return log.calls
