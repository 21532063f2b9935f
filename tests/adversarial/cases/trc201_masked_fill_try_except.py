"""x.transpose(0, 2).masked_fill(mask, v) with a broadcast mask is contiguous in the
transposed order, so transposing back and merging dims with .view() raises; the code catches
that and records which path it took."""
import torch


def run():
    bsz, src, dim = 2, 3, 4
    x = torch.randn(src, bsz, dim)
    mask = torch.tensor([[False, True, False], [True, False, False]])
    y = x.transpose(0, 2).masked_fill(mask.view(1, bsz, src), 0.0)
    back = y.transpose(0, 2)
    try:
        flat = back.view(src * bsz, dim)
        flat.add_(1)
        mode = "view"
    except RuntimeError:
        flat = None
        mode = "raised"
    return y, mode
