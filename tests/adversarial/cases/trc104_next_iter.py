"""torch.empty_like(next(it)).copy_(next(it)): two reads of the iterator, the first gives
the shape, the second the data. t.clone() would read it once."""
import torch


def run():
    frames = iter([torch.zeros(3), torch.arange(3.0), torch.ones(3)])
    y = torch.empty_like(next(frames)).copy_(next(frames))
    rest = list(frames)
    return y, len(rest)
