"""A class of the module's own with t() and view() (no reshape): p.t().view(-1) is no tensor's."""
import torch

EXPECT_FIX = False


class Ranked:
    def __init__(self, rows):
        self.rows = rows

    def t(self):
        return Ranked([list(r) for r in zip(*self.rows)])

    def view(self, *shape):
        return [x for r in self.rows for x in r], shape


class Ranker:
    def topk(self, k, dim=1):
        return None, Ranked([[1, 2], [3, 4]])


def flat(pred):
    return pred.t().view(-1)


def run():
    _, pred = Ranker().topk(1, 1)
    return flat(pred), torch.zeros(1)
