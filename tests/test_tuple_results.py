"""Calls that return a tuple of tensors, and tuple/starred unpacking: each table entry is
checked against torch, and the items reach the rules as tensors."""
import warnings

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import torchfacts as facts
from flake8_torchcopy.analysis import tuples as sem

torch = pytest.importorskip("torch")

SAMPLE_CALLS = {
    "topk": lambda x: x.topk(2, 1), "sort": lambda x: x.sort(1),
    "kthvalue": lambda x: x.kthvalue(2, 1), "mode": lambda x: x.mode(1),
    "cummax": lambda x: x.cummax(1), "cummin": lambda x: x.cummin(1),
    "aminmax": lambda x: x.aminmax(dim=1), "frexp": lambda x: x.frexp(),
    "max": lambda x: x.max(1), "min": lambda x: x.min(1), "median": lambda x: x.median(1),
    "nanmedian": lambda x: x.nanmedian(1),
    "geqrf": lambda x: x.geqrf(), "histogram": lambda x: x.histogram(4), "qr": lambda x: x.qr(),
    "slogdet": lambda x: x.slogdet(), "svd": lambda x: x.svd(),
    "triangular_solve": lambda x: x.triangular_solve(torch.eye(6, dtype=x.dtype) * 4 + x.triu()),
}
# calls of the ops CONTIGUOUS_TUPLES names, over dims and keepdim (a method and torch.<name>)
DIM_CALLS = {
    "topk": lambda f, x, d, k: f(x, 2, d), "aminmax": lambda f, x, d, k: f(x, dim=d, keepdim=k),
    "max": lambda f, x, d, k: f(x, d, k), "min": lambda f, x, d, k: f(x, d, k),
}


def _inputs():
    """Square inputs, dense (contiguous, transposed, permuted) and not (sliced)."""
    base = torch.randn(6, 6, dtype=torch.float64)
    return [base, base.t(), torch.randn(6, 12, dtype=torch.float64)[:, ::2],
            torch.randn(6, 6, 3, dtype=torch.float64).permute(2, 0, 1)[1]]


def test_the_tables_are_the_generated_ones():
    """Names and counts come from analysis/torchfacts.py: every all-tensor fixed tuple, and
    every varying-returns name one of whose returns is a tuple of tensors."""
    assert set(sem.TUPLE_METHODS) == {n for n, k in facts.TUPLE_METHODS.items() if set(k) == {"Tensor"}}
    assert {"torch." + n for n in sem.TUPLE_FUNCTIONS} == {
        q for q, k in facts.TUPLE_FUNCTIONS.items() if set(k) == {"Tensor"}}
    assert all(len(facts.TUPLE_METHODS[n]) == c for n, c in sem.TUPLE_METHODS.items())
    assert set(sem.TUPLE_METHODS_WITH_DIM) == {
        n for n, k in facts.VARYING_METHODS.items() if "(Tensor, Tensor)" in k}
    assert {"torch." + n for n in sem.TUPLE_FUNCTIONS_WITH_DIM} == {
        q for q, k in facts.VARYING_FUNCTIONS.items() if "(Tensor, Tensor)" in k}
    assert "torch.fbgemm_linear_quantize_weight" in facts.TUPLE_FUNCTIONS  # (Tensor, Tensor, float, int)
    assert "fbgemm_linear_quantize_weight" not in sem.TUPLE_FUNCTIONS
    assert sem.CONTIGUOUS_TUPLES <= set(sem.TUPLE_METHODS) | set(sem.TUPLE_METHODS_WITH_DIM)


@pytest.mark.parametrize("name", sorted({**sem.TUPLE_METHODS, **sem.TUPLE_METHODS_WITH_DIM}))
def test_tuple_methods_return_that_many_tensors(name):
    count = {**sem.TUPLE_METHODS, **sem.TUPLE_METHODS_WITH_DIM}[name]
    for x in _inputs():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # qr, svd: deprecated for torch.linalg's
            out = SAMPLE_CALLS[name](x)
        assert isinstance(out, tuple) and len(out) == count
        assert all(type(t) is torch.Tensor for t in out)


@pytest.mark.parametrize("name", sorted(sem.CONTIGUOUS_TUPLES))
def test_contiguous_tuples_are_contiguous_whatever_the_input(name):
    """The claim tuple_result makes: every output contiguous, for every dim, keepdim and layout
    (dense, transposed, permuted, sliced; 2-D and 3-D), as a method and as torch.<name>."""
    inputs = _inputs() + [torch.randn(4, 5, 6).permute(2, 0, 1), torch.randn(4, 10, 6)[:, ::2].transpose(0, 2)]
    for x in inputs:
        for d in range(-x.dim(), x.dim()):
            for keep in (False, True):
                for f in (getattr(torch.Tensor, name), getattr(torch, name)):
                    out = DIM_CALLS[name](f, x, d, keep)
                    assert all(t.is_contiguous() for t in out), (name, x.stride(), d, keep)


@pytest.mark.parametrize("name", ["sort", "frexp", "qr"])
def test_others_are_not_contiguous_for_some_input(name):
    """Why the flag is needed: these follow the input's strides (or LAPACK's column order)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert any(not t.is_contiguous() for x in _inputs() for t in SAMPLE_CALLS[name](x))
    assert name not in sem.CONTIGUOUS_TUPLES


@pytest.mark.parametrize("name", sorted(sem.TUPLE_METHODS_WITH_DIM))
def test_without_a_dim_they_return_one_tensor(name):
    assert type(getattr(torch.randn(3, 4), name)()) is torch.Tensor
    assert name in sem.TUPLE_FUNCTIONS_WITH_DIM and type(getattr(torch, name)(torch.randn(3, 4))) is torch.Tensor


def test_tuple_functions_return_that_many_tensors():
    """Those a symmetric positive definite matrix is a valid input of (the others need more
    arguments; tests/test_torch_facts.py checks every entry of the facts against torch)."""
    a = torch.randn(4, 4, dtype=torch.float64)
    x = a @ a.T + 4 * torch.eye(4, dtype=torch.float64)  # symmetric positive definite
    ran = 0
    for name, count in sem.TUPLE_FUNCTIONS.items():
        fn = torch
        for part in name.split("."):
            fn = getattr(fn, part, None)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out = fn(x)  # type: ignore[misc]
            except Exception:
                continue
        assert isinstance(out, tuple) and len(out) == count, name
        assert all(isinstance(t, torch.Tensor) for t in out), name
        ran += 1
    assert ran >= 20


def _codes(src):
    return [(f.line, f.code) for f in lint_source(src, "t.py")]


@pytest.mark.parametrize("src", [
    "import torch\ndef f(x):\n    v, i = torch.max(x, 1)\n    return torch.tensor(v)\n",
    "import torch\ndef f(x):\n    q, r = torch.linalg.qr(x)\n    return torch.tensor(r)\n",
    "import torch\ndef f():\n    x = torch.randn(3, 4)\n    _, idx = x.topk(2)\n    return torch.tensor(idx)\n",
    # tuples the generated facts hold besides: a method, and a torch.nn.functional function
    "import torch\ndef f():\n    x = torch.randn(3, 3)\n    q, r = x.qr()\n    return torch.tensor(r)\n",
    "import torch\ndef f(x):\n    out, idx = torch.nn.functional.max_pool2d_with_indices(x, 2)\n"
    "    return torch.tensor(idx)\n",
    "import torch\ndef f():\n    a, *rest = torch.zeros(3), torch.ones(3), 5\n    return torch.tensor(a)\n",
    "import torch\ndef f():\n    *first, z = 5, torch.ones(3)\n    return torch.tensor(z)\n",
])
def test_items_of_tuples_are_tensors(src):
    assert _codes(src) == [(src.count("\n"), "TRC101")]


@pytest.mark.parametrize("src", [
    # a tensor second argument: the elementwise maximum, one tensor
    "import torch\ndef f(x, y):\n    v = torch.max(x, y)\n    return torch.tensor(v[0])\n",
    # a list's sort returns None; an unknown receiver's may be anything
    "import torch\ndef f(x):\n    v, i = x.sort()\n    return torch.tensor(v)\n",
    # the starred name is a list, the last item a number
    "import torch\ndef f():\n    a, *rest = torch.zeros(3), torch.ones(3), 5\n    return torch.tensor(rest)\n",
    "import torch\ndef f():\n    *first, z = torch.ones(3), 5\n    return torch.tensor(z)\n",
])
def test_what_is_not_a_tensor_stays_quiet(src):
    assert [c for _, c in _codes(src) if c == "TRC101"] == []
