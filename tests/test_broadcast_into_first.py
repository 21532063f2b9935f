"""An elementwise op of a tensor of known layout with an operand whose size is not known in
one dim (``y.view(1, -1)`` of a parameter): where the other has no more dims and the first no
size 1, the first is never broadcast, so the output has its sizes, and its strides where the
first decides TensorIterator's order.  Checked against torch on random permuted tensors with
operands of each size that broadcasts (1 or the matching size, contiguous or strided), and
TRC201 reports a view of the output only where torch raises
(``pred.eq(target.view(1, -1))`` of the top-k accuracy helper)."""
import random

import pytest
from probe import analysed
from test_layout_rules import _ints, nonone, trc201

torch = pytest.importorskip("torch")

OTHERS = [("y.view(1, -1)", -1), ("y.view(-1, 1)", -2), ("y.view(-1)", -1), ("y.reshape(1, 1, -1)", -1)]
OPS = ["x.eq({o})", "x == {o}", "x + {o}", "torch.mul(x, {o})", "x.masked_fill({o} > 0, 0.0)"]


def _cases(seed, count):
    rnd = random.Random(seed)
    for _ in range(count):
        shape = [rnd.choice([2, 3, 4]) for _ in range(3)]
        perm = rnd.sample(range(3), 3)
        other, dim = rnd.choice(OTHERS)
        n = rnd.choice([1, [shape[p] for p in perm][dim]])
        y = rnd.choice([f"torch.randn({n})", f"torch.randn({2 * n})[::2]"])
        op = rnd.choice(OPS).format(o=other)
        head = (f"import torch\n\n\ndef f(y):\n    x = torch.randn({', '.join(map(str, shape))})"
                f".permute({', '.join(map(str, perm))})\n")
        yield head, op, y


def test_the_first_operands_sizes_and_strides_are_torchs():
    claimed = 0
    for head, op, y in _cases(4, 300):
        src = head + f"    return probe({op})\n\n\nf({y})\n"
        seen = []
        exec(compile(src, "<case>", "exec"), {"probe": lambda v, seen=seen: seen.append(v) or v})
        (value,), (real,) = analysed(src), seen
        if value.sizes is None or value.strides is None:
            continue
        claimed += 1
        assert _ints(value.sizes) == tuple(real.shape), src
        assert nonone(real.shape, _ints(value.strides)) == nonone(real.shape, real.stride()), src
    assert claimed > 140  # eq, ==, torch.mul; `x + y` of an unproven y and masked_fill stay unclaimed


def test_views_of_the_output_are_reported_only_where_torch_raises():
    reported = 0
    for head, op, y in _cases(5, 200):
        src = head + f"    z = {op}\n    return z.view(-1)\n\n\nf({y})\n"
        try:
            exec(compile(src, "<case>", "exec"), {})
            raises = False
        except RuntimeError as e:
            raises = "view size is not compatible" in str(e)
        found = bool(trc201(src))
        assert raises or not found, src
        reported += found
    assert reported > 50
