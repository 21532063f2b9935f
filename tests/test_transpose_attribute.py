"""``.T`` of a tensor of unknown rank, checked with torch: 0-d and 1-d it is the tensor itself,
2-d ``.t()``, and of more dims (deprecated, a warning, no error in torch 2.13) it reverses
them all.  TRC201 reports a view after it only where it raises for every rank from 2 on (the
view is run on tensors of 2 to 5 dims, every size at least 4, k 2), and ``.T`` of a name that may
be a numpy array (it has ``.T`` too) is never taken for a tensor's."""
import itertools
import random
import warnings

import pytest

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")

TEMPLATE = "import torch\n\n\ndef f(x: torch.Tensor, k: int):\n    y = x.T\n    return {view}\n"
# the views of y; those in RAISING are reported (and raise for every rank at least 2)
VIEWS = [
    "y.view(-1)", "y[:k].view(-1)", "y[:k].view(k, -1)", "y[:, :k].view(-1)",
    "y.view(x.size(-1), -1)", "y.view(-1, x.size(-2))", "y[:k].view(-1, x.size(-2))",
    "y.view(x.size(-1) * x.size(-2), -1)", "y.contiguous()[:k].view(-1)", "y.transpose(0, 1)[:k].view(-1)",
    "(y * 2)[:k].view(-1)", "y.eq(y)[:k].view(-1)", "y[:k].reshape(-1)", "y[:k].view(k, x.size(-2), -1)",
    "y[:k, :k].view(-1)", "y[k:].view(-1)",
]
RAISING = {"y[:k].view(-1)", "y[k:].view(-1)", "y.view(x.size(-1) * x.size(-2), -1)", "y[:, :k].view(-1)",
           "y.eq(y)[:k].view(-1)", "y[:k, :k].view(-1)"}


def _run(source, x, k):
    scope: dict = {}
    exec(compile(source, "<T>", "exec"), scope)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # x.T of other than 2 dims is deprecated
        try:
            scope["f"](x, k)
        except IndexError:
            return False  # y[:k] of a 0-d tensor
        except RuntimeError as e:
            assert "view size is not compatible" in str(e) or "shape" in str(e), str(e)
            return "view size is not compatible" in str(e)
    return False


def _shapes():
    rng = random.Random(20261125)
    for rank in range(2, 6):
        for _ in range(6):
            yield tuple(rng.randint(4, 6) for _ in range(rank))  # y[k:] too of 2 or more


@pytest.mark.parametrize("view", VIEWS)
def test_a_view_after_T_is_reported_only_where_it_raises_for_every_rank(view):
    source = TEMPLATE.format(view=view)
    reported = [f for f in lint_source(source) if f.code == "TRC201"]
    assert bool(reported) == (view in RAISING), reported
    if reported:
        assert "x.dim() < 2" in reported[0].message  # 0-d and 1-d: .T is x itself
        for shape in _shapes():
            x = torch.randn(shape)
            assert _run(source, x, 2), (view, shape)
        for x in (torch.randn(5), torch.tensor(3.0)):  # where the caveat holds, it may be legal
            assert not _run(source, x, 2) or x.dim() >= 2


@pytest.mark.parametrize("view", sorted(RAISING))
def test_of_what_may_be_a_numpy_array_nothing_is_said(view):
    source = TEMPLATE.format(view=view).replace("x: torch.Tensor", "x")
    assert "TRC201" not in [f.code for f in lint_source(source)]


@pytest.mark.parametrize("attr, then", itertools.product(["T", "mT"], ["y.t()", "y.transpose(0, 1)"]))
def test_T_of_an_untraced_name_is_never_taken_for_contiguous(attr, then):
    """``x.T.t()`` of a 2-d ``x`` is ``x``: the view is legal.  ``x.T`` was once left a bare
    unknown value, which ``.t()`` then took for a contiguous tensor."""
    source = f"import torch\n\n\ndef f(x, k):\n    y = x.{attr}\n    return {then}.view(-1)\n"
    assert not _run(source, torch.randn(4, 3), 2)
    assert "TRC201" not in [f.code for f in lint_source(source)]


def test_only_a_tensor_has_topk():
    """``output.topk(k, 1)[1].T`` of an untraced ``output``: the indices are a tensor."""
    source = ("import torch\n\n\ndef f(output, k):\n    pred = output.topk(k, 1, True, True)[1].T\n"
              "    return pred[:k].view(-1)\n")
    assert _run(source, torch.randn(8, 10), 2)
    assert "TRC201" in [f.code for f in lint_source(source)]
    local = source + "\n\nclass Beam:\n    def topk(self, k, *args):\n        return self, self\n"
    assert "TRC201" not in [f.code for f in lint_source(local)]


def test_no_layout_is_derived_from_a_view_that_splits_the_reversed_rest():
    """``x.T.view(a, b, 3, -1)`` of a 4-d ``x`` (3 its dim 1) splits the rest into x's first
    two dims, their strides in reverse order: a permute of them back is contiguous, and the
    view after it legal (a split of the open layout's rest would say the opposite)."""
    source = ("import torch\n\n\ndef f(x: torch.Tensor, k: int):\n"
              "    y = x.T.view(x.size(-1), x.size(-2), 3, -1)\n"
              "    return y.permute(0, 1, 3, 2).view(x.size(-1), x.size(-2), -1)\n")
    assert not _run(source, torch.randn(2, 3, 4, 5), 2)
    assert "TRC201" not in [f.code for f in lint_source(source)]
