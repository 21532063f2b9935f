"""for p in model.parameters(): p.clone().detach() with a model-like object whose parameters
are user objects that count detaches."""
import torch


class Param:
    def __init__(self):
        self.detaches = 0

    def clone(self):
        return Param()

    def detach(self):
        self.detaches += 1
        return self


class Fake:
    def __init__(self):
        self.ps = [Param(), Param()]

    def parameters(self):
        return iter(self.ps)


def frozen(model):
    return [p.clone().detach() for p in model.parameters()]


def run():
    m = Fake()
    out = frozen(m)
    return [p.detaches for p in m.ps], [p.detaches for p in out]
