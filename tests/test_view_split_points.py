"""``viewlegality._split_impossible``: a view of a permuted tensor raises when a boundary
between two source dims that never merge cannot be the end of a target dim, though the
target's sizes are not all known (``out.view(-1, w)`` of a batch_first RNN's output, a
real site: geyang/deep-auto-punctuation model.py:32).

Checked against torch on random permuted tensors of symbolic sizes and random targets,
a fresh size among them: every value a symbol may take is tried (1 included), and a
fresh size takes every divisor of the element count, the coincidences that could end a
target dim at a boundary (``w == t * f``) among them.  A view judged to raise does unless
one of the named sets of sizes is all 1; one judged legal works.
"""
import itertools
import math
import random

import torch

from flake8_torchcopy.analysis import layout as L
from flake8_torchcopy.analysis import viewlegality as VL
from flake8_torchcopy.analysis.symbolic import Mono, Sym

VALUES = (1, 2, 3)


def _case(rnd):
    rank = rnd.randint(2, 4)
    syms = [Sym(f"s{i}") for i in range(rank)]
    # a dim is a symbol or a literal size; memory order random (the source a permute)
    lits = [rnd.choice([None, None, 2, 3]) for _ in range(rank)]
    mem = [Mono.const(v) if v else Mono.sym(s) for v, s in zip(lits, syms)]
    order = list(range(rank))
    rnd.shuffle(order)  # logical dim i is memory dim order[i]
    mem_strides = L.contiguous_strides(mem)
    sizes = [mem[o] for o in order]
    strides = [mem_strides[o] for o in order]
    w = Sym("w")
    cuts = sorted(rnd.sample(range(1, rank), rnd.randint(0, rank - 1)))
    groups = [list(range(lo, hi)) for lo, hi in zip([0] + cuts, cuts + [rank])]
    target = [math.prod((sizes[i] for i in g), start=Mono.const(1)) for g in groups]
    form = rnd.choice(["plain", "hole", "fresh", "fresh_first"])
    if form == "hole":
        target[rnd.randrange(len(target))] = None
    elif form == "fresh":
        target = [None, Mono.sym(w)]
    elif form == "fresh_first":
        target = [Mono.sym(w), None]
    return lits, syms, order, sizes, strides, target, groups, form, w


def _concrete(lits, syms, order, groups, form, values, w_value):
    mem = [v if v else values[s] for v, s in zip(lits, syms)]
    base = torch.arange(math.prod(mem)).view(*mem)
    x = base.permute(*order)
    if form in ("fresh", "fresh_first"):
        target = [-1, w_value] if form == "fresh" else [w_value, -1]
    else:
        target = [math.prod(x.shape[i] for i in g) for g in groups]
    return x, target


def test_judged_views_raise_or_work_as_torch_says():
    rnd = random.Random(18)
    judged = {VL.ILLEGAL: 0, VL.LEGAL: 0}
    fresh_illegal = 0
    for _ in range(400):
        lits, syms, order, sizes, strides, target, groups, form, w = _case(rnd)
        hole = None if form not in ("plain", "hole") else next(
            (k for k, t in enumerate(target) if t is None), None)
        verdict, rescues = VL.view_verdict(sizes, strides, target)
        if verdict == VL.UNKNOWN:
            continue
        judged[verdict] += 1
        fresh_illegal += verdict == VL.ILLEGAL and form.startswith("fresh")
        for combo in itertools.product(VALUES, repeat=len(syms)):
            values = dict(zip(syms, combo))
            total = math.prod(v if v else values[s] for v, s in zip(lits, syms))
            w_values = [d for d in range(1, total + 1) if total % d == 0] if form.startswith("fresh") else [None]
            for w_value in w_values:
                x, tgt = _concrete(lits, syms, order, groups, form, values, w_value)
                if hole is not None:
                    tgt[hole] = -1
                try:
                    x.view(*tgt)
                    works = True
                except RuntimeError as e:
                    assert "view size is not compatible" in str(e), (tgt, e)
                    works = False
                at_one = {s for s in syms if values[s] == 1} | ({w} if w_value == 1 else set())
                rescued = any(set(r) <= at_one for r in rescues)
                if verdict == VL.LEGAL:
                    assert works, (sizes, strides, target, combo, w_value)
                elif not rescued:
                    assert not works, (sizes, strides, target, rescues, combo, w_value)
    assert judged[VL.ILLEGAL] > 60 and judged[VL.LEGAL] > 60 and fresh_illegal > 15


def test_a_batch_first_output_viewed_with_a_leading_hole():
    b, t, f, w = (Mono.sym(Sym(s)) for s in "btfw")
    sizes, strides = (b, t, f), (f, b * f, Mono.const(1))  # (T, B, F) transposed back
    for target in ([None, w], [None, Mono.const(8)], [None, f], [None, t * f]):
        verdict, rescues = VL.view_verdict(sizes, strides, target)
        assert verdict == VL.ILLEGAL, target
        assert {tuple(s.name for s in r) for r in rescues} >= {("b",), ("t",)}
    # the batch kept: the merge of t and f, as before
    assert VL.view_verdict(sizes, strides, [b, None])[0] == VL.ILLEGAL
    x = torch.randn(3, 2, 4).transpose(0, 1)  # b=2, t=3, f=4
    for width in (4, 12, 2, 8, 24, 1):  # every divisor that could end a dim at a boundary
        try:
            x.view(-1, width)
            raise AssertionError(width)
        except RuntimeError as e:
            assert "view size is not compatible" in str(e)
