"""Review 16: three ways a default (safe) fix changed what a program does.

* An error Python swallows without a ``try``: what ``__del__`` raises is printed and ignored,
  and so is what a function run by ``weakref.finalize``, ``atexit.register`` or a thread
  (``Thread(target=f)``, a ``Thread`` subclass's ``run``) raises.  TRC201's ``.view()`` ->
  ``.reshape()`` then lets the rest of the finalizer (or the thread) run, where the original
  stopped at the view (``analysis/caught.py``).
* A module that rebinds ``torch`` through a namespace the dynamic-store scan missed: a
  module-level ``locals()`` (there it is ``globals()``: ``locals()["torch"] = w``,
  ``locals().update(torch=w)``, ``g = locals(); g["torch"] = w``) or a frame's ``f_globals``
  (``sys._getframe().f_globals``, ``inspect.currentframe()``): ``torch.tensor(t)`` then calls
  the wrapper, ``t.detach().clone()`` does not (``analysis/torchstores.py``).
* A module that replaces a torch function (``torch.ones = f``, ``setattr(torch, "ones", f)``,
  ``F.relu = f`` through ``import torch.nn.functional as F``, ``torch.__dict__[...]``,
  ``mock.patch("torch.ones")``, ``patch.object(torch, ...)``): the factory that proved ``t`` a
  plain tensor may return a subclass, whose ``detach().clone()`` keeps its class where
  ``torch.tensor(t)`` made it plain (``analysis/modulescan.py``, ``may_retype``).

Each shown with torch: the old safe fix (now the unsafe one) does something else.
"""
import os
import textwrap
import warnings

import pytest

from flake8_torchcopy import fix_source, lint_source


def _forked(src: str, call: str) -> str:
    """``repr`` of ``call`` after running ``src``, in a child process: the snippets patch torch."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(r)
        try:
            import sys
            sys.stderr = open(os.devnull, "w")  # "Exception ignored in ..."
            ns: dict = {}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(src, "<review16>", "exec"), ns)
                out = repr(eval(call, ns))
        except BaseException as e:  # noqa: BLE001 - reported to the parent
            out = "raised " + type(e).__name__
        os.write(w, out.encode())
        os._exit(0)
    os.close(w)
    data = b""
    while True:
        chunk = os.read(r, 1 << 16)
        if not chunk:
            break
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    return data.decode()


def _one(src: str, code: str):
    (f,) = [f for f in lint_source(src) if f.code == code]
    return f


VIEW = "torch.ones(2, 3).t().view(6)"

SWALLOWED = [
    # a finalizer: Python prints what it raises and goes on
    f"""
import gc
import torch
log = []
class Holder:
    def __del__(self):
        y = {VIEW}
        log.append("rest of __del__")
def use():
    Holder()
    gc.collect()
    return log
""",
    # a helper the finalizer calls
    f"""
import gc
import torch
log = []
def merge():
    return {VIEW}
class Holder:
    def __del__(self):
        merge()
        log.append("rest of __del__")
def use():
    Holder()
    gc.collect()
    return log
""",
    f"""
import weakref
import torch
log = []
class Obj:
    pass
def cleanup():
    y = {VIEW}
    log.append("rest of cleanup")
def use():
    o = Obj()
    weakref.finalize(o, cleanup)
    del o
    return log
""",
    f"""
import threading
import torch
log = []
def work():
    y = {VIEW}
    log.append("rest of work")
def use():
    th = threading.Thread(target=work)
    th.start()
    th.join()
    return log
""",
    f"""
import threading
import torch
log = []
class Worker(threading.Thread):
    def run(self):
        y = {VIEW}
        log.append("rest of run")
def use():
    th = Worker()
    th.start()
    th.join()
    return log
""",
    f"""
from threading import Thread
import torch
log = []
def work():
    y = {VIEW}
    log.append("rest of work")
def use():
    th = Thread(target=work)
    th.start()
    th.join()
    return log
""",
]


@pytest.mark.parametrize("src", SWALLOWED)
def test_swallowed_view_error_fix_unsafe(src):
    src = textwrap.dedent(src).lstrip("\n")
    f = _one(src, "TRC201")
    assert f.fix is not None and not f.fix.safe
    fixed = fix_source(src, unsafe=True)
    assert ".reshape(6)" in fixed
    assert _forked(src, "use()") == "[]"  # the view raised, swallowed: the rest never ran
    assert _forked(fixed, "use()") != "[]"  # the old safe fix runs it


def test_atexit_function_fix_unsafe():
    src = f"import atexit\nimport torch\ndef bye():\n    y = {VIEW}\n    print('bye')\natexit.register(bye)\n"
    assert not _one(src, "TRC201").fix.safe


SUB = "class Sub(torch.Tensor):\n    pass\n"
USE = "def use():\n    t = torch.ones(3)\n    return type(torch.tensor(t)).__name__\n"
REPLACED = [
    "import torch\n" + SUB + "_ones = torch.ones\ntorch.ones = lambda *a: _ones(*a).as_subclass(Sub)\n" + USE,
    "import torch as th\nimport torch\n" + SUB + "_ones = th.ones\nth.ones = lambda *a: _ones(*a).as_subclass(Sub)\n"
    + USE,
    "import torch\n" + SUB + "_ones = torch.ones\nsetattr(torch, 'ones', lambda *a: _ones(*a).as_subclass(Sub))\n"
    + USE,
    "import torch\n" + SUB + "_ones = torch.ones\ntorch.__dict__['ones'] = lambda *a: _ones(*a).as_subclass(Sub)\n"
    + USE,
    "import torch\nfrom unittest import mock\n" + SUB + "_ones = torch.ones\n"
    "mock.patch('torch.ones', lambda *a: _ones(*a).as_subclass(Sub)).start()\n" + USE,
    "import torch\nfrom unittest import mock\n" + SUB + "_ones = torch.ones\n"
    "mock.patch.object(torch, 'ones', lambda *a: _ones(*a).as_subclass(Sub)).start()\n" + USE,
    "import torch\nimport torch.nn.functional as F\n" + SUB + "_relu = F.relu\n"
    "F.relu = lambda x: _relu(x).as_subclass(Sub)\n"
    "def use():\n    t = F.relu(torch.ones(3))\n    return type(torch.tensor(t)).__name__\n",
    "import torch\nfrom torch.nn import functional\n" + SUB + "_relu = functional.relu\n"
    "functional.relu = lambda x: _relu(x).as_subclass(Sub)\n"
    "def use():\n    t = functional.relu(torch.ones(3))\n    return type(torch.tensor(t)).__name__\n",
]


@pytest.mark.parametrize("src", REPLACED)
def test_replaced_torch_function_fix_unsafe(src):
    f = _one(src, "TRC101")
    assert f.fix is not None and not f.fix.safe
    fixed = fix_source(src, unsafe=True)
    assert "t.detach().clone()" in fixed
    assert _forked(src, "use()") == "'Tensor'"
    assert _forked(fixed, "use()") == "'Sub'"  # the old safe fix keeps the subclass


def test_plain_modules_keep_safe_fixes():
    """Settings stores, calls, comparisons and attributes of other objects replace nothing."""
    for head in ("torch.backends.cudnn.benchmark = True\n", "torch.manual_seed(0)\n",
                 "ok = torch.ones == 1\n", "from torch import nn\nlin = nn.Linear(2, 2)\nlin.bias = None\n",
                 "from unittest import mock\np = mock.patch('torch.cuda.is_available')\n"):
        src = "import torch\n" + head + USE
        assert _one(src, "TRC101").fix.safe, head
    src = f"import torch\ndef f():\n    return {VIEW}\n"
    assert _one(src, "TRC201").fix.safe


WRAP = """
import torch
_torch = torch
class Wrap:
    def __getattr__(self, name):
        return getattr(_torch, name)
    def tensor(self, data):
        return "wrapped"
"""
USE_WRAPPED = "def use():\n    t = torch.ones(3)\n    return torch.tensor(t)\n"
REBOUND = [
    "locals()['torch'] = Wrap()\n",
    "locals().update(torch=Wrap())\n",
    "g = locals()\ng['torch'] = Wrap()\n",
    "if True:\n    locals()['torch'] = Wrap()\n",
    "import sys\nsys._getframe().f_globals['torch'] = Wrap()\n",
    "import inspect\ninspect.currentframe().f_locals['torch'] = Wrap()\n",
]


@pytest.mark.parametrize("stmt", REBOUND)
def test_torch_rebound_through_module_namespace_fix_unsafe(stmt):
    src = WRAP + stmt + USE_WRAPPED
    f = _one(src, "TRC101")
    assert f.fix is not None and not f.fix.safe
    fixed = fix_source(src, unsafe=True)
    assert _forked(src, "use()") == "'wrapped'"
    assert _forked(fixed, "use()").startswith("tensor(")  # the old safe fix skips the wrapper


def test_locals_in_a_function_keeps_safe_fix():
    """A function's ``locals()`` is a snapshot: writing it binds nothing."""
    src = "import torch\ndef g(a):\n    return dict(**locals())\n" + USE_WRAPPED
    assert _one(src, "TRC101").fix.safe
