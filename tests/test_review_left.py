"""The holes the twelfth to fifteenth reviews left, each run with torch:

1. a tensor let out into a list, a dict or an attribute (``xs = [t]``, ``h.t = t``,
   ``self.t = t``) and changed by a helper that gets the container (``helper(xs)``,
   ``self.helper()``): its class (``t.__class__ = C``: the SAFE ``t.detach().clone()`` of
   ``torch.tensor(t)`` returned the subclass) or its layout (``t.data = t.data.contiguous()``:
   TRC201 said the view raises; it succeeds).  Now :mod:`.escapes`; a helper handed the
   tensor itself drops its layout too.
2. ``.to(device=self.device)`` of any device: held (the fix of a factory raises, and gives
   what the move gives, for every device value tried).
3. ``n.item()``, ``s.size(0)``, ``s.numel()`` of an unknown ``n`` read as a number: an
   object's ``item`` may return a 0-dim subclass, and ``torch.ones(3) * n.item()`` is then the
   subclass (SAFE fix of TRC101/TRC103 changed the class).
4. a flag holding a type test (``is_t = torch.is_tensor(x)``) of a name bound again since:
   ``if is_t:`` dropped what was known of the new ``x`` (a list), and TRC103 reported
   ``x.clone().detach()`` of it.
5. a some-path call whose argument is computed from a fixed part (``dist(xs[:0])``,
   ``dist(e + e)``, ``lev(s + "", s)``): the tensor path never runs.
"""
import textwrap
import warnings

import pytest
import torch
from round_helpers import safety

from flake8_torchcopy import lint_source


class Marked(torch.Tensor):
    pass


def _found(src: str, code: str):
    return [f for f in lint_source(textwrap.dedent(src).lstrip("\n")) if f.code == code]


def _fixes(src: str) -> dict:
    return {f.code: ("safe" if f.fix is not None and f.fix.safe else "unsafe")
            for f in lint_source(textwrap.dedent(src).lstrip("\n"))}


# ------------------------------------------------------------- 1. a tensor let out, then changed

def _mark_list(xs):
    xs[0].__class__ = Marked


def _contiguous_list(xs):
    xs[0].data = xs[0].data.contiguous()


class _Holder:
    pass


def test_a_helper_reaches_a_tensor_through_a_list_or_an_attribute_with_torch():
    t = torch.ones(3)
    xs = [t]
    _mark_list(xs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert type(torch.tensor(t)) is torch.Tensor
    assert type(t.detach().clone()) is Marked  # the old safe fix: another class
    h = _Holder()
    t = torch.ones(3)
    h.t = t
    h.t.__class__ = Marked  # what fix(h) may do
    assert type(t.detach().clone()) is Marked
    t = torch.randn(2, 3).permute(1, 0)
    _contiguous_list([t])
    assert t.view(6).shape == (6,)  # TRC201 said it raises


LET_OUT = {
    "a list": "xs = [t]\n    helper(xs)",
    "a tuple": "xs = (t, 1)\n    helper(xs)",
    "a dict": "d = {'t': t}\n    helper(d)",
    "an attribute": "h = Holder()\n    h.t = t\n    helper(h)",
    "an item": "d = {}\n    d['t'] = t\n    helper(d)",
    "a list of a list": "xs = [[t]]\n    helper(xs)",
}


@pytest.mark.parametrize("name", list(LET_OUT))
def test_a_tensor_let_out_then_a_helper_called_no_safe_fix(name):
    src = f"""
import torch
from helpers import helper, Holder


def f():
    t = torch.ones(3)
    {LET_OUT[name]}
    return torch.tensor(t), t.clone().detach()
"""
    assert _fixes(src) == {"TRC101": "unsafe", "TRC103": "unsafe"}


def test_a_tensor_stored_on_self_then_a_method_called_no_safe_fix():
    src = """
import torch


class C:
    def m(self):
        t = torch.ones(3)
        self.t = t
        self.helper()
        return torch.tensor(t)
"""
    assert safety(src, "TRC101") == "unsafe"


@pytest.mark.parametrize("stmt", ["", "xs = [t]\n    print(xs)", "xs = [t]\n    n = len(xs)",
                                  "y = torch.cat([t, t])", "a, b = t, t",
                                  "helper()\n    xs = [t]"])
def test_no_helper_after_the_escape_keeps_the_safe_fix(stmt):
    src = f"""
import torch
from helpers import helper


def f():
    t = torch.ones(3)
    {stmt}
    return t.clone().detach()
"""
    assert safety(src, "TRC103") == "safe"


@pytest.mark.parametrize("stmt", ["helper(t)", "helper([t])", "xs = [t]\n    helper(xs)",
                                  "h = Holder()\n    h.t = t\n    helper(h)", "obj.fix(t)"])
def test_a_permuted_tensor_a_helper_reaches_is_not_judged(stmt):
    src = f"""
import torch
from helpers import helper, Holder, obj


def f():
    t = torch.randn(2, 3).permute(1, 0)
    {stmt}
    return t.view(6)
"""
    assert _found(src, "TRC201") == []


@pytest.mark.parametrize("stmt", ["xs = [t]\n    print(xs)", "n = len([t])", "y = torch.cat([t, t])",
                                  "y = torch.ones(3, 2).expand_as(t)"])
def test_reading_a_permuted_tensor_keeps_the_view_report(stmt):
    src = f"""
import torch


def f():
    t = torch.randn(2, 3).permute(1, 0)
    {stmt}
    return t.view(6)
"""
    assert len(_found(src, "TRC201")) == 1
    with pytest.raises(RuntimeError):
        torch.randn(2, 3).permute(1, 0).view(6)


def test_a_permuted_tensor_handed_over_stays_permuted():
    # t.T of the permuted t is contiguous: its view succeeds, so no report either way
    src = """
import torch
from helpers import helper


def f():
    t = torch.randn(2, 3).permute(1, 0)
    helper(t)
    return t.T.view(6)
"""
    assert _found(src, "TRC201") == []
    assert torch.randn(2, 3).permute(1, 0).T.view(6).shape == (6,)


# ------------------------------------------------------------- 2. .to(device=self.device): held

class _Index:
    def __index__(self):
        return 0


DEVICES = [None, "cpu", "meta", 0, -1, torch.device("cpu"), torch.device("meta"), torch.tensor(0),
           _Index(), torch.float64, "cpu:0", True, 0.5, "privateuseone"]


def _outcome(fn):
    try:
        t = fn()
    except Exception as e:  # noqa: BLE001 - the class of the error is the outcome
        return type(e).__name__
    return t.device.type, t.dtype, tuple(t.shape), type(t)


@pytest.mark.parametrize("device", DEVICES, ids=repr)
def test_a_factory_built_on_any_device_is_the_move_with_torch(device):
    assert _outcome(lambda: torch.zeros(3).to(device=device)) == _outcome(lambda: torch.zeros(3, device=device))
    assert _outcome(lambda: torch.eye(2).to(device=device)) == _outcome(lambda: torch.eye(2, device=device))


def test_a_device_held_by_self_keeps_only_the_tame_safe_fixes():
    src = """
import torch


class M:
    def __init__(self, d):
        self.device = d

    def a(self, v):
        return torch.zeros(3).to(device=self.device)

    def b(self, v):
        return torch.tensor(v).to(device=self.device)

    def c(self, v):
        return torch.zeros(3).to(self.device)

    def d(self, v):
        return torch.zeros(3).cuda(self.device)
"""
    got = {f.line: f for f in _found(src, "TRC112")}
    assert got[9].fix.safe  # what the battery above checks
    assert not got[12].fix.safe  # meta checks no data
    assert got[15].fix is None  # a positional may be a dtype or a tensor
    assert got[18].fix is None  # .cuda(d) raises for a d not cuda; device=d does not


# ------------------------------------------------------------- 3. n.item() of an unknown n

class _Box:
    def item(self):
        return torch.tensor(2.0).as_subclass(Marked)

    def size(self, dim):
        return torch.tensor(3).as_subclass(Marked)


def test_an_objects_item_may_be_a_subclass_with_torch():
    y = torch.ones(3) * _Box().item()
    assert type(y) is Marked
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert type(torch.tensor(y)) is torch.Tensor
    assert type(y.detach().clone()) is Marked  # the old safe fix
    assert type(torch.zeros(_Box().size(0))) is Marked


@pytest.mark.parametrize("line, use, code", [
    ("x = torch.ones(3) * n.item()", "torch.tensor(x)", "TRC101"),
    ("x = n.item() * torch.ones(3)", "x.clone().detach()", "TRC103"),
    ("x = torch.zeros(n.size(0))", "torch.tensor(x)", "TRC101"),
    ("x = torch.ones(3) * n.numel()", "x.clone().detach()", "TRC103"),
    ("x = torch.ones(3)[n.item()]", "torch.tensor(x)", "TRC101"),
    ("s = n.item()\n    x = torch.full((3,), 1.0) / s", "torch.tensor(x)", "TRC101"),
])
def test_a_read_of_an_unknown_gets_no_safe_fix(line, use, code):
    src = f"""
import torch


def f(n):
    {line}
    return {use}
"""
    assert safety(src, code) == "unsafe"


@pytest.mark.parametrize("line", ["n = torch.ones(())", "n = np.float64(2.0)",
                                  "s = torch.ones(()).item()\n    n = torch.tensor(s)"])
def test_a_read_of_a_known_value_keeps_the_safe_fix(line):
    src = f"""
import numpy as np
import torch


def f():
    {line}
    return torch.tensor(torch.ones(3) * n.item())
"""
    assert safety(src, "TRC101") == "safe"


# ------------------------------------------------------------- 4. a flag of a name bound again

FLAGS = """
import torch


def straight(x):
    is_t = torch.is_tensor(x)
    x = [1.0]
    if is_t:
        return x.clone().detach()
    return None


def after_a_branch(x):
    is_t = torch.is_tensor(x)
    if not is_t:
        x = torch.ones(2)
    x = [1.0]
    if is_t:
        return x.clone().detach()
    return None


def isinstance_flag(x):
    is_t = isinstance(x, torch.Tensor)
    x = [1.0]
    if is_t:
        return x.clone().detach()
    return None
"""


@pytest.mark.parametrize("name", ["straight", "after_a_branch", "isinstance_flag"])
def test_a_name_bound_again_after_its_flag_is_what_it_holds_with_torch(name):
    ns: dict = {}
    exec(FLAGS, ns)
    with pytest.raises(AttributeError):  # a list has no clone: never a tensor there
        ns[name](torch.ones(2))
    assert _found(FLAGS, "TRC103") == []


def test_a_branch_bound_name_stays_unknown_under_its_flag():
    src = """
import torch


def f(x):
    is_t = torch.is_tensor(x)
    if not is_t:
        x = torch.ones(2)
    if is_t:
        return x.clone().detach()
    return None
"""
    assert safety(src, "TRC103") == "unsafe"  # x is the parameter there: a tensor, maybe with grad


def test_a_tensor_bound_after_a_flag_is_reported_with_torch():
    src = """
import torch


def f(x):
    is_l = isinstance(x, list)
    x = torch.ones(2)
    if not is_l:
        return torch.tensor(x)
    return None
"""
    assert safety(src, "TRC101") == "safe"
    ns: dict = {}
    exec(src, ns)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ns["f"](3)
    assert any("copy construct" in str(w.message) for w in caught)


# ------------------------------------------------------------- 5. an argument fixed by arithmetic

SOME = """
import torch


def dist(a):
    if len(a) == 0:
        return 0
    return torch.zeros(len(a)).sum()


def lev(source, target):
    if source == target:
        return 0
    return torch.tensor(float(len(source)))
"""


@pytest.mark.parametrize("call, args", [
    ("dist(xs[:0])", ([1.0, 2.0],)),
    ("dist(e + e)", ([1.0],)),
    ("dist([] * len(xs))", ([1.0],)),
    ("dist(xs[:k])", ([1.0],)),
    ('lev(xs + "", xs)', ("ab",)),
    ("lev(xs * 1, xs)", ("ab",)),
])
def test_an_argument_fixed_by_arithmetic_never_takes_the_tensor_path(call, args):
    src = SOME + f"\n\ndef use(xs):\n    e = []\n    k = 0\n    return torch.tensor({call})\n"
    ns: dict = {}
    exec(src, ns)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ns["use"](*args)
    assert not any("copy construct" in str(w.message) for w in caught)
    assert [f for f in lint_source(src) if f.code == "TRC101"] == []


def test_an_argument_the_caller_does_not_fix_stays_reported():
    src = SOME + "\n\ndef use(xs):\n    return torch.tensor(dist(xs))\n"
    (f,) = [f for f in lint_source(src) if f.code == "TRC101"]
    assert "on some paths" in f.message
