"""state_dict() of a non-module object whose values are user objects with clone/detach."""
import torch


class Counter:
    def __init__(self, n):
        self.n = n
        self.detached = False

    def clone(self):
        return Counter(self.n)

    def detach(self):
        self.detached = True
        return self


class Meter:
    def __init__(self):
        self.count = Counter(3)

    def state_dict(self):
        return {"count": self.count}


def _freeze_all(obj):
    return {k: v.clone().detach() for k, v in obj.state_dict().items()}


def run():
    m = Meter()
    frozen = _freeze_all(m)
    return m.count.detached, frozen["count"].detached
