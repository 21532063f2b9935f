"""torch.tensor(t, dtype=f(), device=g()) where g() modifies t in place: torch.tensor reads
t's data after both calls; a rewrite that reads t later or earlier must see the same data."""
import torch


def run():
    t = torch.zeros(3)

    def f():
        print("f")
        return torch.float64

    def g():
        print("g")
        t.add_(1)
        return "cpu"

    y = torch.tensor(t, dtype=f(), device=g())
    return t, y
