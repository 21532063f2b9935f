"""torch.tensor(t) in a function, with the module-level name torch rebound after the def to a
recording shim (as tracing tools do): at call time torch.tensor is the shim's."""
import torch


def frozen():
    t = torch.arange(3.0)
    return torch.tensor(t)


class _Recorder:
    def __init__(self, real):
        self._real = real
        self.calls = []

    def __getattr__(self, name):
        return getattr(self._real, name)

    def tensor(self, data, **kwargs):
        self.calls.append(type(data).__name__)
        return self._real.tensor(data.tolist() if hasattr(data, "tolist") else data,
                                 dtype=self._real.float64)


torch = _Recorder(torch)


def run():
    y = frozen()
    return y, list(torch.calls)
