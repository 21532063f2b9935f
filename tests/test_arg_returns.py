"""Returns that depend on the arguments (analysis/argreturns.py): every ``ALONE_*`` and
``FLAG_TUPLE_*`` entry of analysis/torchfacts.py run with torch, what the analysis concludes
for each form against what torch returns, and the issue-18 forms (torchgeo's pastis and
zuericrop datasets) that now reach TRC108."""
import itertools
import textwrap
import warnings

import pytest
from probe import analysed, executed

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import torchfacts as facts
from flake8_torchcopy.analysis.values import NOT, TENSOR

torch = pytest.importorskip("torch")


def _sample():
    return torch.tensor([[1.0, 0.0, 3.0], [2.0, 2.0, 0.0]])


def _shape(v):
    """``"tensor"``, ``("tuple", n)`` (n None: a length known at run time) or None."""
    if isinstance(v, torch.Tensor):
        return "tensor"
    if isinstance(v, tuple) and v and all(isinstance(i, torch.Tensor) for i in v):
        return ("tuple", len(v))
    return None


def _kind_shape(kind):
    return "tensor" if kind == "Tensor" else ("tuple", None) if kind == "Tensor[]" else kind


def _same(claimed, got):
    return claimed == got or claimed == ("tuple", None) and isinstance(got, tuple) and got[0] == "tuple"


@pytest.mark.parametrize("qualname", sorted(facts.ALONE_FUNCTIONS))
def test_alone_functions_return_their_kind(qualname):
    fn = getattr(torch, qualname[6:])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _shape(fn(_sample()))
    assert _same(_kind_shape(facts.ALONE_FUNCTIONS[qualname]), got), (qualname, got)


@pytest.mark.parametrize("name", sorted(facts.ALONE_METHODS))
def test_alone_methods_return_their_kind(name):
    got = _shape(getattr(_sample(), name)())
    assert _same(_kind_shape(facts.ALONE_METHODS[name]), got), (name, got)


def test_alone_entries_are_varying_ones_and_where_is_a_tuple():
    assert set(facts.ALONE_FUNCTIONS) <= set(facts.VARYING_FUNCTIONS)
    assert set(facts.ALONE_METHODS) <= set(facts.VARYING_METHODS)
    assert facts.ALONE_FUNCTIONS["torch.where"] == "Tensor[]" and facts.ALONE_FUNCTIONS["torch.min"] == "Tensor"
    assert "torch.dequantize" not in facts.ALONE_FUNCTIONS  # a tensor, or a list of them: both take one argument


@pytest.mark.parametrize("name", sorted(facts.FLAG_TUPLE_METHODS))
def test_flags_add_one_tensor_each(name):
    flags = facts.FLAG_TUPLE_METHODS[name]
    assert facts.FLAG_TUPLE_FUNCTIONS[f"torch.{name}"] == flags
    for values in itertools.product((False, True), repeat=len(flags)):
        kw = dict(zip(flags, values))
        want = "tensor" if not any(values) else ("tuple", 1 + sum(values))
        assert _shape(getattr(torch, name)(_sample(), **kw)) == want, (name, kw)
        assert _shape(getattr(_sample(), name)(**kw, dim=None)) == want, (name, kw)
        assert _shape(getattr(torch, name)(_sample(), dim=1, **kw)) == want, (name, kw)


# ----------------------------------------------------------------------- the analysis
def _analysed_shape(v):
    if v.kind == TENSOR:
        return "tensor"
    if v.kind == NOT and v.item is not None and v.item.kind == TENSOR:
        return ("tuple", len(v.elems) if v.elems is not None else None)
    return None


FORMS = [
    "torch.min(x)", "torch.max(x)", "torch.median(x)", "torch.nanmedian(x)", "torch.nonzero(x)",
    "torch.where(x > 0)", "torch.where(x > 0)[1]", "torch.unbind_copy(x)",
    "x.max()", "x.median()", "x.nonzero()",
    "torch.unique(x)", "x.unique()", "torch.unique(x, sorted=False)", "torch.unique(x, dim=0)",
    "torch.unique(x, return_counts=True)", "torch.unique(x, return_inverse=True, return_counts=True)",
    "torch.unique(x, return_inverse=False, return_counts=False)", "x.unique(return_inverse=True)",
    "x.unique_consecutive(return_counts=True)", "torch.unique_consecutive(x)", "torch.unique(x)[0]",
    # unknown: another argument, a flag that is not a literal, a positional flag, **kwargs
    "torch.min(x, 1)", "torch.unique(x, return_counts=flag)", "torch.unique(x, True, True)",
    "x.unique(**kw)", "torch.where(x > 0, x, 0.0)", "torch.nonzero(x, as_tuple=True)",
]
UNKNOWN_FORMS = {"torch.unique(x, return_counts=flag)", "torch.unique(x, True, True)", "x.unique(**kw)",
                 "torch.nonzero(x, as_tuple=True)"}


def test_the_analysis_agrees_with_torch():
    body = "".join(f"probe({f})\n" for f in FORMS)
    src = "import torch\nx = torch.tensor([[1.0, 0.0], [2.0, 2.0]])\nflag = True\nkw = {}\n" + body
    values, seen = analysed(src), executed(src)
    assert len(values) == len(seen) == len(FORMS)
    for form, v, got in zip(FORMS, values, seen):
        claimed = _analysed_shape(v)
        if form in UNKNOWN_FORMS:
            assert claimed is None, form
        elif form in ("torch.min(x, 1)", "torch.where(x > 0, x, 0.0)"):
            assert claimed == _shape(got) or claimed == "tensor" and _shape(got) == "tensor", form
        else:
            assert claimed is not None and _same(claimed, _shape(got)), (form, claimed, _shape(got))


# ----------------------------------------------------------------------- TRC108 reach
HEAD = "import torch\n\n"

# torchgeo datasets/pastis.py:282, zuericrop.py:196: lists of 0-d tensors handed to torch.tensor
REPORTED = {
    "torch.unique(...)[0] appended": """
        def use(mask_tensor, masks):
            labels_list = []
            for mask in masks:
                label = mask_tensor[mask]
                label = torch.unique(label)[0]
                labels_list.append(label)
            return torch.tensor(labels_list)
        """,
    "torch.min of a part of torch.where": """
        def use(mask_tensor, masks):
            mins = []
            for mask in masks:
                pos = torch.where(mask)
                mins.append(torch.min(pos[1]))
            return torch.tensor(mins)
        """,
    "torch.max and torch.median of a parameter, in a display": """
        def use(mask_tensor, masks):
            return torch.tensor([torch.max(mask_tensor), torch.median(mask_tensor)])
        """,
}

QUIET = {
    "x.max() of a parameter (an ndarray has max too)": """
        def use(mask_tensor, masks):
            return torch.tensor([mask_tensor.max(), mask_tensor.min()])
        """,
    "a flag that is not a literal": """
        def use(mask_tensor, masks, flag=False):
            out = []
            for mask in masks:
                out.append(torch.unique(mask_tensor[mask], return_counts=flag))
            return torch.tensor(out)
        """,
    "torch.min with a dim (a tuple): not reported as a tensor": """
        def use(mask_tensor, masks):
            return torch.tensor([torch.min(mask_tensor, 1)])
        """,
}


def _run(src, before=lambda: None):
    ns: dict = {}
    exec(compile(src, "<case>", "exec"), ns)
    x = torch.tensor([[3, 1, 1], [2, 0, 2]])
    before()
    return ns["use"](x, [x > 0, x > 1])


@pytest.mark.parametrize("name", REPORTED)
def test_forms_are_reported_and_their_items_are_tensors(name):
    src = HEAD + textwrap.dedent(REPORTED[name]).lstrip("\n")
    found = [f for f in lint_source(src) if f.code == "TRC108"]
    assert len(found) == 1 and found[0].fix is not None and not found[0].fix.safe
    captured = []
    real = torch.tensor

    def spy(data, *a, **k):
        captured.append(data)
        return real(data, *a, **k)

    def install():
        torch.tensor = spy

    try:
        _run(src, install)
    finally:
        torch.tensor = real
    (data,) = captured
    assert data and all(isinstance(i, torch.Tensor) and i.dim() == 0 for i in data)


@pytest.mark.parametrize("name", QUIET)
def test_lookalikes_are_quiet(name):
    src = HEAD + textwrap.dedent(QUIET[name]).lstrip("\n")
    assert [f for f in lint_source(src) if f.code == "TRC108"] == []
    if "flag" in name:  # control: with a literal False the items are tensors, reported
        control = src.replace("return_counts=flag", "return_counts=False")
        assert [f.code for f in lint_source(control) if f.code == "TRC108"] == ["TRC108"]
