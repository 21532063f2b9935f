"""named_parameters() on a non-module object (a numpy-backed model with the same API)
yields lists; a private export helper copies each through torch.tensor."""
import torch


class NumpyModel:
    def __init__(self):
        self.w = [1.0, 2.0]
        self.b = [0.5]

    def named_parameters(self):
        yield "w", self.w
        yield "b", self.b

    def parameters(self):
        for _, p in self.named_parameters():
            yield p


def _export(model):
    return {name: torch.tensor(p) for name, p in model.named_parameters()}


def _frozen(model):
    return [p.clone().detach() if hasattr(p, "detach") else torch.tensor(p)
            for p in model.parameters()]


def run():
    return _export(NumpyModel()), _frozen(NumpyModel())
