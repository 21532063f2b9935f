"""A slice with literal bounds of a dim whose size is known has the size Python's slice rule
gives (``x[..., :4]`` of 85 is 4; ``x[-3:]``, ``x[5:2]``, ``x[1::2]``): checked against torch
on random permuted tensors, and TRC201 reports a view of such a slice (or of its clone)
only where torch raises for it, and most of those (YOLOv4's ``output[..., :4].clone()``)."""
import random

import pytest
from probe import analysed, executed
from test_layout_rules import _ints, nonone, trc201

torch = pytest.importorskip("torch")

BOUNDS = [":4", "1:", "-3:", "5:2", "1::2", ":-1", "-2:-1", "0:1", "2:100", "::3", ":"]


def _cases(seed, count):
    rnd = random.Random(seed)
    for _ in range(count):
        rank = rnd.randint(2, 4)
        shape = [rnd.choice([1, 2, 3, 5, 7]) for _ in range(rank)]
        perm = list(range(rank))
        rnd.shuffle(perm)
        head = f"import torch\nx = torch.randn({', '.join(map(str, shape))}).permute({', '.join(map(str, perm))})\n"
        bound = rnd.choice(BOUNDS)
        where = rnd.choice([f"[..., {bound}]", f"[{bound}]", f"[:, {bound}]"])
        yield head, f"x{where}" + rnd.choice(["", ".clone()"])


def test_sliced_sizes_are_torchs():
    claimed = 0
    for head, expr in _cases(1, 300):
        src = head + f"probe({expr})\n"
        (value,), (real,) = analysed(src), executed(src)
        sizes, strides = _ints(value.sizes), _ints(value.strides)
        assert sizes == tuple(real.shape), src
        if strides is not None:
            claimed += 1
            assert nonone(real.shape, strides) == nonone(real.shape, real.stride()), src
    assert claimed > 200


def test_views_of_slices_are_reported_only_where_torch_raises():
    reported = missed = 0
    for head, expr in _cases(2, 300):
        src = head + f"y = {expr}\nz = y.view(-1, y.shape[-1])\n"
        try:
            executed(src)
            raises = False
        except RuntimeError as e:  # or an empty slice's -1 that cannot be inferred (reshape too)
            raises = "view size is not compatible" in str(e)
        found = bool(trc201(src))
        assert raises or not found, src  # never a legal view
        reported += found
        missed += raises and not found
    assert reported > 20 and missed <= reported // 4
