"""A metaclass's __prepare__ hands the class body a namespace that stores tensors as
lists: in the body, t reads back a list (torch.tensor of it is float32, a list has no detach)."""
import torch

EXPECT_FIX = False


class Listing(dict):
    def __setitem__(self, k, v):
        super().__setitem__(k, v.tolist() if isinstance(v, torch.Tensor) else v)


class Meta(type):
    @classmethod
    def __prepare__(mcls, name, bases):
        return Listing()


class A(metaclass=Meta):
    t = torch.ones(2, dtype=torch.float64)
    y = torch.tensor(t)


def run():
    return A.y
