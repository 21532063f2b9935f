"""self.__dict__.update(state) (a __setstate__) replaces a tensor attribute."""
import torch


class Stats:
    def __init__(self):
        self.mean = torch.zeros(3)

    def __setstate__(self, state):
        self.__dict__.update(state)

    def frozen_mean(self):
        return torch.tensor(self.mean)


def run():
    s = Stats.__new__(Stats)
    s.__setstate__({"mean": [1.0, 2.0, 3.0]})
    return s.frozen_mean()
