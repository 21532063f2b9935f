"""A private method _copy_state(self) reached unbound through the class with a stand-in
object (as a test double or a mixin does)."""
import types

import torch


class Tracker:
    def __init__(self):
        self.state = torch.zeros(2)

    def _copy_state(self):
        return self.state.clone().detach()

    def snapshot(self):
        return self._copy_state()


class Recorder:
    def __init__(self):
        self.calls = []

    def clone(self):
        self.calls.append("clone")
        return self

    def detach(self):
        self.calls.append("detach")
        return self


def run():
    a = Tracker().snapshot()
    rec = Recorder()
    Tracker._copy_state(types.SimpleNamespace(state=rec))
    return a, rec.calls
