"""x.transpose(0, 2).masked_fill(mask, v) with a broadcast mask is a fresh tensor contiguous in
the transposed order: merging its last two dims with .view() is legal and aliases it (a
rewrite to .reshape() must keep the alias: the in-place write shows through)."""
import torch


def run():
    src, bsz, dim = 3, 2, 4
    x = torch.randn(src, bsz, dim)
    mask = torch.tensor([[False, True, False], [True, False, False]])
    y = x.transpose(0, 2).masked_fill(mask.view(1, bsz, src), 0.0)
    flat = y.view(dim, bsz * src)
    flat.add_(1)
    return x, y, flat
