"""A tensor retyped by a store to ``__class__`` in any target form gets no safe fix.

``t.__class__ = MyT`` was seen; the same store as a tuple target or a ``for`` target was
not, and ``torch.tensor(t)`` (a plain tensor) became ``t.detach().clone()`` (a ``MyT``).
Each form is run to show the class the original and the fix give.
"""
import textwrap
import warnings

import pytest
import torch

from flake8_torchcopy import lint_source

HEAD = """
import torch
class MyT(torch.Tensor):
    pass
def f(fixed):
    t = torch.zeros(3)
    {store}
    return t.detach().clone() if fixed else torch.tensor(t)
"""

STORES = {
    "a tuple target": "t.__class__, _ = MyT, 0",
    "a for target": "for t.__class__ in [MyT]: pass",
    "a starred tuple target": "[t.__class__, *_] = [MyT]",
    "Tensor's method by a tuple target": "torch.Tensor.clone, _ = (lambda s, **k: MyT()), 0",
}


def _source(store: str) -> str:
    return textwrap.dedent(HEAD.format(store=store)).lstrip("\n")


@pytest.mark.parametrize("name", STORES)
def test_the_store_makes_the_fix_unsafe(name):
    found = [f for f in lint_source(_source(STORES[name])) if f.code == "TRC101"]
    assert len(found) == 1 and found[0].fix is not None and not found[0].fix.safe


@pytest.mark.parametrize("name", ["a tuple target", "a for target", "a starred tuple target"])
def test_the_store_makes_the_copies_differ(name):
    ns: dict = {}
    exec(compile(_source(STORES[name]), "case", "exec"), ns)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert type(ns["f"](False)) is torch.Tensor
    assert type(ns["f"](True)).__name__ == "MyT"


def test_reads_of_the_class_keep_the_fix_safe():
    src = _source("print(t.__class__.__name__, t.__class__(), t.__class__ == MyT, isinstance(t, t.__class__), "
                  "f'{t.__class__}', f'{t.__class__!r}', {t.__class__})")
    found = [f for f in lint_source(src) if f.code == "TRC101"]
    assert len(found) == 1 and found[0].fix is not None and found[0].fix.safe


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_method_replaced_through_an_alias_of_tensor_makes_the_fix_unsafe(newline):
    """``T = torch.Tensor`` then ``T.detach = f``: in a file with CRLF line ends too (the
    alias's line was once read only up to a bare ``\\n``)."""
    src = _source("pass").replace("def f(", "T = torch.Tensor\nT.detach = lambda s: MyT()\ndef f(")
    found = [f for f in lint_source(src.replace("\n", newline)) if f.code == "TRC101"]
    assert len(found) == 1 and found[0].fix is not None and not found[0].fix.safe


def test_a_method_replaced_through_a_parenthesized_import_alias_makes_the_fix_unsafe():
    """``from torch import (Tensor as T)``: the alias was read only after ``import ``."""
    alias = "from torch import (\n    Tensor as T,\n)\nT.detach = lambda s: MyT()\n"
    src = _source("pass").replace("def f(", alias + "def f(")
    found = [f for f in lint_source(src) if f.code == "TRC101"]
    assert len(found) == 1 and found[0].fix is not None and not found[0].fix.safe
    ns: dict = {}
    detach = torch.Tensor.detach
    try:  # the module replaces Tensor.detach for the whole process: put it back
        exec(compile(src.replace("torch.tensor(t)", "torch.tensor(t.clone())"), "case", "exec"), ns)
        assert type(ns["f"](True)).__name__ == "MyT"  # the fix's t.detach() is the replaced one
    finally:
        torch.Tensor.detach = detach  # type: ignore[method-assign]
    assert torch.zeros(1).detach().__class__ is torch.Tensor
