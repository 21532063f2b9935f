"""nn.Module.forward run by calling the module inside a try."""
import torch

EXPECT_FIX = False


class Merge(torch.nn.Module):
    def forward(self, x):
        y = torch.randn(2, 3, 4)
        return y.transpose(1, 2).view(2, 12)


def run():
    m = Merge()
    try:
        return m(torch.zeros(1))
    except RuntimeError:
        return "caught"
