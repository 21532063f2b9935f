"""``torch.max(a, b)`` / ``a.min(other=b)`` with ``b`` a tensor: the elementwise form, one
tensor (``OTHER_*`` of analysis/torchfacts.py, analysis/argreturns.py).  Each entry is run
with torch, 0-dim second tensors included (``max.dim`` could take a 0-dim integer tensor
as its dim; torch's parser picks ``max.other``); a number there is the dim form, a tuple.

The reported case is deepspeech.pytorch data/sparse_image_warp.py:375 (``torch.min`` of
``torch.max`` of 0-dim tensors, then ``torch.tensor(queries - floor)``), which warns when run.
"""
import textwrap

import pytest
from copywarning import copies_a_tensor
from probe import analysed, executed

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import torchfacts as facts
from flake8_torchcopy.analysis.values import NOT, TENSOR

torch = pytest.importorskip("torch")

SECONDS = {
    "0-dim int": lambda: torch.tensor(1), "0-dim zero": lambda: torch.tensor(0),
    "0-dim bool": lambda: torch.tensor(True), "0-dim float": lambda: torch.tensor(2.5),
    "broadcast row": lambda: torch.tensor([1.0, 0.0, 2.0]), "same shape": lambda: torch.ones(2, 3),
    "int64 column": lambda: torch.tensor([[1], [2]]),
}


def test_the_tables_name_max_and_min_only():
    assert facts.OTHER_FUNCTIONS == {"torch.max": "Tensor", "torch.min": "Tensor"}
    assert facts.OTHER_METHODS == {"max": "Tensor", "min": "Tensor"}
    assert "torch.median" not in facts.OTHER_FUNCTIONS  # median(x, t) is the dim form


@pytest.mark.parametrize("second", SECONDS)
@pytest.mark.parametrize("name", sorted(facts.OTHER_METHODS))
def test_a_second_tensor_gives_one_tensor(name, second):
    x = torch.tensor([[3.0, -1.0, 0.5], [2.0, 4.0, -2.0]])
    b = SECONDS[second]()
    fn = getattr(torch, name)
    for got in (fn(x, b), fn(x, other=b), getattr(x, name)(b), getattr(x, name)(other=b)):
        assert type(got) is torch.Tensor


def test_a_number_or_a_third_argument_is_the_dim_form():
    x = torch.ones(2, 3)
    assert isinstance(torch.max(x, 1), tuple) and isinstance(x.min(1), tuple)
    assert isinstance(torch.max(x, torch.tensor(1), True), tuple)  # a 0-dim tensor as the dim
    assert isinstance(torch.median(x, torch.tensor(1)), tuple)
    with pytest.raises(TypeError):
        torch.max([1.0, 2.0], torch.tensor(1.0))  # the first argument must be a tensor


FORMS = {  # form: what the analysis must conclude ("tensor", a tuple, or None: unknown)
    "torch.max(x, y)": "tensor", "torch.min(x, z)": "tensor", "torch.max(x, other=y)": "tensor",
    "x.max(y)": "tensor", "x.min(other=z)": "tensor", "torch.min(torch.max(z, x), y)": "tensor",
    "torch.max(x, 1)": ("tuple", 2), "torch.max(x, n)": None, "x.max(n)": None,
    "torch.max(x, z, True)": None, "torch.median(x, z)": None, "x.max(z, keepdim=True)": None,
    "torch.max(x, lst)": None, "x.min(other=n)": None, "torch.max(x, y, out=o)": None,
}


def _shape(v):
    if v.kind == TENSOR:
        return "tensor"
    if v.kind == NOT and v.elems is not None and all(e.kind == TENSOR for e in v.elems):
        return ("tuple", len(v.elems))
    return None


def test_the_analysis_agrees_with_torch():
    body = "".join(f"probe({f})\n" for f in FORMS)
    src = ("import torch\nx = torch.ones(2, 3)\ny = torch.zeros(3)\nz = torch.tensor(1)\nn = 1\n"
           "o = torch.empty(0)\nlst = [1.0, 2.0, 3.0]\n")
    runnable = [f for f in FORMS if "lst" not in f and "median(x, z)" not in f and "other=n" not in f]
    values = analysed(src + body)
    assert [_shape(v) for v in values] == list(FORMS.values())
    seen = executed(src + "".join(f"probe({f})\n" for f in runnable))
    for form, got in zip(runnable, seen):
        want = FORMS[form]
        if want == "tensor":
            assert type(got) is torch.Tensor, form
        elif want is not None:
            assert isinstance(got, tuple) and len(got) == want[1], form


HEAD = "import torch\n\n"

REPORTED = {
    "deepspeech sparse_image_warp: the floor clamped by torch.max/torch.min": """
        def use():
            size = 5
            queries = torch.rand(2, 3, 2) * size
            query_type = queries.dtype
            min_floor = torch.tensor(0.0, dtype=query_type)
            max_floor = torch.tensor(size - 2, dtype=query_type)
            floor = torch.min(torch.max(min_floor, torch.floor(queries)), max_floor)
            alpha = torch.tensor(queries - floor, dtype=query_type)
            return alpha
        """,
    "the method form with other=": """
        def use():
            a = torch.randn(4)
            return torch.tensor(a.max(other=torch.zeros(1)))
        """,
}

QUIET = {
    "a dim that is a number": """
        def use(d=0):
            a = torch.randn(4, 2)
            return torch.tensor(torch.max(a, d))  # a tuple of tensors: not TRC101's idiom
        """,
    "a second argument that is not proven a tensor": """
        def use(b=1):
            a = torch.randn(4, 2)
            return torch.tensor(a.max(b))
        """,
}


@pytest.mark.parametrize("name", REPORTED)
def test_the_elementwise_forms_are_reported(name):
    src = HEAD + textwrap.dedent(REPORTED[name]).lstrip("\n")
    found = [f for f in lint_source(src) if f.code == "TRC101"]
    assert len(found) == 1 and found[0].fix is not None and found[0].fix.safe
    assert copies_a_tensor(src)


@pytest.mark.parametrize("name", QUIET)
def test_the_dim_forms_are_quiet(name):
    src = HEAD + textwrap.dedent(QUIET[name]).lstrip("\n")
    assert [f for f in lint_source(src) if f.code == "TRC101"] == []
