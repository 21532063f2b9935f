"""An elementwise op of a tensor of known layout with an operand whose size is not known in
one dim (``y.view(1, -1)`` of a parameter): where the other has no more dims and the first no
size 1, the first is never broadcast, so the output has its sizes, and its strides where the
first decides TensorIterator's order.  Checked against torch on random permuted tensors with
operands of each size that broadcasts (1 or the matching size, contiguous or strided), and
TRC201 reports a view of the output only where torch raises
(``pred.eq(target.view(1, -1))`` of the top-k accuracy helper)."""
import pytest
from broadcast_cases import cases, claimed_layouts_are_torchs, views_reported_only_where_torch_raises

torch = pytest.importorskip("torch")

OTHERS = [("y.view(1, -1)", -1), ("y.view(-1, 1)", -2), ("y.view(-1)", -1), ("y.reshape(1, 1, -1)", -1)]
OPS = ["x.eq({o})", "x == {o}", "x + {o}", "torch.mul(x, {o})", "x.masked_fill({o} > 0, 0.0)"]


def test_the_first_operands_sizes_and_strides_are_torchs():
    # eq, ==, torch.mul; `x + y` of an unproven y and masked_fill stay unclaimed
    assert claimed_layouts_are_torchs(cases(OTHERS, OPS, 4, 300)) > 140


def test_views_of_the_output_are_reported_only_where_torch_raises():
    assert views_reported_only_where_torch_raises(cases(OTHERS, OPS, 5, 200)) > 50
