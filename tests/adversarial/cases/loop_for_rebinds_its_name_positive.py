"""for t in items: the body rebinds the name items, but the iterator keeps the tuple it
started with: every t is a tensor and the fix stays safe."""
import torch

EXPECT_FIX = True


def run():
    items = (torch.ones(2), torch.zeros(2))
    out = []
    for t in items:
        items = ([1.0, 2.0],)
        out.append(torch.tensor(t))
    return out, items
