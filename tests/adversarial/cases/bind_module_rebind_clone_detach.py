"""The same with name.clone().detach(): a module-level tensor rebound later to a user
object whose clone/detach do bookkeeping."""
import torch


class Snapshot:
    def __init__(self):
        self.log = []

    def clone(self):
        self.log.append("clone")
        return self

    def detach(self):
        self.log.append("detach")
        return self


STATE = torch.zeros(2)


def frozen_state():
    return STATE.clone().detach()


STATE = Snapshot()


def run():
    s = frozen_state()
    return s.log
