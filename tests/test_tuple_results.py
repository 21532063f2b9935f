"""Calls that return a tuple of tensors, and tuple/starred unpacking: each table entry is
checked against torch, and the items reach the rules as tensors."""
import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import torchsem as sem

torch = pytest.importorskip("torch")

SAMPLE_CALLS = {
    "topk": lambda x: x.topk(2, 1), "sort": lambda x: x.sort(1),
    "kthvalue": lambda x: x.kthvalue(2, 1), "mode": lambda x: x.mode(1),
    "cummax": lambda x: x.cummax(1), "cummin": lambda x: x.cummin(1),
    "aminmax": lambda x: x.aminmax(dim=1), "frexp": lambda x: x.frexp(),
    "max": lambda x: x.max(1), "min": lambda x: x.min(1), "median": lambda x: x.median(1),
    "nanmedian": lambda x: x.nanmedian(1),
}


def _inputs():
    base = torch.randn(6, 8)
    return [base, base.t().contiguous().t(), base[:, ::2], torch.randn(8, 6).t()]


@pytest.mark.parametrize("name", sorted({**sem.TUPLE_METHODS, **sem.TUPLE_METHODS_WITH_DIM}))
def test_tuple_methods_return_that_many_tensors(name):
    count, contiguous = {**sem.TUPLE_METHODS, **sem.TUPLE_METHODS_WITH_DIM}[name]
    for x in _inputs():
        out = SAMPLE_CALLS[name](x)
        assert isinstance(out, tuple) and len(out) == count
        assert all(type(t) is torch.Tensor for t in out)
        if contiguous:  # claimed whatever the input's layout
            assert all(t.is_contiguous() for t in out), (name, x.stride())
    assert hasattr(torch, name)  # the torch.<name> form the table also covers


@pytest.mark.parametrize("name", sorted(sem.TUPLE_METHODS_WITH_DIM))
def test_without_a_dim_they_return_one_tensor(name):
    assert type(getattr(torch.randn(3, 4), name)()) is torch.Tensor


@pytest.mark.parametrize("name", sorted(sem.TUPLE_FUNCTIONS))
def test_tuple_functions_return_that_many_tensors(name):
    fn = torch
    for part in name.split("."):
        fn = getattr(fn, part)
    a = torch.randn(4, 4, dtype=torch.float64)
    x = a @ a.T + 4 * torch.eye(4, dtype=torch.float64)  # symmetric positive definite
    out = fn(x)
    assert isinstance(out, tuple) and len(out) == sem.TUPLE_FUNCTIONS[name]
    assert all(isinstance(t, torch.Tensor) for t in out)


def _codes(src):
    return [(f.line, f.code) for f in lint_source(src, "t.py")]


@pytest.mark.parametrize("src", [
    "import torch\ndef f(x):\n    v, i = torch.max(x, 1)\n    return torch.tensor(v)\n",
    "import torch\ndef f(x):\n    q, r = torch.linalg.qr(x)\n    return torch.tensor(r)\n",
    "import torch\ndef f():\n    x = torch.randn(3, 4)\n    _, idx = x.topk(2)\n    return torch.tensor(idx)\n",
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
