"""The class's base (a class of the module) has the metaclass whose __prepare__ stores
tensors as lists: the subclass's body reads t back as a list too."""
import torch

EXPECT_FIX = False


class Listing(dict):
    def __setitem__(self, k, v):
        super().__setitem__(k, v.tolist() if isinstance(v, torch.Tensor) else v)


class Meta(type):
    @classmethod
    def __prepare__(mcls, name, bases):
        return Listing()


class Base(metaclass=Meta):
    pass


class A(Base):
    t = torch.ones(2, dtype=torch.float64)
    y = torch.tensor(t)


def run():
    return A.y
