"""Data-dependent calls whose result torch lays out column-major though the input is
contiguous: ``torch.nonzero`` / ``Tensor.nonzero`` and ``argwhere`` (``nonzero(m).stride()`` is
``(1, N)``), ``torch.lu`` / ``Tensor.lu``, and ``matrix_power(a, -1)`` (an inverse).  The
generator measures them on a mask and a square matrix (tools/gen_torch_facts.py), so they are
in ``torchfacts.STRIDED_RESULT_*`` and their results are never taken for contiguous.

Before, ``idx = torch.nonzero(mask); idx.t().view(-1)`` was reported by TRC201 with a safe
``.reshape`` fix, though torch runs it (review 11, probe break3).  Each form below runs with
torch: the tool is quiet exactly where the view works, and still reports where it raises
(a ``.contiguous()`` copy of the result, transposed).
"""
import textwrap
import warnings

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import torchfacts as facts

torch = pytest.importorskip("torch")

# the probe's forms, and the same with the other spellings; each takes (mask, a)
FORMS = {
    "torch.argwhere": "idx = torch.argwhere(mask > 0)\nreturn idx.t().view(-1)",
    ".argwhere": "idx = (mask > 0).argwhere()\nreturn idx.t().view(-1)",
    "torch.lu": "lu, piv = torch.lu(a)\nreturn lu.t().view(-1)",
    "torch.lu, a local": "a = torch.randn(4, 4)\nlu, piv = torch.lu(a)\nreturn lu.t().view(-1)",
    "torch.argwhere, a local": "idx = torch.argwhere(torch.randn(4, 4) > 0)\nreturn idx.t().view(-1)",
    ".nonzero, unpacked": "rows, cols = mask.nonzero().t().view(2, -1)\nreturn rows",
    "torch.nonzero, a local": "idx = torch.nonzero(torch.arange(16).view(4, 4) % 3 == 0)\nreturn idx.t().view(-1)",
    "torch.nonzero": "idx = torch.nonzero(mask)\nreturn idx.t().view(-1)",
    "torch.nonzero, cloned": "idx = torch.nonzero(mask).clone()\nreturn idx.t().view(-1)",
    ".lu": "lu, piv = a.lu()\nreturn lu.t().view(-1)",
    "torch.matrix_power": "y = torch.matrix_power(a, -1)\nreturn y.t().view(-1)",
    ".matrix_power": "y = a.matrix_power(-1)\nreturn y.t().view(-1)",
    "torch.linalg.matrix_power": "y = torch.linalg.matrix_power(a, -1)\nreturn y.t().view(-1)",
    # a contiguous copy, transposed: the view raises, and is reported
    "torch.nonzero, made contiguous": "idx = torch.nonzero(mask).contiguous()\nreturn idx.t().view(-1)",
    ".argwhere, made contiguous": "idx = mask.argwhere().contiguous()\nreturn idx.t().view(-1)",
    "torch.lu, made contiguous": "lu, piv = torch.lu(a)\nreturn lu.contiguous().t().view(-1)",
}


def _source(body: str) -> str:
    return "import torch\n\n\ndef f(mask, a):\n" + textwrap.indent(body, "    ") + "\n"


def _runs(src: str) -> bool:
    scope: dict = {}
    exec(compile(src, "<form>", "exec"), scope)
    mask = torch.arange(20).reshape(4, 5) % 3 == 0  # several True in each row: N > 1
    a = torch.randn(4, 4, generator=torch.Generator().manual_seed(0)) + 4 * torch.eye(4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.lu is deprecated
        try:
            scope["f"](mask, a)
        except RuntimeError as e:
            assert "view" in str(e)
            return False
    return True


@pytest.mark.parametrize("key", sorted(FORMS))
def test_quiet_exactly_where_torch_runs_the_view(key):
    src = _source(FORMS[key])
    reported = [f for f in lint_source(src) if f.code == "TRC201"]
    if _runs(src):
        assert reported == [], key
    else:
        assert len(reported) == 1, key
        assert reported[0].fix is not None and reported[0].fix.safe


def test_the_forms_cover_both_sides():
    runs = {k: _runs(_source(v)) for k, v in FORMS.items()}
    assert sum(runs.values()) == 13 and not any(runs[k] for k in FORMS if "contiguous" in k)


@pytest.mark.parametrize("name, call", [
    ("torch.nonzero", "torch.nonzero(MASK)"), ("torch.argwhere", "torch.argwhere(MASK)"),
    (".nonzero", "MASK.nonzero()"), (".argwhere", "MASK.argwhere()"),
    ("torch.lu", "torch.lu(A)[0]"), (".lu", "A.lu()[0]"),
    ("torch.matrix_power", "torch.matrix_power(A, -1)"), (".matrix_power", "A.matrix_power(-1)"),
    ("torch.linalg.matrix_power", "torch.linalg.matrix_power(A, -1)"),
])
def test_listed_because_torch_lays_them_out_column_major(name, call):
    mask = torch.arange(20).reshape(4, 5) % 3 == 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = eval(call, {"torch": torch, "MASK": mask, "A": torch.randn(4, 4) + 4 * torch.eye(4)})  # noqa: S307
    assert not out.is_contiguous() and out.t().is_contiguous()
    listed = facts.STRIDED_RESULT_FUNCTIONS if name.startswith("torch.") else facts.STRIDED_RESULT_METHODS
    assert name.lstrip(".") in listed


def test_measured_contiguous_results_are_not_listed():
    """``nonzero_static``, ``torch.where(cond)``'s columns and ``masked_select`` are contiguous:
    the generator measures them too, and leaves them out."""
    mask = torch.arange(20).reshape(4, 5) % 3 == 0
    assert torch.nonzero_static(mask, size=6).is_contiguous()
    assert all(t.is_contiguous() for t in torch.where(mask))
    assert torch.masked_select(torch.randn(4, 5), mask).is_contiguous()
    assert not {"torch.nonzero_static", "torch.where", "torch.masked_select"} & facts.STRIDED_RESULT_FUNCTIONS
    assert "nonzero_static" not in facts.STRIDED_RESULT_METHODS
