"""A class body with a plain namespace (no metaclass, a torch base, a plain local base):
t is the tensor it was bound to and the copy's fix stays safe."""
import torch

EXPECT_FIX = True


class Base:
    pass


class A(Base):
    t = torch.ones(2, dtype=torch.float64)
    y = torch.tensor(t)


class M(torch.nn.Module):
    w = torch.ones(3)
    v = torch.tensor(w)


def run():
    return A.y, M.v
