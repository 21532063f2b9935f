"""A generator over d.values() runs after a store into d: it sees the stored list."""
import torch

EXPECT_FIX = False


def run():
    d = {"a": torch.zeros(3), "b": torch.zeros(3)}
    g = (torch.tensor(v) for v in d.values())
    d["b"] = [1.0, 2.0]
    return list(g)
