"""Positive: the attention merge with heads == 1 (legal view, same aliasing)."""
import torch

EXPECT_FIX = True


class Attn:
    heads = 1

    def forward(self, x):
        b, n, c = x.shape
        q = k = v = x.view(b, n, self.heads, c // self.heads).transpose(1, 2)
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).view(b, n, c)


def run():
    x = torch.randn(2, 3, 4, requires_grad=True)
    y = Attn().forward(x)
    y.sum().backward()
    return y, x.grad
