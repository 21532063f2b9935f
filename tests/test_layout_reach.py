"""Layouts past permutes, each rule checked against torch: TensorIterator outputs of mixed
inputs (``layout.tensor_iterator``), slices, ``expand_as``, and views proven legal by the
chunk rule (``layout.aligned_legal``); then the top-k accuracy helper end to end."""
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_layout_rules import c, dense_tensor, random_operands

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import layout as L
from flake8_torchcopy.analysis import viewlegality as VL
from flake8_torchcopy.analysis.symbolic import Mono, Sym

torch = pytest.importorskip("torch")


def _strided(rnd, shape):
    """A tensor of ``shape``: dense in a random dim order, or a strided slice of a bigger one."""
    if rnd.random() < 0.6:
        return dense_tensor(rnd, shape, odd_ones=False)
    steps = [rnd.choice([1, 2]) for _ in shape]
    big = dense_tensor(rnd, [s * k for s, k in zip(shape, steps)], odd_ones=False)
    return big[tuple(slice(None, None, k) for k in steps)]


def _expanded(rnd, shape):
    base = [1 if rnd.random() < 0.5 else s for s in shape]
    return dense_tensor(rnd, base, odd_ones=False).expand(*shape)


def _operands(rnd, shape):
    first = _strided(rnd, shape)
    rest = []
    for _ in range(rnd.randint(0, 2)):
        roll = rnd.random()
        if roll < 0.3:
            rest.append(_strided(rnd, shape))
        elif roll < 0.5:
            rest.append(_expanded(rnd, shape))
        else:
            rest.extend(o for o in random_operands(rnd, shape, 1) if o.dim() > 0)
    return [first] + rest


def _run(ops, cast):
    """An elementwise op of the operands; with ``cast`` the second one is an int tensor, so
    that (on the CPU) TensorIterator casts it to the common dtype first."""
    if cast and len(ops) > 1:
        ops = [ops[0], ops[1].to(torch.int64)] + ops[2:]
    if len(ops) == 1:
        return ops[0].eq(0.5)
    if len(ops) == 2:
        return ops[0].eq(ops[1])
    return torch.lerp(ops[0], ops[1].to(ops[0].dtype), ops[2].to(ops[0].dtype))


def test_tensor_iterator_claims_only_torchs_strides():
    rnd = random.Random(7)
    claimed = unknown = 0
    for _ in range(4000):
        shape = [rnd.choice([2, 3, 4, 5]) for _ in range(rnd.randint(2, 4))]
        ops = _operands(rnd, shape)
        hide = rnd.random() < 0.3
        model = [(c(*o.shape), None if hide and i else c(*o.stride())) for i, o in enumerate(ops)]
        ours = L.tensor_iterator(model)
        if ours is None:
            unknown += 1
            continue
        claimed += 1
        strides, _ = ours
        for cast in (False, True):
            out = _run(ops, cast)
            assert tuple(int(m.coef) for m in strides) == out.stride(), (
                shape, [(tuple(o.shape), o.stride()) for o in ops], out.stride(), strides, cast)
    assert claimed > 1500 and unknown > 100


def test_tensor_iterator_leaves_size_one_outputs_unknown():
    sizes = c(3, 1, 4)
    strides = L.swap(sizes, L.contiguous_strides(sizes), 0, 2)[1]
    assert L.tensor_iterator([(L.swap(sizes, L.contiguous_strides(sizes), 0, 2)[0], strides)]) is None


def test_tensor_iterator_with_symbols_holds_for_every_value_it_assumes():
    """Decided with every symbol at least 2; substituted with random values, torch agrees,
    and the symbols the decision rests on are named."""
    b, k = Sym("b"), Sym("k")
    B, K = Mono.sym(b), Mono.sym(k)
    sizes, strides = L.swap((B, K), L.contiguous_strides((B, K)), 0, 1)  # pred.t(): (k, b)
    expanded = L.expand((Mono.const(1), B), L.contiguous_strides((Mono.const(1), B)), [K, B])
    out = L.tensor_iterator([(sizes, strides), expanded])
    assert out is not None
    got, assumed = out
    assert {b, k} >= assumed and k in assumed
    rnd = random.Random(3)
    for _ in range(50):
        vb, vk = rnd.randint(2, 9), rnd.randint(2, 9)
        pred = torch.randn(vb, vk).t()
        target = torch.randn(1, vb).expand(vk, vb)
        value = {b: vb, k: vk}
        want = tuple(int(m.coef) * _value(m, value) for m in got)
        assert pred.eq(target).stride() == want


def _value(m, values):
    out = 1
    for s, e in m.powers:
        out *= values[s] ** e
    return out


def test_tensor_iterator_unknown_where_a_hidden_input_would_decide():
    sizes = c(3, 4)
    broadcast_first = (c(1, 4), c(4, 1))  # asks the next input about dims 0 and 1
    assert L.tensor_iterator([broadcast_first, (sizes, None)]) is None
    assert L.tensor_iterator([(sizes, c(1, 3)), (sizes, None)]) == (c(1, 3), frozenset())


# ----------------------------------------------------------------------- views proven legal


def test_aligned_views_work_for_every_size():
    """``x.transpose(1, 2)`` of ``(b, n, c)`` viewed as ``(b, c, h, w)`` with ``n == h * w``:
    the chunk rule proves it legal whatever the sizes; torch agrees on random ones."""
    b, n, ch, h, w = (Mono.sym(Sym(s)) for s in ("b", "n", "c", "h", "w"))
    sizes, strides = L.swap((b, n, ch), L.contiguous_strides((b, n, ch)), 1, 2)
    # n is h * w only at run time: the analysis sees unrelated symbols
    assert VL.aligned_legal(sizes, strides, [b, ch, h, w])
    assert VL.aligned_legal(sizes, strides, [b, ch, n])
    assert not VL.aligned_legal(sizes, strides, [b * ch, n])
    rnd = random.Random(5)
    for _ in range(200):
        vb, vh, vw, vc = (rnd.randint(1, 4) for _ in range(4))
        x = torch.randn(vb, vh * vw, vc).transpose(1, 2)
        assert x.view(vb, vc, vh, vw).shape == (vb, vc, vh, vw)


def test_aligned_legal_never_claims_a_view_that_raises():
    rnd = random.Random(11)
    claimed = 0
    for _ in range(3000):
        rank = rnd.randint(2, 4)
        shape = [rnd.choice([1, 2, 3, 4, 6]) for _ in range(rank)]
        x = _strided(rnd, shape)
        # a target: the source dims, some merged, some split in two
        target = []
        i = 0
        while i < rank:
            if i + 1 < rank and rnd.random() < 0.3:
                target.append(shape[i] * shape[i + 1])
                i += 2
                continue
            s = shape[i]
            if s in (4, 6) and rnd.random() < 0.4:
                target.extend([2, s // 2])
            else:
                target.append(s)
            i += 1
        legal = VL.aligned_legal(c(*x.shape), c(*x.stride()), c(*target))
        try:
            x.view(*target)
            works = True
        except RuntimeError:
            works = False
        if legal:
            claimed += 1
            assert works, (tuple(x.shape), x.stride(), target)
    assert claimed > 500


# ----------------------------------------------------------------------- end to end

# the bundled example: PyTorch's ImageNet top-k accuracy helper
TOPK = (Path(__file__).resolve().parent.parent / "examples" / "metrics.py").read_text(encoding="utf-8")
TOPK_VIEW_LINE = next(i for i, line in enumerate(TOPK.splitlines(), 1) if "correct[:k].view(-1)" in line)


def _trc201(src):
    return [f for f in lint_source(src, "t.py") if f.code == "TRC201"]


def test_topk_accuracy_helper_is_reported_and_raises_as_claimed():
    found = _trc201(TOPK)
    assert [f.line for f in found] == [TOPK_VIEW_LINE]
    message = found[0].message
    assert "correct[:k].size(0) == 1" in message and "pred.size(0) == 1" in message
    program = TOPK + textwrap.dedent("""
        out, tgt = torch.randn(4, 10), torch.randint(0, 10, (4,))
        for topk in [(1, 5), (2,)]:
            try:
                accuracy(out, tgt, topk)
            except RuntimeError as e:
                assert "view size is not compatible" in str(e)
            else:
                raise SystemExit(f"no error for {topk}")
        accuracy(out, tgt, (1,))  # maxk == 1: one of the sizes named is 1
        accuracy(out[:1], tgt[:1], (1, 5))  # batch of 1
        """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("src", [
    # a slice of a contiguous tensor stays mergeable along the dims it keeps whole
    "import torch\ndef f(x):\n    y = torch.zeros(4, 5)\n    return y[1:3].view(-1)\n",
    # expand_as of a tensor already of that shape, then compared: contiguous
    "import torch\ndef f():\n    a = torch.zeros(4, 5)\n    b = torch.zeros(4, 5)\n"
    "    return a.eq(b.expand_as(a)).view(-1)\n",
    # the layout comes from the second input only when the first does not decide: unknown
    "import torch\ndef f(t):\n    a = torch.zeros(1, 5)\n    b = torch.zeros(4, 5).t()\n"
    "    return a.eq(b.t()).view(-1)\n",
    # segformer: (b, n, c) transposed and split back into (b, c, h, w)
    "import torch\ndef f(x, height, width):\n    b, n, c = x.shape\n"
    "    return x.transpose(1, 2).view(b, c, height, width)\n",
])
def test_views_that_work_stay_quiet(src):
    assert _trc201(src) == []


def test_a_split_after_a_transpose_is_legal():
    b, n, ch, h, w = (Mono.sym(Sym(s)) for s in ("b", "n", "c", "h", "w"))
    sizes, strides = L.swap((b, n, ch), L.contiguous_strides((b, n, ch)), 1, 2)
    assert VL.view_verdict(sizes, strides, [b, ch, h, w]) == (VL.LEGAL, [])


# What an op of a permuted tensor returns keeps its layout (or is never taken for a
# contiguous tensor): each of these runs without error, so none may be reported.
KEEPS_THE_LAYOUT = [
    "(-a).t().view(-1)",
    "(~(a > 0)).t().view(-1)",
    "abs(a).t().view(-1)",
    "(a > 0).t().view(-1)",
    "(a == a).t().view(-1)",
    "min([a]).t().view(-1)",
    "next(iter([a])).t().view(-1)",
    "{'k': a}['k'].t().view(-1)",
    "(a + a).t().view(-1)",
    "a.eq(0).t().view(-1)",
    "a.clone().t().view(-1)",
]


@pytest.mark.parametrize("expr", KEEPS_THE_LAYOUT)
def test_ops_of_a_permuted_tensor_keep_its_layout(expr):
    src = f"import torch\ndef f(x):\n    a = x.t()\n    return {expr}\n"
    assert _trc201(src) == []
    namespace = {}
    exec(src, namespace)
    assert namespace["f"](torch.randn(3, 4)).shape == (12,)


def test_an_elementwise_op_lays_out_like_its_first_input():
    src = ("import torch\ndef f():\n    a = torch.zeros(4, 5).t()\n    b = torch.zeros(5, 4)\n"
           "    return (a + b).view(-1)\n")
    assert [f.line for f in _trc201(src)] == [5]
    namespace = {}
    exec(src, namespace)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        namespace["f"]()


def test_a_size_named_before_a_rebinding_says_so():
    """speechbrain's Tacotron2: after ``x = x.transpose(1, 2)`` the view's own ``x.size(1)`` is
    another size than the one that must be 1; the message names the old x's, and it holds."""
    src = ("import torch\ndef parse(x, k):\n    x = x.transpose(1, 2)\n"
           "    return x.view(x.size(0), int(x.size(1) / k), -1)\n")
    (found,) = _trc201(src)
    assert found.message.endswith("unless k == 1 or (x before .transpose(1, 2)).size(1) == 1")
    namespace = {}
    exec(src, namespace)
    assert namespace["parse"](torch.randn(2, 1, 10), 2).shape == (2, 5, 2)  # the old size(1) is 1
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        namespace["parse"](torch.randn(2, 3, 10), 2)


def test_a_range_index_keeps_the_layout():
    src = ("import torch\n\n\ndef f(x, n):\n    y = x.permute(0, 2, 1)\n    for b in range(n):\n"
           "        y[b].view(-1)\n")
    assert [(f.line, f.code) for f in lint_source(src, "m.py")] == [(7, "TRC201")]
    ns: dict = {}
    exec(src, ns)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        ns["f"](torch.randn(2, 3, 4), 2)
