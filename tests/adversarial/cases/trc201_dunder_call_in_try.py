"""__call__ of a class instance called inside a try."""
import torch

EXPECT_FIX = False


class Merge:
    def __call__(self):
        x = torch.randn(2, 3, 4)
        return x.transpose(1, 2).view(2, 12)


def run():
    m = Merge()
    try:
        return m()
    except RuntimeError:
        return "caught"
