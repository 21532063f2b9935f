"""setattr(sys.modules[__name__], "torch", ...) swaps the import; TRC103's receiver is then no
tensor."""
import sys

import torch


class Node:
    def clone(self):
        return "cloned node"

    def detach(self):
        return self


class Fake:
    ones = staticmethod(lambda n: Node())


def run():
    setattr(sys.modules[__name__], "torch", Fake)
    t = torch.ones(2)
    return t.clone().detach()
