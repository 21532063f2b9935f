"""a method called through getattr inside a try."""
import torch

EXPECT_FIX = False


class A:
    def merge(self):
        x = torch.randn(2, 3, 4)
        return x.transpose(1, 2).view(2, 12)


def run():
    try:
        return getattr(A(), "merge")()
    except RuntimeError:
        return "caught"
