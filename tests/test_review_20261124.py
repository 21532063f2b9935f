"""Hostile review of 2026-11-24: inputs where the recent analysis claimed too much.

Each test is a break found by the review: a report on a value that may not be a tensor
(precision), or a safe fix that changes behaviour.  Where the program's behaviour is the
point, it is run with torch to show what the original does.
"""
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.engine import Options


def write(root: Path, files: dict) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip("\n"))


def fresh() -> None:
    from flake8_torchcopy.analysis import project, projectcallers

    project.forget()
    projectcallers.forget()


def codes(path: Path, **options):
    fresh()
    return [(f.code, f.line, bool(f.fix and f.fix.safe))
            for f in lint_source(path.read_text(), str(path), options=Options(**options))]


def lint(src: str, **options):
    return [(f.code, f.line, bool(f.fix and f.fix.safe))
            for f in lint_source(textwrap.dedent(src).lstrip("\n"), options=Options(**options))]


def run_py(root: Path, code: str) -> str:
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=root,
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


# ------------------------------------------------------------ projectcallers
HELPER = """
import torch


def _f(x):
    return torch.tensor(x)


def run():
    return _f(torch.zeros(3))
"""


def test_submodule_name_rebound_by_package_init(tmp_path):
    """``from . import m`` in ``pkg/x.py`` reads the attribute ``m`` of ``pkg``, which
    ``pkg/__init__.py`` binds to ``pkg.sub.m`` (the helper's module), not ``pkg/m.py``:
    ``m._f([1.0, 2.0])`` is a call of the helper with a list."""
    write(tmp_path, {
        "pkg/__init__.py": "from .sub import m\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/m.py": HELPER,
        "pkg/m.py": "def other():\n    return 1\n",
        "pkg/x.py": "from . import m\n\n\ndef boom():\n    return m._f([1.0, 2.0])\n",
    })
    assert run_py(tmp_path, "import pkg.x; print(type(pkg.x.boom()).__name__)") == "Tensor"
    assert codes(tmp_path / "pkg" / "sub" / "m.py") == []
    # control: with no rebinding __init__, the list goes to pkg/m.py (no _f there): reported
    (tmp_path / "pkg" / "__init__.py").write_text("")
    assert codes(tmp_path / "pkg" / "sub" / "m.py") == [("TRC101", 5, False)]


# ------------------------------------------------------------ inherited
INHERITED = """
import torch


class Base:
    def __init__(self, w):
        self.w = w


class Child(Base):
    def __init__(self):
        super().__init__(torch.zeros(3))

    def reset(self):
        {reset}

    def get(self):
        return torch.tensor(self.w)
"""


@pytest.mark.parametrize("reset", [
    "self.__class__.__bases__[0].__init__(self, [1.0, 2.0])",
    "type(self).__mro__[1].__init__(self, [1.0, 2.0])",
])
def test_base_init_reached_through_an_expression(reset, tmp_path):
    """``Base.__init__`` reached through the class's bases or MRO stores a list in ``w``."""
    src = INHERITED.format(reset=reset)
    (tmp_path / "m.py").write_text(textwrap.dedent(src))
    assert run_py(tmp_path, "import m; c = m.Child(); c.reset(); print(c.w)") == "[1.0, 2.0]"
    assert lint(src) == []


def test_base_init_control():
    assert lint(INHERITED.format(reset="pass")) == [("TRC101", 17, False)]


# ------------------------------------------------------------ class bodies
CLASS_SCOPE = """
import torch

a = [1.0]


class C:
    a = torch.zeros(())
    y = torch.tensor([a for _ in range(2)])
    z = torch.tensor([[a] for _ in range(2)])
    f = lambda: torch.tensor(a)  # noqa: E731
    rows = torch.tensor([r for r in torch.zeros(2, 1) + a])
"""


def test_class_body_names_unseen_in_comprehensions_and_lambdas(tmp_path):
    """A comprehension or lambda in a class body does not see the class's names: ``a`` there
    is the module's list, not the class's tensor.  The first iterable is evaluated in the
    class body (line 11: ``a`` is the tensor there, and rows of a tensor are tensors)."""
    (tmp_path / "m.py").write_text(textwrap.dedent(CLASS_SCOPE))
    assert run_py(tmp_path, "import m; print(m.C.y.tolist(), m.C.z.tolist(), m.C.f().tolist())") \
        == "[[1.0], [1.0]] [[[1.0]], [[1.0]]] [1.0]"
    assert lint(CLASS_SCOPE) == [("TRC108", 11, False)]


# ------------------------------------------------------------ TRC112
def test_torch_tensor_of_a_tensor_is_not_built_on_the_host():
    """``torch.tensor(t)`` of a tensor copies it on t's device (meta stays meta), so
    ``torch.tensor(t).cuda()`` of a CUDA ``t`` builds nothing on the host."""
    import torch

    with pytest.warns(UserWarning):
        assert torch.tensor(torch.zeros(3, device="meta")).device.type == "meta"
    src = """
    import torch


    def g():
        t = torch.zeros(3, device="cuda")
        return torch.tensor(t).cuda()


    def h(x, flag):
        if flag:
            x = torch.zeros(3, device="cuda")
        return torch.tensor(x).to("cuda")


    def control(x):
        return torch.tensor([1, 2]).to("cuda")
    """
    assert [c for c in lint(src) if c[0] == "TRC112"] == [("TRC112", 16, True)]


# ------------------------------------------------------------ loops
LOOP_DTYPE = """
import numpy as np
import torch


def f():
    a = np.zeros(4, dtype=np.float32)
    b = np.zeros(4, dtype=np.float32)
    c = np.zeros(4, dtype=np.float32)
    out = []
    for i in range(3):
        out.append(str(torch.tensor([b, c]).dtype))
        b = a
        a = np.zeros(4, dtype=np.int64)
    return out
"""


def test_loop_head_moves_when_an_arrays_dtype_does(tmp_path):
    """``b`` is an int64 array on the third iteration only: ``np.array([b, c])`` is float64
    there, torch's own conversion float32; the fix must not be safe."""
    (tmp_path / "m.py").write_text(textwrap.dedent(LOOP_DTYPE))
    (tmp_path / "fixed.py").write_text(textwrap.dedent(LOOP_DTYPE).replace(
        "torch.tensor([b, c])", "torch.tensor(np.array([b, c]))"))
    run = "import warnings; warnings.simplefilter('ignore'); import m, fixed; print(m.f(), fixed.f())"
    assert run_py(tmp_path, run) == ("['torch.float32', 'torch.float32', 'torch.float32'] "
                                     "['torch.float32', 'torch.float32', 'torch.float64']")
    assert lint(LOOP_DTYPE) == [("TRC109", 11, False)]


HOST_MADE = """
import torch


def make():
    return torch.zeros(3)


def f1():
    t = make()
    return torch.zeros(3).to(t)


def f2():
    t0 = torch.randn(3)
    t1 = t0
    t2 = t1
    t3 = t2
    t4 = t3
    t5 = t4
    t6 = t5
    t7 = t6
    t8 = t7
    return torch.zeros(3).to(t8)


def f3():
    y = torch.randn(3)
    t = torch.zeros_like(input=y)
    return torch.zeros(3).to(t)


def control():
    t = torch.randn(3, device="cuda")
    return torch.ones(3).to(t)
"""


def test_to_a_tensor_the_module_shows_built_on_the_host(tmp_path):
    """``x.to(t)`` of a float32 tensor ``t`` on the host is ``x`` itself: no move.  ``t``
    from a function returning a factory, through a chain of names longer than the search,
    or from a keyword argument."""
    (tmp_path / "m.py").write_text(textwrap.dedent(HOST_MADE))
    run = "import m; x = m.torch.zeros(3); print(all(x.to(m.make()) is x for _ in [0]))"
    assert run_py(tmp_path, run) == "True"
    # the control: t built on a device, a plain tensor: device=t.device, dtype=t.dtype (safe
    # after ones only: zeros and eye disagree with .to() for bits8 and uint16+ tensors)
    assert lint(HOST_MADE) == [("TRC112", 34, True)]


def test_to_a_parameter_every_call_passes_a_host_tensor():
    src = """
    import torch


    def _f(t):
        return torch.zeros(3).to(t)


    def g():
        return _f(torch.randn(3))
    """
    assert [c for c in lint(src) if c[0] == "TRC112"] == []
    # hostmade follows the parameter to every call's argument: one moved away keeps the report
    moved = src.replace("_f(torch.randn(3))", "_f(torch.randn(3).cuda())")
    # (and the factory moved by .cuda() at the call is a report of its own)
    assert [c[0] for c in lint(moved)] == ["TRC112", "TRC112"]
    # the caller's argument of the same name is another name: followed in its own scope
    named = src.replace("return _f(torch.randn(3))", "t = torch.randn(3)\n        return _f(t)")
    assert [c for c in lint(named) if c[0] == "TRC112"] == []


def test_submodule_answered_by_a_module_getattr(tmp_path):
    """``from pkg import n`` asks ``pkg.__getattr__("n")`` before importing ``pkg/n.py``:
    here it answers with the helper's module."""
    write(tmp_path, {
        "pkg/__init__.py": "def __getattr__(name):\n    from .sub import m\n    return m\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/m.py": HELPER,
        "pkg/n.py": "def other():\n    return 1\n",
        "pkg/x.py": "from pkg import n\n\n\ndef boom():\n    return n._f([1.0, 2.0])\n",
    })
    assert run_py(tmp_path, "import pkg.x; print(pkg.x.boom().tolist())") == "[1.0, 2.0]"
    assert codes(tmp_path / "pkg" / "sub" / "m.py") == []


# ------------------------------------------------------------ subclasses
RETYPED = """
import torch


class MyT(torch.Tensor):
    pass


def f():
    t = torch.zeros(3)
    t.__class__ = MyT
    return torch.tensor(t)
"""


def test_a_tensor_retyped_by_a_class_store_gets_no_safe_fix(tmp_path):
    """``t.__class__ = MyT`` makes ``t`` a subclass: ``t.detach().clone()`` keeps it,
    ``torch.tensor(t)`` makes a plain tensor."""
    (tmp_path / "m.py").write_text(textwrap.dedent(RETYPED))
    run = ("import warnings; warnings.simplefilter('ignore'); import m\n"
           "t = m.f(); u = m.torch.zeros(3); u.__class__ = m.MyT\n"
           "print(type(t).__name__, type(u.detach().clone()).__name__)")
    assert run_py(tmp_path, run) == "Tensor MyT"
    assert lint(RETYPED) == [("TRC101", 11, False)]


@pytest.mark.parametrize("imp, name", [
    ("from . import m as itself", "itself"),
    ("from . import m as mycls", "mycls"),
    ("import pkg.m as self", "self"),
])
def test_module_alias_ending_like_self(imp, name, tmp_path):
    """The index skipped ``._f`` after any text ending in ``self``/``cls``: ``itself._f``
    (an alias of the helper's module) was never read."""
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/m.py": HELPER,
        "pkg/x.py": f"{imp}\n\n\ndef boom():\n    return {name}._f([1.0, 2.0])\n",
    })
    assert run_py(tmp_path, "import pkg.x; print(pkg.x.boom().tolist())") == "[1.0, 2.0]"
    assert [c for c, _, _ in codes(tmp_path / "pkg" / "m.py")] == ["TRC101"]  # some paths: no fix
    assert codes(tmp_path / "pkg" / "m.py")[0][2] is False
    assert "some paths" in lint_source((tmp_path / "pkg" / "m.py").read_text(),
                                       str(tmp_path / "pkg" / "m.py"))[0].message


@pytest.mark.parametrize("attr", ["data", "T", "mT"])
def test_to_an_attribute_of_a_host_tensor(attr, tmp_path):
    """``t.data``, ``t.T``, ``t.mT`` of a host tensor are on the host: ``x.to(t.data)`` is
    ``x`` itself."""
    src = f"""
    import torch


    def f():
        t = torch.randn(3, 3)
        x = torch.zeros(3)
        return x.to(t.{attr}) is x, torch.zeros(3).to(t.{attr})
    """
    (tmp_path / "m.py").write_text(textwrap.dedent(src))
    assert run_py(tmp_path, "import m; print(m.f()[0])") == "True"
    assert [c for c in lint(src) if c[0] == "TRC112"] == []


PATCHED = """
import torch

_orig_clone = torch.Tensor.clone


def _clone(self, *a, **k):
    out = _orig_clone(self, *a, **k)
    out.tag = "cloned"
    return out


torch.Tensor.clone = _clone


def f():
    w = torch.randn(3, requires_grad=True)
    return w.clone().detach()
"""


def test_tensor_methods_replaced_by_the_module(tmp_path):
    """``torch.Tensor.clone = f``: ``w.clone().detach()`` drops the clone's ``.tag``,
    ``w.detach().clone()`` keeps it."""
    (tmp_path / "m.py").write_text(textwrap.dedent(PATCHED))
    run = "import m; w = m.torch.randn(3); print(hasattr(m.f(), 'tag'), hasattr(w.detach().clone(), 'tag'))"
    assert run_py(tmp_path, run) == "False True"
    assert lint(PATCHED) == [("TRC103", 17, False)]
