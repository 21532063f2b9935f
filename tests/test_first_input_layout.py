"""``layout.first_input_decides``: a TensorIterator output whose first input is dense, of the
output's sizes and with no stride 0, has that input's strides on every dim of size above 1,
whatever the other inputs are (strided, expanded, broadcast, cast to another dtype) and
whatever sizes turn out to be 1.  Checked against torch on random operands, then the
symbolic rule (its refusals, and its claims with random values put in for the symbols)."""
import math
import random

import pytest
from test_layout_rules import c, dense_tensor, nonone

from flake8_torchcopy.analysis import layout as L
from flake8_torchcopy.analysis.symbolic import Mono, Rest, Sym

torch = pytest.importorskip("torch")


def _first(rnd, shape):
    """A dense tensor of ``shape`` in a random dim order, its size-1 dims with odd strides
    (never 0)."""
    t = dense_tensor(rnd, shape, odd_ones=False)
    st = [rnd.choice([1, 2, 3, 5, 7, 100]) if n == 1 and rnd.random() < 0.6 else s
          for n, s in zip(shape, t.stride())]
    return torch.as_strided(t, t.shape, st)


def _other(rnd, shape):
    """A tensor broadcasting into ``shape``: full, with dims set to 1 or dropped; dense (odd
    strides on size-1 dims, 0 among them), a strided slice, or expanded."""
    rank = len(shape) if rnd.random() < 0.6 else rnd.randint(0, len(shape))
    sub = [s if rnd.random() < 0.7 else 1 for s in shape[len(shape) - rank:]]
    roll = rnd.random()
    if roll < 0.4 or not sub:
        return dense_tensor(rnd, sub) if sub else torch.tensor(0.5)
    if roll < 0.7:
        steps = [rnd.choice([1, 2]) for _ in sub]
        big = dense_tensor(rnd, [s * k for s, k in zip(sub, steps)], odd_ones=False)
        return big[tuple(slice(None, None, k) for k in steps)]
    base = [1 if rnd.random() < 0.5 else s for s in sub]
    return dense_tensor(rnd, base).expand(*sub)


def _op(ops, cast):
    """An elementwise op of the operands (the first first); with ``cast`` the second is an
    int tensor, which the CPU casts to the common dtype before laying out the output."""
    if cast and len(ops) > 1:
        ops = [ops[0], ops[1].to(torch.int64)] + ops[2:]
    if len(ops) == 2:
        return ops[0].eq(ops[1]) if cast else ops[0] + ops[1]
    return torch.lerp(ops[0], ops[1].to(ops[0].dtype), ops[2].to(ops[0].dtype))


def test_the_first_input_decides_in_torch():
    """The rule itself, on concrete tensors: sizes 1 to 4 (1 included), ranks 1 to 5."""
    rnd = random.Random(11)
    for _ in range(3000):
        shape = [rnd.choice([1, 2, 3, 4]) for _ in range(rnd.randint(1, 5))]
        first = _first(rnd, shape)
        ops = [first] + [_other(rnd, shape) for _ in range(rnd.randint(1, 2))]
        for cast in (False, True):
            out = _op(ops, cast)
            assert tuple(out.shape) == tuple(shape)
            assert nonone(shape, out.stride()) == nonone(shape, first.stride()), (
                shape, [(tuple(o.shape), o.stride()) for o in ops], out.stride(), cast)


def _subst(m, values):
    out = m.coef
    for s, e in m.powers:
        out *= values[s] ** e
    return int(out)


def test_symbolic_claims_hold_for_every_value():
    """Sizes named by symbols, the first input a permutation of a contiguous tensor, the
    others broadcasting into it: the claim is the first's strides, and with any values of
    the symbols (1 among them) torch gives them on the dims above 1."""
    rnd = random.Random(5)
    claimed = 0
    for _ in range(400):
        rank = rnd.randint(2, 4)
        syms = [Sym(f"s{i}") for i in range(rank)]
        sizes = tuple(Mono.sym(s) for s in syms)
        order = list(range(rank))
        rnd.shuffle(order)
        first = L.permute(sizes, L.contiguous_strides(sizes), order)  # x.permute(order)
        assert first is not None
        other_rank = rnd.randint(0, rank)
        keep = [rnd.random() < 0.7 for _ in range(other_rank)]
        other = tuple(m if k else Mono.const(1) for m, k in zip(first[0][rank - other_rank:], keep))
        claim = L.first_input_decides(first, [other])
        assert claim == first[1]
        claimed += 1
        for _ in range(5):
            values = {s: rnd.choice([1, 2, 3, 4]) for s in syms}
            base = torch.randn([values[s] for s in syms]).permute(order)
            shape = list(base.shape)
            assert shape == [_subst(m, values) for m in first[0]]
            assert nonone(shape, base.stride()) == nonone(shape, [_subst(m, values) for m in first[1]])
            osub = [n if k else 1 for n, k in zip(shape[rank - other_rank:], keep)]
            ops = [base, _other(rnd, osub) if osub else torch.tensor(0.5)]
            out = _op(ops, rnd.random() < 0.5)
            assert nonone(shape, out.stride()) == nonone(shape, tuple(_subst(m, values) for m in claim))
    assert claimed == 400


def test_open_layouts_hold_for_every_rank():
    """A transpose of a tensor of unknown rank (``(a, b, rest)``): compared with an input of
    its sizes, the output has its strides, the rest contiguous among themselves, for ranks
    2 to 5 and any sizes."""
    sa, sb = Sym("a"), Sym("b")
    a, b = Mono.sym(sa), Mono.sym(sb)
    rest_sym = Rest("rest")
    rest = Mono.sym(rest_sym)
    sizes = (a, b, rest)
    swapped = L.swap(sizes, L.contiguous_strides(sizes), 0, 1)
    claim = L.first_input_decides(swapped, [swapped[0]], closed=False)
    assert claim == swapped[1]
    rnd = random.Random(9)
    for _ in range(300):
        tail = [rnd.choice([1, 2, 3]) for _ in range(rnd.randint(0, 3))]
        va, vb = rnd.choice([1, 2, 3, 4]), rnd.choice([1, 2, 3, 4])
        x = torch.randn([va, vb] + tail).transpose(0, 1)
        values = {sa: va, sb: vb, rest_sym: math.prod(tail)}
        y = _other(rnd, list(x.shape))
        out = x.eq(y.expand_as(x)) if rnd.random() < 0.5 else torch.add(x, y.expand_as(x).to(torch.int64))
        want = [_subst(claim[0], values), _subst(claim[1], values)]
        acc = _subst(claim[2], values)
        for n in reversed(tail):
            want.insert(2, acc)
            acc *= n
        shape = list(x.shape)
        assert nonone(shape, out.stride()) == nonone(shape, want)


@pytest.mark.parametrize("first, others, closed", [
    ((c(3, 1, 4), c(1, 3, 12)), [c(3, 1, 4)], True),  # a literal 1: its stride is not torch's
    ((c(3, 4), c(8, 1)), [c(3, 4)], True),  # not dense
    ((c(3, 4), c(0, 1)), [c(3, 4)], True),  # a stride 0
    ((c(3, 4), c(1, 3)), [c(2, 3, 4)], True),  # another has more dims: the first broadcast
    ((c(1, 4), c(4, 1)), [c(3, 4)], True),  # the first broadcast along a dim
    ((c(3, 4), None), [c(3, 4)], True),  # strides not known
    ((c(3, 4, 5), c(5, 15, 1)), [c(4, 5)], False),  # open: another of other sizes
])
def test_refusals(first, others, closed):
    assert L.first_input_decides(first, others, closed=closed) is None


def test_refusals_are_needed():
    """What the refusals guard against happens in torch: a first input broadcast along a
    dim, or with a stride 0 on a size-1 dim, does not hand its strides on."""
    out = torch.randn(1, 4) + torch.randn(4, 3).t()
    assert out.stride() == (1, 3)  # the first's stride on dim 1 is 1
    f = torch.as_strided(torch.randn(18), (2, 1, 3, 3), (1, 0, 2, 6))
    g = torch.as_strided(torch.randn(18), (2, 1, 3, 3), (9, 5, 3, 1))
    assert nonone((2, 1, 3, 3), (f + g).stride()) != nonone((2, 1, 3, 3), f.stride())


# ------------------------------------------------------------ views of a tensor of unknown rank

CUT = '''import torch


def f(y, k):
    return {expr}
'''


@pytest.mark.parametrize("expr, reported", [
    ("y.transpose(0, 1)[:k].view(-1)", True),  # a part cut from the permuted dim
    ("y.transpose(0, 1).eq(y.transpose(0, 1).expand_as(y.transpose(0, 1)))[:k].view(-1)", True),
    ("y.transpose(1, 2)[:k].view(-1)", False),  # the cut dim is not why it raises
    ("y.squeeze(0).transpose(1, 0).view(-1)", False),  # sizes never read (1 by design, maybe)
    ("y.transpose(0, 1)[:2].view(-1)", True),
    ("y.transpose(0, 1)[1:].view(-1)", True),
])
def test_views_of_a_part_cut_from_an_open_layout(expr, reported, tmp_path):
    """Reported only where a part the code cut (a slice of a size not known) takes part in why
    the view raises; each report raises in torch for ranks 2 to 4 (the first dims above 2)."""
    from flake8_torchcopy import lint_source
    src = CUT.format(expr=expr)
    assert any(f.code == "TRC201" for f in lint_source(src)) == reported
    if reported:
        namespace: dict = {}
        exec(compile(src, "cut.py", "exec"), namespace)
        for shape in [(3, 4), (3, 4, 5), (3, 3, 1, 2), (4, 3, 1)]:
            with pytest.raises(RuntimeError, match="view size is not compatible"):
                namespace["f"](torch.randn(shape), 2)
