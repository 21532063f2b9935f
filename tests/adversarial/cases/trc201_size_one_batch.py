"""(attn @ v).transpose(1, 2).view(b, n, c) with n == 1: the view works and aliases; the
result is written in place and the source must see it."""
import torch


def attend(q, heads):
    b, n, c = q.shape
    qh = q.view(b, n, heads, c // heads).transpose(1, 2)
    out = qh.transpose(1, 2).view(b, n, c)
    return out


def run():
    q = torch.zeros(2, 1, 4)
    out = attend(q, 2)
    out.add_(1)
    return q, out
