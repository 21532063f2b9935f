"""TRC103 is quiet where the cloned tensor is certainly detached.

Found on avalanche-lib (``training/plugins/cope.py:291``): ``p_x = torch.cat(...).detach()``,
then ``torch.cat([p_x[:i], p_x[i + 1:]]).clone().detach()``: the clone records no node, so
"the clone records a graph node" was false.  The torch facts (each grad-free form gives a
tensor whose clone has no ``grad_fn``; each in-place change of such a name makes it require
grad) are checked with torch; the analysis on code that must be quiet and code that must
stay reported.  (``op(..., out=p)`` cannot make ``p`` require grad: torch raises when an
operand does.)  Factories are not followed (``gradfree``'s docstring): they stay reported.
"""
import textwrap

import pytest
import torch

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis.gradfree import JOINS, SAME_GRAD, SAME_GRAD_ATTRS

W = torch.randn(4, 3, requires_grad=True)

GRAD_FREE = {
    "detach": lambda: W.detach(),
    "torch.detach": lambda: torch.detach(W),
    "slice of detached": lambda: W.detach()[1:],
    "index of detached by a tensor": lambda: W.detach()[torch.tensor([0, 2])],
    "cat of detached": lambda: torch.cat([W.detach()[:1], W.detach()[2:]]),
    "stack of detached": lambda: torch.stack((W.detach(), W.detach()[0:4])),
    "view of detached": lambda: W.detach().view(-1).to(torch.float64).t(),
    "attributes of detached": lambda: W.detach().T.mT[1:].H.mH.real,
    "imag of detached": lambda: W.detach().to(torch.complex64).imag,
    "indices of topk": lambda: torch.topk(W, 2, dim=1).indices.to(torch.float64),
}


@pytest.mark.parametrize("form", sorted(GRAD_FREE))
def test_torch_grad_free_forms_clone_records_no_node(form):
    t = GRAD_FREE[form]()
    assert not t.requires_grad and t.clone().grad_fn is None
    assert W.clone().grad_fn is not None  # recording is on


def test_torch_out_cannot_make_a_tensor_require_grad():
    with pytest.raises(RuntimeError, match="out=... arguments"):
        torch.add(W.detach(), W, out=W.detach().clone())


def test_torch_same_grad_methods_and_joins_exist():
    t = torch.zeros(2, 2)
    for m in SAME_GRAD:
        assert callable(getattr(t, m)), m
    c = W.to(torch.complex64)
    for a in SAME_GRAD_ATTRS:
        assert getattr(c, a).requires_grad and not getattr(c.detach(), a).requires_grad, a
    for j in JOINS:
        assert not getattr(torch, j)([t, t]).requires_grad, j


CHANGES = {
    "requires_grad_": lambda p: p.requires_grad_(),
    "attribute store": lambda p: setattr(p, "requires_grad", True),
    "index store": lambda p: p.__setitem__(0, W[0]),
    "in-place op on a view": lambda p: p.view(-1).add_(W.reshape(-1)),
    "in-place function": lambda p: torch.Tensor.add_(p, W),
    "augmented assignment": lambda p: p.__iadd__(W),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_torch_in_place_changes_make_a_detached_tensor_require_grad(change):
    p = W.detach().clone()
    CHANGES[change](p)
    assert p.requires_grad and p.clone().grad_fn is not None


def codes(body):
    return [f.code for f in lint_source("import torch\n" + textwrap.dedent(body))]


QUIET = {
    "cope": """
        def f(x, i):
            p = torch.cat([x, x]).to(x.device).detach()
            for _ in range(3):
                pc = p[i]
                pk = torch.cat([p[:i], p[i + 1:]]).clone().detach()
        """,
    "detached receiver": "def f(w):\n    return w.detach().view(-1).clone().detach()\n",
    "function form": "def f(w):\n    return torch.clone(torch.detach(w)[0]).detach()\n",
    "module name": "W = torch.nn.Parameter(torch.zeros(3))\nB = W.detach()\ndef f():\n"
                   "    return B[1:].clone().detach()\n",
    "attribute of .data": "def f(w):\n    return w.data.T.mT.clone().detach()\n",
    "two bindings": "def f(w, c):\n    p = w.detach()\n    if c:\n        p = w[1:].float().detach()\n"
                    "    return p.clone().detach()\n",
}
REPORTED = {
    "parameter": "def f(w):\n    return w.clone().detach()\n",
    "requires_grad=": "def f():\n    return torch.zeros(3, requires_grad=True).clone().detach()\n",
    "one binding unknown": "def f(w, c):\n    p = w.detach()\n    if c:\n        p = w * 2\n"
                           "    return p.clone().detach()\n",
    "unpacked": "def f(w):\n    p, q = w.detach(), w\n    return p.clone().detach()\n",
    "loop target": "def f(ws):\n    for p in ws:\n        p.clone().detach()\n",
    "detach with an argument": "def f(g):\n    return g.detach(1).clone().detach()\n",
    "cat with out=": "def f(w, o):\n    return torch.cat([w.detach()], out=o).clone().detach()\n",
    "cat of a comprehension": "def f(ws):\n    return torch.cat([w.detach() for w in ws]).clone().detach()\n",
    "attribute": "def f(w):\n    return w.T.clone().detach()\n",
    "arithmetic": "def f(w):\n    p = w.detach()\n    return (p * w).clone().detach()\n",
}
for _change, _line in {"requires_grad_": "p.requires_grad_()", "attribute store": "p.requires_grad = True",
                       "index store": "p[0] = w[0]", "in-place op on a view": "p.view(-1).add_(w)",
                       "augmented assignment": "p += w", "in-place function": "torch.Tensor.add_(p, w)",
                       "in a nested def": "def g():\n        p.add_(w)\n    g()"}.items():
    REPORTED["changed: " + _change] = (f"def f(w):\n    p = w.detach()\n    {_line}\n"
                                       "    return p.clone().detach()\n")


@pytest.mark.parametrize("case", sorted(QUIET))
def test_quiet_where_no_grad_is_certain(case):
    assert "TRC103" not in codes(QUIET[case])


@pytest.mark.parametrize("case", sorted(REPORTED))
def test_reported_where_grad_may_be_required(case):
    assert codes(REPORTED[case]).count("TRC103") == 1, REPORTED[case]
