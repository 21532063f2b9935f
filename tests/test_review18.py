"""Review 18: TRC201 on parts cut by a slice (8ca3c23, 355d85f) and analysis/escapes.py (cd5a2e4).

1. A cut may hold no element (``x[:, 1:]`` of a dim of 1, ``x[:, :k]`` with ``k`` 0): every
   view of an empty tensor works, so "raises unless ... " now names ``cut == 0`` too; a
   slice that is empty by its text (``x[:, k:k]``, ``x[:, 4:2]``) is not reported at all.
2. A cut of an object of the module's own class (``__getitem__`` returning a contiguous
   tensor) is not a tensor's part: not reported.
3. A tensor reached by a helper through a way :mod:`.escapes` did not follow (an alias
   ``u = t``, ``for a in [t]``, ``xs += [t]``, ``setattr(h, "t", t)``, a callback reading
   ``t``, ``locals()``, a ``global``, a comprehension or a ``**{...}``, ``yield t``, the
   module's own code) may come back a subclass: the safe fix of ``torch.tensor(t)`` returned
   the subclass.  Each run with torch, the fixed program against the original.
"""
import sys
import textwrap
import types
import warnings

import pytest
import torch

from flake8_torchcopy import fix_source, lint_source


def _findings(src, code):
    return [f for f in lint_source(textwrap.dedent(src).lstrip("\n")) if f.code == code]


def _works(src, *args):
    ns: dict = {}
    exec(textwrap.dedent(src), ns)
    try:
        ns["f"](*args)
        return True
    except RuntimeError:
        return False


# --------------------------------------------------------------- 1. an empty cut

CUT = """
import torch
def f(x, k):
    b, t, c = x.shape
    y = x[{}]
    return y.view(-1, c)
"""


@pytest.mark.parametrize("sl,x,k", [("1:", (2, 1, 3), 0), (":k", (2, 5, 3), 0), ("k:", (2, 5, 3), 5)])
def test_an_empty_cut_is_named_among_the_sizes_that_save_the_view(sl, x, k):
    src = CUT.format(":, " + sl)
    [f] = _findings(src, "TRC201")
    assert f"x[:, {sl}].size(1) == 0" in f.message
    assert _works(src, torch.zeros(*x), k)  # b is 2, the cut is neither 1 nor the whole dim


@pytest.mark.parametrize("sl", ["k:k", "4:2", "-1:-3"])
def test_a_slice_empty_by_its_text_is_not_reported(sl):
    src = CUT.format(":, " + sl)
    assert _findings(src, "TRC201") == []
    assert _works(src, torch.zeros(2, 5, 3), 3)


# --------------------------------------------------------------- 2. a class of the module's own

def test_a_cut_of_an_object_of_the_modules_own_class_is_not_reported():
    src = """
import torch
class Frames:
    def __init__(self, t):
        self.t = t
        self.shape = t.shape
    def __getitem__(self, i):
        return self.t[i].contiguous()
def f(x, k):
    b, t, c = x.shape
    return x[:, :k].view(-1, c)
"""
    assert _findings(src, "TRC201") == []
    ns: dict = {}
    exec(textwrap.dedent(src), ns)
    assert ns["f"](ns["Frames"](torch.zeros(2, 5, 3)), 2).shape == (4, 3)


# --------------------------------------------------------------- 3. escapes not followed


class Marked(torch.Tensor):
    pass


def _mark(obj, seen=None):
    """What an unknown helper may do: every tensor it reaches becomes a Marked."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, torch.Tensor):
        obj.__class__ = Marked
    elif isinstance(obj, (list, tuple, set)):
        for o in obj:
            _mark(o, seen)
    elif isinstance(obj, dict):
        for o in obj.values():
            _mark(o, seen)
    elif isinstance(obj, types.GeneratorType):
        for o in obj:
            _mark(o, seen)
    elif callable(obj):
        _mark(obj(), seen)
    elif hasattr(obj, "__dict__"):
        _mark(vars(obj), seen)


def helper(*args, **kwargs):
    _mark(list(args) + list(kwargs.values()))
    caller = sys._getframe(1).f_globals
    if "G" in caller:
        _mark(caller["G"])


class Holder:
    pass


@pytest.fixture(autouse=True)
def helpers_module(monkeypatch):
    mod = types.ModuleType("helpers18")
    mod.helper, mod.Holder = helper, Holder
    monkeypatch.setitem(sys.modules, "helpers18", mod)


ESCAPES = {
    "an alias": "u = t\n    helper(u)",
    "an alias in a list": "u = t\n    xs = [u]\n    helper(xs)",
    "a loop over a display": "for a in [t]:\n        helper(a)",
    "an augmented list": "xs = []\n    xs += [t]\n    helper(xs)",
    "setattr": "h = Holder()\n    setattr(h, 't', t)\n    helper(h)",
    "a callback": "def cb():\n        return t\n    helper(cb)",
    "a lambda": "helper(lambda: t)",
    "locals()": "ns = locals()\n    helper(ns)",
    "a global": "global G\n    G = t\n    helper()",
    "a global declared after a colon": "if True: global G\n    G = t\n    helper()",
    "a conditional list": "xs = [t] if t.numel() else []\n    helper(xs)",
    "a comprehension": "xs = [a for a in (t,)]\n    helper(xs)",
    "a generator handed on": "helper(a for a in [t])",
    "keywords from a dict": "helper(**{'t': t})",
}


def _run(src):
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return type(ns["f"]())


@pytest.mark.parametrize("name", list(ESCAPES))
def test_a_tensor_a_helper_reaches_gets_no_safe_fix_run_with_torch(name):
    src = f"""
import torch
from helpers18 import helper, Holder
G = None


def f():
    t = torch.ones(3)
    {ESCAPES[name]}
    return torch.tensor(t)
"""
    src = textwrap.dedent(src).lstrip("\n")
    assert _run(src) is torch.Tensor
    assert _run(fix_source(src)) is torch.Tensor  # a safe fix gave a Marked
    [f] = _findings(src, "TRC101")
    assert f.fix is not None and not f.fix.safe


def test_a_yielded_tensor_gets_no_safe_fix_run_with_torch():
    src = """
import torch


def f():
    t = torch.ones(3)
    yield t
    return torch.tensor(t)
"""
    def consume(source):
        ns: dict = {}
        exec(compile(source, "case", "exec"), ns)
        g = ns["f"]()
        next(g).__class__ = Marked
        with warnings.catch_warnings(), pytest.raises(StopIteration) as stop:
            warnings.simplefilter("ignore")
            next(g)
        return type(stop.value.value)
    src = textwrap.dedent(src).lstrip("\n")
    assert consume(src) is torch.Tensor and consume(fix_source(src)) is torch.Tensor
    assert [f.fix.safe for f in _findings(src, "TRC101")] == [False]


def test_the_modules_own_code_lets_a_tensor_out_too_run_with_torch():
    src = """
import torch
from helpers18 import helper
t = torch.ones(3)
xs = [t]
helper(xs)
out = torch.tensor(t)
"""
    src = textwrap.dedent(src).lstrip("\n")
    for s in (src, fix_source(src)):
        ns: dict = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(s, "case", "exec"), ns)
        assert type(ns["out"]) is torch.Tensor
    assert [f.fix.safe for f in _findings(src, "TRC101")] == [False]


def test_a_permuted_tensor_reached_through_an_alias_is_not_judged_run_with_torch():
    src = """
import torch
from helpers18 import helper


def f(x):
    b, t, c = x.shape
    y = x.permute(0, 2, 1)
    u = y
    helper(u)
    return y.view(b, -1)
"""
    assert _findings(src, "TRC201") == []
    ns: dict = {}
    exec(textwrap.dedent(src), ns)
    ns["helper"] = lambda u: setattr(u, "data", u.data.contiguous())
    assert ns["f"](torch.zeros(2, 5, 3)).shape == (2, 15)  # the view works
