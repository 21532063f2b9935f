"""A small module with the copy and view idioms flake8-torchcopy finds (try: torchcopy-fix --diff examples/)."""
import copy

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int = 8) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, c = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        # raises for any batch with n > 1 and more than one head:
        out = (attn @ v).transpose(1, 2).view(b, n, c)
        return self.proj(out)


def snapshot(weights):
    w = torch.as_tensor(weights, dtype=torch.float32)
    frozen = w.clone().detach()  # keep a copy for the EMA
    again = torch.tensor(frozen)
    backup = copy.deepcopy(frozen)
    as_list = torch.tensor(frozen.tolist())
    return frozen, again, backup, as_list


def pool(x: torch.Tensor, k: int) -> torch.Tensor:
    b, c, t = x.shape
    x = x.transpose(1, 2)
    return x.view(b, x.size(1) // k, -1).mean(dim=2)
