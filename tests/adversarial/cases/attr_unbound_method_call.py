"""Scaler.frozen_gain(cfg) called unbound with another object whose .gain is a list (a
SimpleNamespace: no attribute store in the module's text)."""
import types

import torch


class Scaler:
    def __init__(self):
        self.gain = torch.ones(3)

    def frozen_gain(self):
        return torch.tensor(self.gain)


def run():
    a = Scaler().frozen_gain()
    cfg = types.SimpleNamespace(gain=[1.0, 2.0, 3.0])
    b = Scaler.frozen_gain(cfg)
    return a, b
