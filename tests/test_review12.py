"""Hostile review 12: what a torch call's operand or size derived from an unknown decides.

A fix that needs a plain tensor was safe where the tensor was computed from a value of
unknown kind that stands for a size (``s * 2`` of a parameter ``s``, ``self.n``,
``self.scale``) or from a name another module binds (``from cfg import S``,
``cfg.scale``): any of them may be a 0-dim Tensor subclass (the result is the subclass) or
an object whose ``__rmul__`` answers ``Tensor.__mul__`` (the result is no tensor at all).
Checked with torch below and in tests/adversarial/cases/subclass_derived_size_operand.py.
"""
import textwrap

import pytest
from round_helpers import safety

from flake8_torchcopy import lint_source

UNKNOWN = {
    "a parameter's arithmetic": "x = torch.ones(3) * (s * 2)",
    "a size of a parameter's arithmetic": "x = torch.zeros(s * 2)",
    "a floor division of one": "x = torch.zeros(2, s // 2)",
    "an attribute of self": "x = torch.ones(3) * self.scale",
    "a size held by self": "x = torch.zeros(self.n)",
    "a view's size held by self": "x = torch.randn(4).view(self.n, -1)",
    "an index held by self": "x = torch.randn(4)[self.i]",
    "a name from another module": "x = torch.ones(3) * S",
    "an attribute of another module": "x = torch.ones(3) * cfg.scale",
    "a size from another module": "x = torch.zeros(cfg.N)",
}

KNOWN = {
    "a literal": "x = torch.ones(3) * 2",
    "math": "x = torch.ones(3) * math.pi",
    "numpy": "x = torch.ones(3) * np.pi",
    "a torch dtype": "x = torch.zeros(3, dtype=torch.float64)",
    "len": "x = torch.zeros(len(s))",
    "int()": "x = torch.zeros(int(s))",
    "a proven tensor's size": "t = torch.randn(4, 5); x = torch.zeros(t.size(0) * 2)",
}


def _src(line: str, use: str) -> str:
    return f"""
        import math
        import numpy as np
        import torch
        import cfg
        from cfg import S
        class A:
            def f(self, s):
                {line}
                return {use}
        """


@pytest.mark.parametrize("use,code", [("torch.tensor(x)", "TRC101"), ("x.clone().detach()", "TRC103"),
                                      ("x.cpu().detach()", "TRC110")])
@pytest.mark.parametrize("name", list(UNKNOWN))
def test_an_operand_derived_from_an_unknown_gets_no_safe_fix(name, use, code):
    assert safety(_src(UNKNOWN[name], use), code) == "unsafe"


@pytest.mark.parametrize("name", list(KNOWN))
def test_known_operands_keep_the_safe_fix(name):
    assert safety(_src(KNOWN[name], "torch.tensor(x)"), "TRC101") == "safe"


def test_the_facts_with_torch():
    torch = pytest.importorskip("torch")

    class Marked(torch.Tensor):
        pass

    s = torch.tensor(2).as_subclass(Marked)
    assert type(torch.ones(3) * (s * 2)) is Marked
    assert type(torch.zeros(s * 2)) is Marked
    assert type(torch.randn(4).view(s, -1)) is Marked

    class Meter:
        def __rmul__(self, other):
            return self

    m = Meter()
    assert torch.ones(3) * m is m  # Tensor.__mul__ answers NotImplemented


# --- TRC201: a layout changed in place by a store of .data the text test did not see ---------

STORES = [
    "setattr(y, 'data', torch.randn(4, 3))",
    "y.__setattr__('data', torch.randn(4, 3))",
    "torch.Tensor.data.__set__(y, torch.randn(4, 3))",
    "torch.utils.swap_tensors(y, torch.randn(4, 3))",
    "y.data: torch.Tensor = torch.randn(4, 3)",
    "(y.data) = torch.randn(4, 3)",
    "y.data, k = torch.randn(4, 3), 1",
    "[y.data] = [torch.randn(4, 3)]",
    "for y.data in [torch.randn(4, 3)]: pass",
    "y.data\\\n        = torch.randn(4, 3)",
    "put = setattr; put(y, 'data', torch.randn(4, 3))",
    "y.data @= torch.eye(3)",
]


def _view_program(stmt: str) -> str:
    return f"import torch\ndef f():\n    x = torch.randn(3, 4)\n    y = x.t()\n    {stmt}\n    return y.view(-1)\n"


@pytest.mark.parametrize("stmt", STORES)
def test_a_data_store_in_any_form_quiets_the_view_report(stmt):
    pytest.importorskip("torch")
    src = _view_program(stmt)
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    assert ns["f"]().shape == (12,)  # y took t's contiguous layout: the view succeeds
    assert not [f for f in lint_source(src) if f.code == "TRC201"]


@pytest.mark.parametrize("stmt", ["setattr(y, 'grad', None)", "print(y.data)", "z = getattr(y, 'data')"])
def test_other_setattrs_and_loads_of_data_keep_the_report(stmt):
    assert [f.code for f in lint_source(_view_program(stmt))] == ["TRC201"]


# --- TRC109: an array's length, rank or dtype changed in place after its binding -------------

CHANGES = {
    "a resize": ("a.resize((0,), refcheck=False); b.resize((0,), refcheck=False)", "strides"),
    "an unbound resize": ("np.ndarray.resize(a, (0,), refcheck=False); np.ndarray.resize(b, (0,), refcheck=False)",
                          "strides"),
    "a dtype store": ("a.dtype = np.int32", "dtype"),
    "a helper": ("helper(a); helper(b)", "strides"),
    "an alias": ("c = a; c.resize((0,), refcheck=False); d = b; d.resize((0,), refcheck=False)", "strides"),
}

HELPER = "def helper(x):  # another module's, say\n    x.resize((0,), refcheck=False)\n\n\n"


def _array_program(stmt: str) -> str:
    return ("import numpy as np\nimport torch\n\n\n" + HELPER +
            f"def f():\n    a = np.zeros(4, dtype=np.float32)\n    b = np.ones(4, dtype=np.float32)\n"
            f"    {stmt}\n    return torch.tensor([a, b])\n")


@pytest.mark.parametrize("name", list(CHANGES))
def test_an_array_changed_in_place_gets_no_safe_fix(name):
    torch = pytest.importorskip("torch")
    np = pytest.importorskip("numpy")
    stmt, what = CHANGES[name]
    src = _array_program(stmt)
    found = [f for f in lint_source(src) if f.code == "TRC109"]
    assert len(found) == 1 and found[0].fix is not None and not found[0].fix.safe
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    original = ns["f"]()
    fixed_src = src.replace("torch.tensor([a, b])", "torch.tensor(np.array([a, b]))")
    exec(compile(fixed_src, "case", "exec"), ns)
    fixed = ns["f"]()
    assert isinstance(original, torch.Tensor) and np is not None
    if what == "strides":
        assert original.stride() != fixed.stride()  # (1, 1) against (0, 0)
    else:
        assert original.dtype != fixed.dtype  # int32 and float32: float32 against float64


@pytest.mark.parametrize("stmt", ["pass", "c = a + 1", "c = a.sum()", "a.fill(0)", "c = a.shape", "print(len(a))"])
def test_arrays_left_alone_keep_the_safe_fix(stmt):
    found = [f for f in lint_source(_array_program(stmt)) if f.code == "TRC109"]
    assert len(found) == 1 and found[0].fix is not None and found[0].fix.safe


# --- TRC107: a tensor's sizes changed in place after its binding -------------------------------

SHRINKS = ["t.resize_(0, 3)", "t.data = torch.zeros(0, 3)", "shrink(t)", "t.set_(torch.zeros(0, 3))"]


def _round_trip(stmt: str) -> str:
    return ("import torch\n\n\ndef shrink(x):  # another module's, say\n    x.resize_(0, 3)\n\n\n"
            f"def f():\n    t = torch.zeros(2, 3)\n    {stmt}\n    return torch.tensor(t.numpy())\n")


@pytest.mark.parametrize("stmt", SHRINKS)
def test_a_tensor_resized_in_place_gets_no_safe_round_trip_fix(stmt):
    pytest.importorskip("torch")
    src = _round_trip(stmt)
    found = [f for f in lint_source(src) if f.code == "TRC107"]
    assert len(found) == 1 and found[0].fix is not None and not found[0].fix.safe
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    original = ns["f"]()
    exec(compile(src.replace("torch.tensor(t.numpy())", "t.detach().clone()"), "case", "exec"), ns)
    assert original.stride() == (0, 0) and ns["f"]().stride() == (3, 1)


@pytest.mark.parametrize("stmt", ["pass", "t.add_(1)", "n = len(t)", "u = t.sum()"])
def test_a_tensor_left_alone_keeps_the_safe_round_trip_fix(stmt):
    found = [f for f in lint_source(_round_trip(stmt)) if f.code == "TRC107"]
    assert len(found) == 1 and found[0].fix is not None and found[0].fix.safe


# --- a plain tensor handed to a function: its class may change in place -----------------------

def test_a_tensor_handed_to_a_function_may_come_back_a_subclass():
    torch = pytest.importorskip("torch")

    class Marked(torch.Tensor):
        pass

    def mark(t):  # in another module, say
        t.__class__ = Marked

    x = torch.zeros(3)
    mark(x)
    assert type(torch.tensor(x)) is torch.Tensor and type(x.detach().clone()) is Marked


@pytest.mark.parametrize("call", ["mark(x)", "mark(t=x)", "obj.mark(x)", "mark([x])", "mark(*[x])"])
def test_after_a_call_that_takes_the_tensor_no_safe_fix(call):
    src = f"""
        import torch
        from helpers import mark, obj
        def f():
            x = torch.zeros(3)
            {call}
            return torch.tensor(x), x.clone().detach()
        """
    assert safety_all(src) == {"TRC101": "unsafe", "TRC103": "unsafe"}


@pytest.mark.parametrize("call", ["n = len(x)", "print(x)", "y = torch.cat([x, x])", "y = torch.ones(3).add(x)",
                                  "y = torch.tensor(x)"])
def test_torch_and_reading_builtins_keep_the_safe_fix(call):
    src = f"""
        import torch
        def f():
            x = torch.zeros(3)
            {call}
            return x.clone().detach()
        """
    assert safety(src, "TRC103") == "safe"


def safety_all(src: str) -> dict:
    return {f.code: ("safe" if f.fix is not None and f.fix.safe else "unsafe")
            for f in lint_source(textwrap.dedent(src).lstrip("\n"))}
