"""Review 13: TRC103 reads the binding that reaches the read (``analysis/gradreach.py``) only
where nothing later can change what the read sees.

* A read in a lambda or a generator expression runs when it is called or iterated, after a
  later rebinding of the name: the binding before the lambda's statement does not reach it.
* A followed value that is (a view of) another name, changed in place after that binding:
  ``x = y.view(-1); y.mul_(w)`` makes ``x`` require grad (a view follows its base).
Each must stay reported; each receiver requires grad at the read (checked with torch).
"""
import textwrap

import pytest
import torch

from flake8_torchcopy import lint_source

LAZY = """
import torch


def lam(w):
    x = w.detach()
    f = lambda: x.clone().detach()
    x = w * 2
    return f, lambda: x


def gen(w):
    x = w.detach()
    g = (x.clone().detach() for _ in range(1))
    x = w * 2
    return g, lambda: x
"""

ALIASED = """
import torch


def alias(w):
    y = w.detach()
    x = y
    y.requires_grad_()
    return x.clone().detach(), x


def view_of_base(w):
    y = w.detach()
    x = y.view(-1)
    y.mul_(w)
    return x.clone().detach(), x


def chain(w):
    z = w.detach()
    y = z.view(-1)
    x = y[0:2]
    z.add_(w)
    return x.clone().detach(), x
"""


def _lines(src):
    return sorted(f.line for f in lint_source(textwrap.dedent(src)) if f.code == "TRC103")


def _namespace(src):
    ns = {}
    exec(compile(src, "<review13>", "exec"), ns)
    return ns


def test_lazy_reads_stay_reported():
    assert _lines(LAZY) == [7, 14]


@pytest.mark.parametrize("name", ["lam", "gen"])
def test_lazy_read_sees_the_later_binding_with_torch(name):
    w = torch.randn(3, requires_grad=True)
    made, receiver = _namespace(LAZY)[name](w)
    assert receiver().requires_grad and receiver().clone().grad_fn is not None
    if name == "gen":
        assert next(made).grad_fn is None  # the detach drops the node the clone recorded


def test_aliases_changed_in_place_stay_reported():
    assert _lines(ALIASED) == [9, 16, 24]


@pytest.mark.parametrize("name", ["alias", "view_of_base", "chain"])
def test_alias_requires_grad_after_its_base_changes_with_torch(name):
    w = torch.randn(3, requires_grad=True)
    _out, x = _namespace(ALIASED)[name](w)
    assert x.requires_grad and x.clone().grad_fn is not None


def test_detach_and_data_break_the_alias_with_torch():
    w = torch.randn(3, requires_grad=True)
    for make in (lambda y: y.detach(), lambda y: y.data):
        y = w.detach()
        x = make(y)
        y.mul_(w)
        assert y.requires_grad and not x.requires_grad


IN_PLACE_OTHERWISE = """
import operator

import torch


def iadd(w):
    x = w.detach()
    x.__iadd__(w)
    return x.clone().detach(), x


def sattr(w):
    x = w.detach()
    setattr(x, "requires_grad", True)
    return x.clone().detach(), x


def sitem(w):
    x = w.detach()
    x.__setitem__(0, w[0])
    return x.clone().detach(), x


def opiadd(w):
    x = w.detach()
    operator.iadd(x, w)
    return x.clone().detach(), x


def opset(w):
    x = w.detach()
    operator.setitem(x, 0, w[0])
    return x.clone().detach(), x
"""


def test_in_place_changes_not_named_with_an_underscore_stay_reported():
    assert _lines(IN_PLACE_OTHERWISE) == [10, 16, 22, 28, 34]


@pytest.mark.parametrize("name", ["iadd", "sattr", "sitem", "opiadd", "opset"])
def test_in_place_changes_not_named_with_an_underscore_with_torch(name):
    w = torch.randn(3, requires_grad=True)
    _out, x = _namespace(IN_PLACE_OTHERWISE)[name](w)
    assert x.requires_grad and x.clone().grad_fn is not None


REBOUND_BY_NESTED = """
import torch


def nested_def(w):
    x = w.detach()

    def g():
        nonlocal x
        x = w
    g()
    return x.clone().detach(), x


def nested_class(w):
    x = w.detach()

    class C:
        nonlocal x
        x = w
    return x.clone().detach(), x


W = torch.randn(3, requires_grad=True)
y = W.detach()


def rebind():
    global y
    y = W


rebind()
Y = y.clone().detach()
"""


def test_rebound_by_a_nested_scope_stays_reported():
    assert _lines(REBOUND_BY_NESTED) == [12, 21, 34]


def test_rebound_by_a_nested_scope_with_torch():
    ns = _namespace(REBOUND_BY_NESTED)
    assert ns["y"].requires_grad and ns["y"].clone().grad_fn is not None
    for name in ("nested_def", "nested_class"):
        _out, x = ns[name](torch.randn(3, requires_grad=True))
        assert x.requires_grad and x.clone().grad_fn is not None
