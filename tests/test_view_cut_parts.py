"""A view of a part cut from a dim (``x[:, :k]``, the size not known): the cut is at most the
dim it was cut from, and smaller unless it keeps it whole, so merging it with the dim before
raises unless that dim is 1, the cut is 1, or the cut is the whole dim (a real site:
pytorchcv propainter.py, ``ds_mask_in[:, :l_t].view(-1, 1, height, width)``).

Checked against torch on random tensors of symbolic sizes, permuted or not, with one or two
dims cut (a step of 1 or 2, a random start): every value a size may take is tried (1
included), and every size a cut may have (1 and the whole dim included).  A view judged to
raise does unless one of the named sets holds; one judged legal works.
"""
import itertools
import math
import random

import pytest
import torch

from flake8_torchcopy.analysis import layout as L
from flake8_torchcopy.analysis import viewlegality as VL
from flake8_torchcopy.analysis.symbolic import ONE, Cut, Mono, Sym

VALUES = (1, 2, 3)


def _case(rnd):
    rank = rnd.randint(2, 4)
    syms = [Sym(f"s{i}") for i in range(rank)]
    lits = [rnd.choice([None, None, None, 3]) for _ in range(rank)]
    mem = [Mono.const(v) if v else Mono.sym(s) for v, s in zip(lits, syms)]
    order = list(range(rank))
    if rnd.random() < 0.4:
        rnd.shuffle(order)
    mem_strides = L.contiguous_strides(mem)
    sizes = [mem[o] for o in order]
    strides = [mem_strides[o] for o in order]
    cuts = {}  # dim -> (Cut, step)
    for d in rnd.sample(range(rank), rnd.randint(1, min(2, rank))):
        step = rnd.choice([1, 1, 2])
        cut = Cut(f"x.size({d})", ("slice", 0, d), sizes[d])
        cuts[d] = (cut, step)
        sizes[d] = Mono.sym(cut)
        strides[d] = strides[d] * Mono.const(step)
    n = rank
    bounds = sorted(rnd.sample(range(1, n), rnd.randint(0, n - 1)))
    groups = [list(range(lo, hi)) for lo, hi in zip([0] + bounds, bounds + [n])]
    target = [math.prod((sizes[i] for i in g), start=ONE) for g in groups]
    hole = rnd.randrange(len(target)) if rnd.random() < 0.5 else None
    if hole is not None:
        target[hole] = None
    return lits, syms, order, cuts, sizes, strides, target, groups, hole


def _cut_sizes(whole, step):
    return range(0, -(-whole // step) + 1)  # every length a slice with this step can have, 0 too


def test_views_of_cut_parts_raise_or_work_as_torch_says():
    rnd = random.Random(201)
    judged = {VL.ILLEGAL: 0, VL.LEGAL: 0}
    with_whole = 0
    for _ in range(300):
        lits, syms, order, cuts, sizes, strides, target, groups, hole = _case(rnd)
        verdict, rescues = VL.view_verdict(sizes, strides, target)
        if verdict == VL.UNKNOWN:
            continue
        judged[verdict] += 1
        with_whole += any(isinstance(s, VL._Whole) for r in rescues for s in r)
        for combo in itertools.product(VALUES, repeat=len(syms)):
            mem = [v if v else c for v, c in zip(lits, combo)]
            base = torch.arange(math.prod(mem)).view(*mem).permute(*order)
            dims = sorted(cuts)
            for lengths in itertools.product(*(_cut_sizes(base.shape[d], cuts[d][1]) for d in dims)):
                x = base
                at_one = {s for s, c in zip(syms, combo) if c == 1}
                for d, n in zip(dims, lengths):
                    cut, step = cuts[d]
                    whole = x.shape[d]
                    start = rnd.randrange(whole - max(n - 1, 0) * step)
                    x = x.narrow(d, start, max((n - 1) * step + 1, 0))[(slice(None),) * d + (slice(None, None, step),)]
                    assert x.shape[d] == n
                    at_one |= {cut} if n == 1 else set()
                    at_one |= {VL._Whole(cut)} if n == whole else set()
                    at_one |= {VL._Empty(cut)} if n == 0 else set()
                tgt = [math.prod(x.shape[i] for i in g) for g in groups]
                if hole is not None:
                    tgt[hole] = -1
                try:
                    v = x.view(*tgt)
                    works = True
                    r = x.reshape(*tgt)  # the fix: the same view where view works
                    assert (r.shape, r.stride(), r.data_ptr()) == (v.shape, v.stride(), v.data_ptr())
                except RuntimeError as e:
                    if "tensor of 0 elements" in str(e):  # [0, -1] of an empty part: ambiguous
                        with pytest.raises(RuntimeError, match="tensor of 0 elements"):
                            x.reshape(*tgt)
                        continue
                    assert "view size is not compatible" in str(e), (tgt, e)
                    works = False
                if verdict == VL.LEGAL:
                    assert works, (sizes, strides, target, combo, lengths)
                elif not any(set(r) <= at_one for r in rescues):
                    assert not works, (sizes, strides, target, rescues, combo, lengths)
    assert judged[VL.ILLEGAL] > 100 and judged[VL.LEGAL] > 100 and with_whole > 60, (judged, with_whole)


def test_the_propainter_view_raises_unless_one_named_size_holds():
    b, t, h, w = (Mono.sym(Sym(s)) for s in ("batch", "time", "height", "width"))
    cut = Cut("ds_mask_in[:, :l_t].size(1)", ("slice", 0, 1), t)
    sizes = (b, Mono.sym(cut), ONE, h, w)
    strides = L.contiguous_strides((b, t, ONE, h, w))
    verdict, rescues = VL.view_verdict(sizes, strides, (None, ONE, h, w))
    assert verdict == VL.ILLEGAL
    assert {tuple(s.name for s in r) for r in rescues} == {
        ("batch",), ("ds_mask_in[:, :l_t].size(1)",), ("ds_mask_in[:, :l_t].size(1) == time",),
        ("ds_mask_in[:, :l_t].size(1) == 0",)}
    x = torch.zeros(2, 5, 1, 3, 4)
    for batch, l_t in itertools.product((1, 2), range(0, 7)):
        part = x[:batch, :l_t]
        try:
            part.view(-1, 1, 3, 4)
            works = True
        except RuntimeError:
            works = False
        assert works == (batch == 1 or min(l_t, 5) in (0, 1, 5)), (batch, l_t)


def test_a_cut_merged_with_the_dims_after_it_is_legal():
    b, t, c = (Mono.sym(Sym(s)) for s in "btc")
    cut = Mono.sym(Cut("x[:, :k].size(1)", ("slice", 0, 1), t))
    strides = L.contiguous_strides((b, t, c))
    assert VL.view_verdict((b, cut, c), strides, (b, None))[0] == VL.LEGAL
    x = torch.zeros(3, 5, 4)[:, :2]
    assert x.view(3, -1).shape == (3, 8)
