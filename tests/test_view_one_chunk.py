"""``viewlegality.one_chunk``: a tensor whose dims all merge (size-1 dims skipped) takes
every view of as many elements, so its view is legal whatever the target's sizes; checked
against torch on random strided tensors, size-0, size-1 and expanded dims included."""
import itertools
import math
import random

import torch

from flake8_torchcopy.analysis import layout as L
from flake8_torchcopy.analysis import viewlegality as VL
from flake8_torchcopy.analysis.symbolic import Mono, Sym


def _tensor(rnd):
    shape = [rnd.choice([0, 1, 1, 2, 3, 4]) for _ in range(rnd.randint(0, 4))]
    x = torch.randn(*shape) if shape else torch.randn(())
    op = rnd.choice(["plain", "permute", "slice", "step", "expand", "unsqueeze"])
    if op == "permute" and x.dim() > 1:
        x = x.permute(*rnd.sample(range(x.dim()), x.dim()))
    elif op == "slice" and x.dim() and x.shape[0] > 1:
        x = x[1:]
    elif op == "step" and x.dim():
        x = x[..., ::2]
    elif op == "expand" and x.dim() and x.shape[-1]:
        x = x[..., :1].expand(*x.shape[:-1], 3)
    elif op == "unsqueeze":
        x = x.unsqueeze(rnd.randint(0, x.dim()))
    return x


def _targets(n, rnd):
    """Shapes of n elements: its factorizations (with 1s), a -1 in some."""
    out = []
    for rank in range(1, 4):
        for dims in itertools.product(range(0, n + 2), repeat=rank):
            if math.prod(dims) == n:
                out.append(list(dims))
    rnd.shuffle(out)
    picked = out[:6]
    for t in list(picked):
        if 0 not in t:
            t2 = list(t)
            t2[rnd.randrange(len(t2))] = -1
            picked.append(t2)
    return picked


def test_one_chunk_tensors_take_every_view():
    rnd = random.Random(7)
    claimed = 0
    for _ in range(1500):
        x = _tensor(rnd)
        c = Mono.const
        if not VL.one_chunk([c(s) for s in x.shape], [c(s) for s in x.stride()]):
            continue
        claimed += 1
        for t in _targets(x.numel(), rnd):
            assert x.view(*t).shape == x.reshape(*t).shape, (tuple(x.shape), x.stride(), t)
    assert claimed > 500


def test_a_contiguous_view_with_unknown_target_sizes_is_legal():
    """``base_grid.view(shape)`` of torchvision's perspective grid: the target's sizes are not
    known, the source is contiguous: legal; a transposed source stays undecided."""
    oh, ow = (Mono.sym(Sym(s)) for s in ("oh", "ow"))
    sizes = [Mono.const(1), oh, ow, Mono.const(3)]
    strides = list(L.contiguous_strides(sizes))
    assert VL.view_verdict(sizes, strides, [None, oh * ow, None]) == (VL.LEGAL, [])
    swapped = [sizes[0], sizes[2], sizes[1], sizes[3]], [strides[0], strides[2], strides[1], strides[3]]
    assert VL.view_verdict(*swapped, [None, oh * ow, None])[0] == VL.UNKNOWN
