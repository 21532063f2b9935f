"""for self.value in [...]: a loop target that stores an attribute."""
import torch


class Sweep:
    def __init__(self):
        self.value = torch.zeros(1)

    def run_sweep(self):
        out = []
        for self.value in ([0.1], [0.2]):
            out.append(self.snapshot())
        return out

    def snapshot(self):
        return torch.tensor(self.value)


def run():
    return Sweep().run_sweep()
