"""An elementwise op of a permuted tensor with an operand broadcast through ``unsqueeze`` or
``[None]`` (``pred == target.unsqueeze(0)``, ``pred.eq(target[None])``): the operand has size 1
in the new dim; where it has no more dims than the first, which has no size 1, the output has
the first's sizes, and its strides (TensorIterator: the first input decides).  Checked against
torch on 300 random permuted tensors with operands of each size that broadcasts (1 or the
matching size, contiguous or strided), and TRC201 reports a view of the output only where
torch raises."""
import random

import pytest
from broadcast_cases import cases, claimed_layouts_are_torchs, view_raises, views_reported_only_where_torch_raises
from probe import analysed
from test_layout_rules import _ints, nonone, trc201

torch = pytest.importorskip("torch")

# the operand, and the output dim (from the end) y's one dim lands in
OTHERS = [("y.view(-1).unsqueeze(0)", -1), ("y.view(-1)[None]", -1), ("y.view(-1)[None, None]", -1),
          ("y.view(-1, 1)[None]", -2), ("y.view(-1)[None, :, None]", -2), ("y.view(-1)[:, None]", -2),
          ("y.view(-1).unsqueeze(-1)", -2), ("y.view(-1, 1).unsqueeze(0)", -2), ("y.view(-1)[..., None]", -2),
          ("y.view(-1)[:, None, None]", -3), ("y.view(-1).unsqueeze(1).unsqueeze(2)", -3)]
OPS = ["x.eq({o})", "x == {o}", "x + {o}", "torch.mul(x, {o})", "torch.eq(x, {o})", "x.ne({o})"]


def test_the_first_operands_sizes_and_strides_are_torchs():
    # `x + o` of an operand not proven a tensor stays unclaimed (118 before [None] kept strides)
    assert claimed_layouts_are_torchs(cases(OTHERS, OPS, 6, 300)) > 250


def test_views_of_the_output_are_reported_only_where_torch_raises():
    assert views_reported_only_where_torch_raises(cases(OTHERS, OPS, 7, 300)) > 180


# ``u.unsqueeze(0)`` / ``u[None]`` of a ``u`` of unknown rank: where ``u`` has fewer dims than
# the first input (ones included, no more), the output is the first's; the claim names the
# condition that ``u`` has more (``u.dim() > 2`` against a 3-d first of one new dim).
UNSQUEEZED = [("y.unsqueeze(0)", 1), ("y[None]", 1), ("y[None, None]", 2), ("y[None, ...]", 1),
              ("y.unsqueeze(dim=0)", 1)]
UNSQUEEZE_OPS = ["x.eq({o})", "x == {o}", "torch.mul(x, {o})", "x.ne({o})", "torch.eq(x, {o})"]


def _unsqueezed_cases(seed, count):
    rnd = random.Random(seed)
    for _ in range(count):
        shape = [rnd.choice([2, 3, 4]) for _ in range(3)]
        perm = rnd.sample(range(3), 3)
        other, ones = rnd.choice(UNSQUEEZED)
        out = [shape[p] for p in perm]
        rank = rnd.randint(0, 4 - ones)  # 3 - ones or fewer: the caveat does not hold; more: it does
        dims = [rnd.choice([1, out[len(out) - rank + i]]) if len(out) - rank + i >= 0 else 1
                for i in range(rank)]
        y = f"torch.randn({', '.join(map(str, dims))})" if dims else "torch.tensor(1.0)"
        op = rnd.choice(UNSQUEEZE_OPS).format(o=other)
        head = (f"import torch\n\n\ndef f(y: torch.Tensor):\n    x = torch.randn({', '.join(map(str, shape))})"
                f".permute({', '.join(map(str, perm))})\n")
        yield head, op, y, rank + ones <= 3


def test_an_operand_of_unknown_rank_unsqueezed_leaves_the_first_layout():
    claimed = 0
    for head, op, y, fewer in _unsqueezed_cases(8, 300):
        src = head + f"    return probe({op})\n\n\nf({y})\n"
        seen = []
        exec(compile(src, "<case>", "exec"), {"probe": lambda v, seen=seen: seen.append(v) or v})
        (value,), (real,) = analysed(src), seen
        if value.sizes is None or value.strides is None:
            continue
        claimed += 1
        assert any(".dim() > " in c.name for c in value.assumes), src
        if fewer:
            assert _ints(value.sizes) == tuple(real.shape), src
            assert nonone(real.shape, _ints(value.strides)) == nonone(real.shape, real.stride()), src
    assert claimed > 280


@pytest.mark.parametrize("view", ["z.view(-1)", "z[:2].view(-1)", "z.view(z.size(0), -1)"])
def test_views_after_an_unsqueezed_operand_are_reported_only_where_torch_raises(view):
    reported = 0
    for head, op, y, fewer in _unsqueezed_cases(9, 150):
        src = head + f"    z = {op}\n    return {view}\n\n\nf({y})\n"
        found = trc201(src)
        if found:
            assert ".dim() > " in found[0].message, src  # the condition the claim rests on
        assert not found or not fewer or view_raises(src), src
        reported += bool(found)
    assert reported > 90


@pytest.mark.parametrize("then, shape, raises", [
    ("y.unsqueeze(0).t()", (3,), False), ("y[None].t()", (3,), False), ("y[None].transpose(0, 1)", (3,), False),
    ("y[None].permute(1, 0)", (3,), False), ("y[None, None].permute(2, 1, 0)", (3,), False),
    ("y.unsqueeze(0).permute(2, 1, 0)", (3, 4), True)])
def test_a_permute_of_an_unsqueezed_tensor_keeps_its_size_1(then, shape, raises):
    """``y[None].t()`` of a 1-d ``y`` moves a dim of size 1: the view is legal (it was once
    reported, "unless y[None].size(0) == 1", which always holds); a permute of the dims
    after it still raises, and is reported."""
    src = f"import torch\n\n\ndef f(y: torch.Tensor):\n    return {then}.view(-1)\n"
    assert view_raises(src + f"\n\nf(torch.randn{shape})\n") == raises
    assert bool(trc201(src)) == raises
