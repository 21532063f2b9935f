"""An elementwise op of a permuted tensor with an operand broadcast through ``unsqueeze`` or
``[None]`` (``pred == target.unsqueeze(0)``, ``pred.eq(target[None])``): the operand has size 1
in the new dim; where it has no more dims than the first, which has no size 1, the output has
the first's sizes, and its strides (TensorIterator: the first input decides).  Checked against
torch on 300 random permuted tensors with operands of each size that broadcasts (1 or the
matching size, contiguous or strided), and TRC201 reports a view of the output only where
torch raises."""
import random

import pytest
from probe import analysed
from test_layout_rules import _ints, nonone, trc201

torch = pytest.importorskip("torch")

# the operand, and the output dim (from the end) y's one dim lands in
OTHERS = [("y.view(-1).unsqueeze(0)", -1), ("y.view(-1)[None]", -1), ("y.view(-1)[None, None]", -1),
          ("y.view(-1, 1)[None]", -2), ("y.view(-1)[None, :, None]", -2), ("y.view(-1)[:, None]", -2),
          ("y.view(-1).unsqueeze(-1)", -2), ("y.view(-1, 1).unsqueeze(0)", -2), ("y.view(-1)[..., None]", -2),
          ("y.view(-1)[:, None, None]", -3), ("y.view(-1).unsqueeze(1).unsqueeze(2)", -3)]
OPS = ["x.eq({o})", "x == {o}", "x + {o}", "torch.mul(x, {o})", "torch.eq(x, {o})", "x.ne({o})"]


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
    for head, op, y in _cases(6, 300):
        src = head + f"    return probe({op})\n\n\nf({y})\n"
        seen = []
        exec(compile(src, "<case>", "exec"), {"probe": lambda v, seen=seen: seen.append(v) or v})
        (value,), (real,) = analysed(src), seen
        if value.sizes is None or value.strides is None:
            continue
        claimed += 1
        assert _ints(value.sizes) == tuple(real.shape), src
        assert nonone(real.shape, _ints(value.strides)) == nonone(real.shape, real.stride()), src
    assert claimed > 250  # `x + o` of an operand not proven a tensor stays unclaimed (118 before [None] kept strides)


def test_views_of_the_output_are_reported_only_where_torch_raises():
    reported = 0
    for head, op, y in _cases(7, 300):
        src = head + f"    z = {op}\n    return z.view(-1)\n\n\nf({y})\n"
        try:
            exec(compile(src, "<case>", "exec"), {})
            raises = False
        except RuntimeError as e:
            raises = "view size is not compatible" in str(e)
        found = bool(trc201(src))
        assert raises or not found, src
        reported += found
    assert reported > 180
