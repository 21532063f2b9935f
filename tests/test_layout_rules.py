"""The layout rules TRC201's proofs rest on, each checked against torch.

- Elementwise ops (TensorIterator): the output's dim order is a sort over the strides of *all*
  tensor inputs.  :func:`ti_output_strides` below restates torch's algorithm and is checked on
  random operands; :func:`layout.elementwise` claims strides only where every input has the
  same sizes and dense strides, which the algorithm (and torch) turn into exactly those strides
  whatever the size-1 dims hold; mixed or broadcast inputs are left unknown, and the cases
  below where the first input does not decide show why.
- ``masked_fill`` is no TensorIterator op: a contiguous copy of the broadcast shape.
- A tensor with a literal 0 size has no elements: every view of it with as many elements works.

Predictions are read from the analysis itself (a probe rule records the value of
``probe(y)``) on generated sources, which are then run: sizes and strides the analysis claims
must be torch's, and TRC201 must never report a view that works.
"""
import random
import textwrap

import pytest
from probe import analysed, executed

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import layout as L
from flake8_torchcopy.analysis import viewlegality as VL
from flake8_torchcopy.analysis.symbolic import Mono, Sym
from flake8_torchcopy.rules import ALL_RULES

torch = pytest.importorskip("torch")

TRC201 = next(r for r in ALL_RULES if r.code == "TRC201")


def c(*ns):
    return tuple(Mono.const(n) for n in ns)


def nonone(shape, strides):
    """Strides of the dims whose size is not 1 (the others never matter to a view)."""
    return tuple(st for s, st in zip(shape, strides) if s != 1)


# ----------------------------------------------------------------------- TensorIterator


def ti_output_strides(out_shape, inputs):
    """The strides TensorIterator gives the output of an op of ``inputs`` ((shape, strides)
    pairs in argument order; ``()`` shapes are wrapped Python numbers), restated from
    ATen's TensorIterator.cpp: fast setup when every input has the output's shape (all
    contiguous, all channels-last, or all dense with equal strides); else each input's
    strides after broadcasting (0 where broadcast), a dim order from an insertion sort whose
    comparison asks the inputs in turn (a 0 stride or an equal stride on a dim no larger
    passes the question on), and contiguous strides in that order."""
    ndim = len(out_shape)
    tensors = [(tuple(s), tuple(st)) for s, st in inputs]
    same = all(s == tuple(out_shape) for s, _ in tensors) and all(s for s, _ in tensors)
    if same:
        t0 = torch.empty_strided(out_shape, tensors[0][1])
        views = [torch.empty_strided(s, st) for s, st in tensors]
        if all(v.is_contiguous() for v in views):
            return torch.empty(out_shape).stride()
        if ndim == 4 and all(v.is_contiguous(memory_format=torch.channels_last) for v in views):
            return torch.empty(out_shape).to(memory_format=torch.channels_last).stride()
        if all(_dense(s, st) for s, st in tensors) and len({st for _, st in tensors}) == 1:
            return t0.stride()
    if ndim <= 1:
        return torch.empty(out_shape).stride()
    op_strides = []
    for s, st in tensors:
        off = ndim - len(s)
        row = [0] * ndim
        for i, (n, x) in enumerate(zip(s, st)):
            row[off + i] = 0 if n == 1 and out_shape[off + i] != 1 else x
        op_strides.append(row)

    def should_swap(d0, d1):
        for row in op_strides:
            s0, s1 = row[d0], row[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if out_shape[d0] > out_shape[d1]:
                return 1
        return 0

    perm = list(range(ndim - 1, -1, -1))
    for i in range(1, ndim):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            cmp = should_swap(perm[d0], perm[d1])
            if cmp > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif cmp < 0:
                break
    if perm == list(range(ndim - 1, -1, -1)):
        return torch.empty(out_shape).stride()
    out = [0] * ndim
    acc = 1
    for d in perm:
        out[d] = acc
        acc *= out_shape[d]
    return tuple(out)


def _dense(shape, strides):
    """c10's compute_non_overlapping_and_dense: dims of size < 2 aside, the strides are
    contiguous strides of some dim order."""
    dims = sorted((st, n) for n, st in zip(shape, strides) if n >= 2)
    want = 1
    for st, n in dims:
        if st != want:
            return False
        want *= n
    return True


def dense_tensor(rnd, shape, order=None, odd_ones=True):
    """A dense tensor of ``shape`` laid out in dim ``order`` (random when None); size-1
    dims get odd strides (0, or one another dim has) when ``odd_ones``."""
    n = len(shape)
    if order is None:
        order = list(range(n))
        rnd.shuffle(order)
    t = torch.randn([shape[d] for d in order]).permute([order.index(i) for i in range(n)])
    st = list(t.stride())
    if odd_ones:
        for i, s in enumerate(shape):
            if s == 1 and rnd.random() < 0.7:
                st[i] = rnd.choice([0, 1, 2, 3, 4, 6, 12, 24, 100])
    return torch.as_strided(t, t.shape, st)


def random_operands(rnd, shape, k):
    """k inputs broadcasting to ``shape``: some full, some with dims set to 1 or dropped, or
    Python numbers (0-dim)."""
    out = []
    for _ in range(k):
        roll = rnd.random()
        if roll < 0.15:
            out.append(torch.tensor(1.5))
            continue
        rank = len(shape) if roll < 0.6 else rnd.randint(0, len(shape))
        sub = [s if rnd.random() < 0.7 else 1 for s in shape[len(shape) - rank:]]
        out.append(dense_tensor(rnd, sub) if sub else torch.tensor(0.5))
    return out


def run_op(ops):
    if len(ops) == 1:
        return ops[0].abs()
    if len(ops) == 2:
        return torch.add(ops[0], ops[1])
    return torch.lerp(ops[0], ops[1], ops[2])


def test_tensoriterator_restated_agrees_with_torch():
    rnd = random.Random(0)
    differ_from_first = 0
    for _ in range(4000):
        shape = [rnd.choice([1, 1, 2, 3, 4]) for _ in range(rnd.randint(1, 5))]
        ops = [dense_tensor(rnd, shape)] + random_operands(rnd, shape, rnd.randint(0, 2))
        out = run_op(ops)
        assert tuple(out.shape) == tuple(shape)
        mine = ti_output_strides(shape, [(tuple(o.shape), o.stride()) for o in ops])
        assert nonone(shape, mine) == nonone(shape, out.stride()), (
            shape, [(tuple(o.shape), o.stride()) for o in ops], out.stride())
        differ_from_first += nonone(shape, out.stride()) != nonone(shape, ops[0].stride())
    # a full-shape dense first input does not always decide: ties on size-1 dims and
    # broadcast inputs hand the order to the others, hence "unknown" for mixed inputs
    assert differ_from_first > 0


def test_where_asks_the_condition_first():
    x = torch.randn(2, 3, 4).transpose(0, 2)  # (4, 3, 2), strides (1, 4, 12)
    full = torch.zeros(4, 3, 2, dtype=torch.bool)
    assert torch.where(full, x, 0.0).stride() == (6, 2, 1)  # the condition decides
    assert torch.where(torch.zeros(1, 3, 1, dtype=torch.bool), x, 0.0).stride() == (1, 4, 12)
    assert ti_output_strides((4, 3, 2), [((4, 3, 2), full.stride()), ((4, 3, 2), x.stride()),
                                         ((), ())]) == (6, 2, 1)


def _layout_of(t):
    return c(*t.shape), c(*t.stride())


def test_elementwise_claims_only_what_torch_does():
    """Same sizes and dense strides (any strides on size-1 dims, any number of Python
    numbers): the output has those strides; anything else is unknown."""
    rnd = random.Random(1)
    claimed = unknown = 0
    for _ in range(3000):
        shape = [rnd.choice([1, 1, 2, 3, 4]) for _ in range(rnd.randint(1, 5))]
        order = list(range(len(shape)))
        rnd.shuffle(order)
        alike = rnd.random() < 0.5
        k = rnd.randint(1, 3)
        if alike:
            ops = [dense_tensor(rnd, shape, order) for _ in range(k)]
        else:
            ops = [dense_tensor(rnd, shape)] + random_operands(rnd, shape, k - 1)
        tensors = [o for o in ops if o.dim() > 0]
        # what the analysis knows: sizes, and the strides torch has on the dims not of size 1
        model = []
        for o in tensors:
            sizes, strides = _layout_of(o)
            base = L.contiguous_strides(sizes)  # size-1 dims: whatever the analysis would say
            model.append((sizes, tuple(st if s != 1 else b for s, st, b in zip(o.shape, strides, base))))
        ours = L.elementwise(model)
        out = run_op(ops)
        if ours is None:
            unknown += 1
            continue
        claimed += 1
        assert nonone(out.shape, [int(m.coef) for m in ours]) == nonone(out.shape, out.stride()), (
            shape, [(tuple(o.shape), o.stride()) for o in ops], out.stride(), ours)
    assert claimed > 1000 and unknown > 500


def test_elementwise_with_symbolic_sizes():
    b, n, h = (Mono.sym(Sym(s)) for s in "bnh")
    sizes, strides = L.swap((b, n, h), L.contiguous_strides((b, n, h)), 1, 2)
    assert L.elementwise([(sizes, strides)]) == strides
    assert L.elementwise([(sizes, strides), (sizes, strides)]) == strides
    assert L.elementwise([(sizes, strides), (sizes, L.contiguous_strides(sizes))]) is None
    assert L.elementwise([(sizes, strides), None]) is None
    assert L.elementwise([(sizes, strides), ((n,), (Mono.const(1),))]) is None  # a broadcast input
    expanded = L.expand((Mono.const(1), h), L.contiguous_strides((Mono.const(1), h)), [b, h])
    assert expanded is not None and L.elementwise([expanded]) is None  # not dense
    assert L.broadcast((b, n, h), (n, Mono.const(1))) == (b, n, h)
    assert L.broadcast((b, n), (h,)) is None


# ----------------------------------------------------------------------- masked_fill


def test_masked_fill_is_a_contiguous_copy_of_the_broadcast():
    rnd = random.Random(2)
    for _ in range(1500):
        shape = [rnd.choice([1, 2, 3, 4]) for _ in range(rnd.randint(1, 4))]
        x = dense_tensor(rnd, shape, odd_ones=rnd.random() < 0.5)
        if rnd.random() < 0.2:  # not dense
            x = torch.randn([s * 2 for s in shape])[tuple(slice(None, None, 2) for _ in shape)]
        rank = rnd.randint(0, len(shape) + 1)
        mshape = [rnd.choice([1, s]) for s in ([2] + shape)[len(shape) + 1 - rank:]]
        mask = dense_tensor(rnd, mshape).bool() if mshape else torch.tensor(True)
        for y in (x.masked_fill(mask, 0.0), torch.masked_fill(x, mask, -1.0),
                  x.masked_fill(mask, torch.tensor(2.0))):
            sizes = L.broadcast(c(*x.shape), c(*mask.shape))
            assert tuple(y.shape) == tuple(int(m.coef) for m in sizes)
            assert y.stride() == tuple(int(m.coef) for m in L.contiguous_strides(sizes))


# ----------------------------------------------------------------------- zero-size


def test_views_of_empty_tensors_work_and_have_torchs_strides():
    rnd = random.Random(3)
    checked = 0
    for _ in range(1500):
        rank = rnd.randint(1, 4)
        shape = [rnd.choice([0, 1, 2, 3]) for _ in range(rank)]
        shape[rnd.randrange(rank)] = 0
        perm = list(range(rank))
        rnd.shuffle(perm)
        t = torch.empty(shape).permute(perm)
        sizes, strides = L.permute(c(*shape), L.contiguous_strides(c(*shape)), perm)
        assert tuple(int(s.coef) for s in strides) == t.stride()
        others = [rnd.choice([1, 2, 3, 4]) for _ in range(rnd.randint(0, 3))]
        targets = [[-1], [0], [0, -1], others + [0], others + [0, -1][:1] + [2],
                   list(t.shape)[::-1], list(t.shape)]
        for target in targets:
            mono = [None if v == -1 else Mono.const(v) for v in target]
            verdict, rescues = VL.view_verdict(sizes, strides, mono)
            assert verdict == VL.LEGAL and rescues == []
            try:
                view = t.view(target)
            except RuntimeError:  # an ambiguous -1, never the strides
                assert -1 in target
                continue
            resolved = [Mono.const(v) for v in view.shape]
            ours = VL.view_result(sizes, strides, resolved)
            assert ours is not None
            assert nonone(view.shape, [int(m.coef) for m in ours]) == nonone(view.shape, view.stride())
            checked += 1
    assert checked > 3000


def test_a_zero_anywhere_makes_the_verdict_legal():
    b, n = Mono.sym(Sym("b")), Mono.sym(Sym("n"))
    zero = Mono.const(0)
    sizes, strides = L.swap((b, zero, n), L.contiguous_strides((b, zero, n)), 1, 2)
    assert VL.view_verdict(sizes, strides, [b, None]) == (VL.LEGAL, [])
    assert VL.view_verdict(sizes, strides, [b * n, zero]) == (VL.LEGAL, [])
    # the same view with elements raises, and is still proven to
    sizes, strides = L.swap((b, n, n), L.contiguous_strides((b, n, n)), 1, 2)
    assert VL.view_verdict(sizes, strides, [b, None])[0] == VL.ILLEGAL


# ----------------------------------------------------------------------- the analysis


def trc201(src):
    return [f for f in lint_source(src, rules=[TRC201]) if f.code == "TRC201"]


def _ints(monos):
    if monos is None or any(m.powers for m in monos):
        return None
    return tuple(int(m.coef) for m in monos)


OPS = [
    "x.masked_fill(mask, 0.0)", "torch.masked_fill(x, mask, 0.0)", "x.masked_fill_(mask, 0.0)",
    "x.masked_fill(mask.view({mshape}), 1.0)",
    "x + 1", "x.add(1)", "x.mul(x)", "x.mul(z)", "x.add(mask)", "x.abs()", "x.clone()", "x.float()",
    "torch.add(x, 1)", "torch.mul(x, z)", "torch.sigmoid(x)", "torch.softmax(x, -1)", "F.relu(x)",
    "x.where(mask, 0.0)", "x.clamp(min=0.0)", "x.lerp(x, 0.5)", "x.pow(2)", "x.add_(1)",
    "x.clamp(min=z)", "x.sub(x, alpha=2)", "torch.lerp(x, z, 0.25)", "torch.where(mask, x, 0.0)",
    "torch.where(x > 0, x, x)", "torch.where(mask, x, z)", "torch.flip(x, [0])",
]


FORMAT_OPS = [
    "x.contiguous(memory_format=torch.channels_last)", "x.clone(memory_format=torch.channels_last)",
    "x.to(memory_format=torch.channels_last)", "x.to(memory_format=torch.contiguous_format)",
    "x.clone(memory_format=torch.contiguous_format)", "x.clone(memory_format=torch.preserve_format)",
    "x.to(torch.float64, memory_format=torch.contiguous_format)", "x.contiguous()",
    "x.contiguous(memory_format=torch.channels_last).permute(0, 2, 3, 1)",
]


def _cases(seed, count, ops=OPS, ranks=(2, 4)):
    rnd = random.Random(seed)
    for _ in range(count):
        rank = rnd.randint(*ranks)
        shape = [rnd.choice([1, 2, 3, 4]) for _ in range(rank)]
        perm = list(range(rank))
        rnd.shuffle(perm)
        xshape = [shape[p] for p in perm]
        mrank = rnd.randint(1, rank)
        mshape = [rnd.choice([1, s]) for s in xshape[rank - mrank:]]
        zperm = list(range(rank))
        rnd.shuffle(zperm)
        zshape = [xshape[p] for p in zperm]  # z.permute(zperm) has x's sizes
        zinv = [zperm.index(i) for i in range(rank)]
        head = textwrap.dedent(f"""\
            import torch
            import torch.nn.functional as F
            x = torch.randn({", ".join(map(str, shape))}).permute({", ".join(map(str, perm))})
            mask = torch.zeros({", ".join(map(str, mshape))}, dtype=torch.bool)
            z = torch.randn({", ".join(map(str, zshape))}).permute({", ".join(map(str, zinv))})
            """)
        for op in ops:
            yield head, op.replace("{mshape}", ", ".join(map(str, mshape))), xshape


@pytest.mark.parametrize("ops,ranks,least", [(OPS, (2, 4), 700), (FORMAT_OPS, (4, 4), 150)],
                         ids=["elementwise", "memory_format"])
def test_predicted_layouts_are_torchs(ops, ranks, least):
    sizes_claimed = strides_claimed = 0
    for head, op, _ in _cases(4, 60, ops, ranks):
        src = head + f"y = {op}\nprobe(y)\n"
        (value,) = analysed(src)
        (real,) = executed(src)
        sizes = _ints(value.sizes)
        if sizes is not None:
            sizes_claimed += 1
            assert sizes == tuple(real.shape), src
        strides = _ints(value.strides)
        if strides is not None:
            strides_claimed += 1
            assert nonone(real.shape, strides) == nonone(real.shape, real.stride()), (src, strides)
        elif value.sizes is not None:
            # strides not known: never taken for contiguous when they may not be
            contiguous = torch.empty(real.shape).stride()
            assert value.permuted_by or nonone(real.shape, real.stride()) == nonone(
                real.shape, contiguous), src
    assert sizes_claimed > least and strides_claimed > least


def _targets(shape):
    out = [[-1], [shape[0], -1], [-1, shape[-1]]]
    if len(shape) >= 3:
        out.append([shape[0] * shape[1], -1])
        out.append([shape[0], shape[1] * shape[2], -1])
    return out


def test_trc201_reports_only_views_that_raise():
    reported = raised = 0
    for head, op, xshape in _cases(5, 12):
        for back in ("", ".transpose(0, -1)", ".permute({})".format(
                ", ".join(map(str, range(len(xshape) - 1, -1, -1))))):
            shape = xshape[::-1] if back else xshape
            for target in _targets(shape):
                expr = f"({op}){back}.view({', '.join(map(str, target))})"
                src = head + f"y = {expr}\n"
                found = trc201(src)
                try:
                    executed(src)
                    works = True
                except RuntimeError:
                    works = False
                    raised += 1
                if found:
                    reported += 1
                    assert not works, src
    assert reported > 500 and raised > reported  # many proven, none wrongly


# ----------------------------------------------------------------------- end to end

QUIET = [
    # masked_fill returns a contiguous copy: its own view works whatever x's layout was
    """
    import torch
    x = torch.randn(2, 3, 4).transpose(0, 2)
    mask = torch.zeros(1, 3, 1, dtype=torch.bool)
    y = x.masked_fill(mask, 0)
    w = y.view(-1)
    """,
    """
    import torch
    x = torch.randn(2, 3, 4).transpose(0, 2)
    mask = torch.zeros(3, 1, dtype=torch.bool)
    w = x.masked_fill(mask, 0).view(4, -1)
    """,
    """
    import torch
    x = torch.randn(2, 3, 4).transpose(0, 2)
    mask = torch.ones(4, 3, 2).bool()
    w = torch.masked_fill(x, mask, 0.0).view(12, 2)
    """,
    """
    import torch
    def f(x, mask):
        b, s, d = x.shape
        y = x.transpose(0, 2).masked_fill(mask, float("-inf"))
        return y.view(d, -1)
    """,
    # the same through an unknown mask whose rank is not known
    """
    import torch
    def f(x, key_padding_mask):
        y = x.transpose(0, 2).masked_fill(key_padding_mask, 0.0)
        t, h, b = y.shape
        return y.view(t * h, b)
    """,
    # zero-size dims: nothing to move, every view with as many elements works
    """
    import torch
    y = torch.randn(0, 3).t().view(-1)
    """,
    """
    import torch
    y = torch.zeros(2, 0, 4).transpose(1, 2).view(2, -1)
    w = torch.zeros(2, 0, 4).transpose(1, 2).view(8, 0)
    v = torch.zeros(0, 3, 4).transpose(1, 2).view(0, 12)
    """,
    """
    import torch
    def f(b, c):
        x = torch.zeros(b, 0, c).transpose(0, 2)
        return x.view(c, -1)
    """,
    # layouts kept through elementwise ops: transposing back gives the original order
    """
    import torch
    def f(x):
        y = torch.add(x.transpose(1, 2), 1)
        b, c, t = y.shape
        return y.transpose(1, 2).view(b, -1)
    """,
    """
    import torch
    def f(x):
        y = x.transpose(1, 2).add(1)
        b, c, t = y.shape
        return y.transpose(1, 2).view(b, -1)
    """,
    """
    import torch
    def f(x):
        y = torch.softmax(x.transpose(1, 2), -1)
        b, c, t = y.shape
        return y.transpose(1, 2).view(b, -1)
    """,
    """
    import torch
    import torch.nn.functional as F
    def f(x):
        b, t, c = x.shape
        y = F.gelu(x.transpose(1, 2))
        return y.transpose(1, 2).view(b, -1)
    """,
    """
    import torch
    def f(x):
        b, t, c = x.shape
        y = x.transpose(1, 2).sigmoid().mul(2.0)
        return y.transpose(1, 2).view(b, -1)
    """,
    # memory formats: x.to(memory_format=...) may return x itself; channels-last strides
    """
    import torch
    def f(x):
        n, c, h, w = x.shape
        y = x.contiguous(memory_format=torch.channels_last)
        return y.permute(0, 2, 3, 1).view(n, -1)
    """,
    """
    import torch
    def f(x):
        n, c, h, w = x.shape
        y = x.clone(memory_format=torch.channels_last).permute(0, 2, 3, 1)
        return y.view(n * h * w, c)
    """,
    """
    import torch
    def f(x):
        n, c, h, w = x.shape
        y = x.to(memory_format=torch.channels_last)
        return y.permute(0, 2, 3, 1).view(n, -1)
    """,
    """
    import torch
    def f(x):
        b, t, c = x.shape
        y = x.transpose(1, 2).to(memory_format=torch.contiguous_format)
        return y.transpose(1, 2).view(b, -1)
    """,
    """
    import torch
    def f(x, cond):
        y = torch.where(cond, x.transpose(1, 2), 0.0)
        b, c, t = y.shape
        return y.transpose(1, 2).view(b, -1)
    """,
    """
    import torch
    def f(x):
        y = torch.special.expit(x.transpose(1, 2))
        b, c, t = y.shape
        return y.transpose(1, 2).view(b, -1)
    """,
    # F.interpolate keeps a channels-last input channels-last: not assumed contiguous
    """
    import torch
    import torch.nn.functional as F
    x = torch.randn(2, 4, 4, 3)
    y = F.interpolate(x.permute(0, 3, 1, 2), scale_factor=2)
    n, c, h, w = y.shape
    z = y.permute(0, 2, 3, 1).view(n, -1)
    """,
    # the mask decides where's layout: not known
    """
    import torch
    def f(x, cond):
        b, t, c = x.shape
        y = x.transpose(1, 2).where(cond, 0.0)
        return y.view(b, -1)
    """,
]

REPORTED = [
    ("""
     import torch
     def f(x):
         b, n, c = x.shape
         return x.transpose(1, 2).view(b, -1)
     """, "unless c == 1 or n == 1"),
    # elementwise ops of one input keep its layout
    ("""
     import torch
     def f(x):
         b, n, c = x.shape
         y = x.transpose(1, 2).mul(2)
         return y.abs().float().view(b, -1)
     """, "unless c == 1 or n == 1"),
    ("""
     import torch
     def f(x):
         b, n, c = x.shape
         y = torch.sigmoid(x.transpose(1, 2))
         return y.clone().view(b, -1)
     """, "unless c == 1 or n == 1"),
    ("""
     import torch
     def f(x):
         b, n, c = x.shape
         y = x.transpose(1, 2)
         return y.mul(y).add_(1).view(b, -1)
     """, "unless c == 1 or n == 1"),
    # masked_fill's contiguous copy, transposed back: the fairseq TPU path on CPU
    ("""
     import torch
     def f(attn, key_padding_mask):
         bsz, heads, tgt, src = attn.shape
         attn = attn.transpose(0, 2)
         attn = attn.masked_fill(key_padding_mask, float("-inf"))
         attn = attn.transpose(0, 2)
         return attn.view(bsz * heads, tgt, src)
     """, "raises RuntimeError"),
    ("""
     import torch
     x = torch.randn(2, 3, 4).transpose(0, 2)
     y = x.masked_fill(torch.zeros(3, 1, dtype=torch.bool), 0)
     w = y.transpose(0, 2).view(-1)
     """, "raises RuntimeError"),
    ("""
     import torch
     def f(x):
         n, c, h, w = x.shape
         y = x.clone(memory_format=torch.channels_last)
         return y.transpose(2, 3).view(n, -1)
     """, "raises RuntimeError"),
    # contiguous() is contiguous, whatever it was computed from
    ("""
     import torch
     import torch.nn.functional as F
     def f(x):
         y = F.interpolate(x.permute(0, 3, 1, 2), scale_factor=2).contiguous()
         n, c, h, w = y.shape
         return y.permute(0, 2, 3, 1).view(n, -1)
     """, "unless c == 1 or h == 1 and w == 1"),
    # a literal size above 0 is no empty tensor
    ("""
     import torch
     y = torch.zeros(2, 3, 4).transpose(1, 2).view(2, -1)
     """, "raises RuntimeError"),
]


@pytest.mark.parametrize("src", QUIET)
def test_working_views_are_not_reported(src):
    src = textwrap.dedent(src)
    assert trc201(src) == [], src


@pytest.mark.parametrize("src,says", REPORTED)
def test_views_that_raise_are_still_reported(src, says):
    src = textwrap.dedent(src)
    (finding,) = trc201(src)
    assert says in finding.message


@pytest.mark.parametrize("src", [s for s in QUIET if "def " not in s]
                         + [s for s, _ in REPORTED if "def " not in s])
def test_module_level_cases_behave_as_claimed(src):
    src = textwrap.dedent(src)
    try:
        executed(src)
        works = True
    except RuntimeError:
        works = False
    assert works == (trc201(src) == [])


def test_the_fairseq_tpu_path_raises_on_cpu():
    attn = torch.randn(2, 3, 5, 7)
    mask = torch.zeros(2, 7, dtype=torch.bool)
    back = attn.transpose(0, 2).masked_fill(mask, float("-inf")).transpose(0, 2)
    with pytest.raises(RuntimeError):
        back.view(2 * 3, 5, 7)


@pytest.mark.parametrize("i", range(len(TRC201.INVALID)))
def test_rule_examples_stay_reported(i):
    assert len(trc201(TRC201.INVALID[i].code)) == 1


def test_a_binary_operator_keeps_the_permutation_of_an_untyped_operand():
    src = textwrap.dedent("""
        import torch
        def f(x):
            y = x.transpose(1, 2) + 1
            b, c, t = y.shape
            return y.transpose(1, 2).view(b, -1)
        """)
    assert trc201(src) == []
