"""Review 15: ``analysis/somereturns.py`` took a call of a module function that returns a
tensor at its end and something else on early exits for "a tensor on some paths", and
TRC101/102/105/106/108 reported it.  The tensor path may never run as the call is written:

* the path is picked by a value the call passes in a form the literal check does not see: a
  name bound to a constant (``k = 1; dist(xs, k)``, a module ``ONE = 1``, ``k := 1``), a display
  (``dist([])``, ``xs = []; dist(xs)``), or a parameter the function compares as a number
  (``if k > 0``, ``if len(a) > k``, through ``m = mode``) however the caller computes it;
* a name bound otherwise than by ``n = <no literal>`` (``for xs in ([], ())``, ``a, b = "x", "x"``,
  ``with nullcontext([]) as xs``) or changed in place (``xs.clear()``, ``xs[:] = []``, ``del xs[:]``);
* the function tests a module global (``if K > 0`` with ``K = 1``);
* the function leaves before its last return, unseen: ``sys.exit``/``exit``/``os._exit``, a
  helper that always raises (``-> NoReturn`` or a body of one ``raise``), ``while 1 > 0``, a
  ``for`` over ``range(1)`` whose body returns.

Each reported form is run: the tensor path never runs (no copy-construct warning, the call
never yields a tensor).  The vak real site (``levenshtein(y_pred, y_true)``) stays reported.
"""
import textwrap
import warnings

import pytest
import torch

from flake8_torchcopy import lint_source

HEAD = "import os\nimport sys\nimport typing\nimport torch\n\n"

DIST_K = """
def dist(a, k):
    if k > 0:
        return 0
    return torch.zeros(len(a)).sum()
"""
DIST = """
def dist(a):
    if len(a) == 0:
        return 0
    return torch.zeros(len(a)).sum()
"""
LEV = """
def lev(source, target):
    if source == target:
        return 0
    n = len(source)
    return torch.tensor(float(n))
"""


def _leaving(stmt):
    return ("def dist(a):\n    if len(a) == 0:\n        return 0\n    " + stmt
            + "\n    return torch.zeros(len(a)).sum()\n")


WRONG = [
    # a value the call passes, bound to a constant or a display
    (DIST_K + "def use(xs):\n    k = 1\n    return torch.tensor(dist(xs, k))\n", ([1.0],)),
    ("ONE = 1\n" + DIST_K + "def use(xs):\n    return torch.tensor(dist(xs, ONE))\n", ([1.0],)),
    (DIST_K + "def use(xs):\n    return torch.tensor(dist(xs, k := 1))\n", ([1.0],)),
    (DIST_K + "def one():\n    return 1\ndef use(xs):\n    return torch.tensor(dist(xs, one()))\n", ([1.0],)),
    ("def dist(a, mode):\n    m = mode\n    if m == 'fast':\n        return 0\n    return torch.zeros(len(a)).sum()\n"
     "def use(xs):\n    mode = 'fast'\n    return torch.tensor(dist(xs, mode))\n", ([1.0],)),
    ("def dist(a, k):\n    if len(a) > k:\n        return 0\n    return torch.zeros(len(a)).sum()\n"
     "NEG = -1\ndef use(xs):\n    return torch.tensor(dist(xs, NEG))\n", ([1.0],)),
    (DIST + "def use():\n    return torch.tensor(dist([]))\n", ()),
    (DIST + "def use():\n    return torch.tensor(dist(()))\n", ()),
    (DIST + "def use():\n    xs = []\n    return torch.tensor(dist(xs))\n", ()),
    (DIST + "EMPTY = ()\ndef use():\n    return torch.tensor(dist(EMPTY))\n", ()),
    (LEV + "def use():\n    a = 'abc'\n    b = 'abc'\n    return torch.Tensor(lev(a, b))\n", ()),
    # a name bound otherwise than plainly, or changed in place: empty or equal on every run
    (DIST + "def use():\n    for xs in ([], ()):\n        torch.tensor(dist(xs))\n", ()),
    (DIST + "for xs in ([], ()):\n    torch.tensor(dist(xs))\ndef use():\n    pass\n", ()),
    (DIST + "def use():\n    return [torch.tensor(dist(xs)) for xs in ([], [])]\n", ()),
    (LEV + "def use():\n    a, b = 'abc', 'abc'\n    return torch.Tensor(lev(a, b))\n", ()),
    (DIST + "def use(data):\n    xs = list(data)\n    xs.clear()\n    return torch.tensor(dist(xs))\n", ([1.0],)),
    (DIST + "def use(data):\n    xs = list(data)\n    xs[:] = []\n    return torch.tensor(dist(xs))\n", ([1.0],)),
    (DIST + "def use(data):\n    xs = list(data)\n    del xs[:]\n    return torch.tensor(dist(xs))\n", ([1.0],)),
    (DIST + "import contextlib\ndef use():\n    with contextlib.nullcontext([]) as xs:\n"
     "        return torch.tensor(dist(xs))\n", ()),
    (DIST + "def outer():\n    xs = []\n    def inner():\n        return torch.tensor(dist(xs))\n    return inner\n"
     "def use():\n    return outer()()\n", ()),  # a closure's empty list
    # a setting of a parameter a class or a dict(...) fixes
    ("class C:\n    mode = 'fast'\ndef dist(a, cfg):\n    if cfg.mode == 'fast':\n        return 0\n"
     "    return torch.zeros(len(a)).sum()\ndef use(xs):\n    cfg = C()\n    return torch.tensor(dist(xs, cfg))\n",
     ([1.0],)),
    ("def dist(a, cfg):\n    if cfg['mode'] == 'fast':\n        return 0\n    return torch.zeros(len(a)).sum()\n"
     "def use(xs):\n    cfg = dict(mode='fast')\n    return torch.tensor(dist(xs, cfg))\n", ([1.0],)),
    ("def dist(a, cfg):\n    if cfg['mode'] == 'fast':\n        return 0\n    return torch.zeros(len(a)).sum()\n"
     "def use(xs):\n    cfg = {}\n    cfg['mode'] = 'fast'\n    return torch.tensor(dist(xs, cfg))\n", ([1.0],)),
    # a module global picks the path
    ("K = 1\ndef dist(a):\n    if K > 0:\n        return 0\n    return torch.zeros(len(a)).sum()\n"
     "def use(xs):\n    return torch.tensor(dist(xs))\n", ([1.0],)),
    # the function leaves before its last return
    (_leaving("sys.exit(1)") + "def use(xs):\n    return torch.tensor(dist(xs))\n", ([1.0],)),
    (_leaving("exit(1)") + "def use(xs):\n    return torch.tensor(dist(xs))\n", ([1.0],)),
    (_leaving("while 1 > 0:\n        raise StopIteration") + "def use(xs):\n    return torch.tensor(dist(xs))\n",
     ([1.0],)),
    (_leaving("for _ in range(1):\n        return 1") + "def use(xs):\n    return torch.tensor(dist(xs))\n",
     ([1.0],)),
    ("def fail(m):\n    raise ValueError(m)\n" + _leaving("fail('x')")
     + "def use(xs):\n    return torch.tensor(dist(xs))\n", ([1.0],)),
    ("def fail(m) -> typing.NoReturn:\n    raise ValueError(m)\n" + _leaving("fail('x')")
     + "def use(xs):\n    return torch.tensor(dist(xs))\n", ([1.0],)),
]

NOT_RUN = [_leaving("os._exit(0)") + "def use(xs):\n    return torch.tensor(dist(xs))\n"]


def _findings(src):
    return [f for f in lint_source(HEAD + textwrap.dedent(src)) if f.code.startswith("TRC")]


@pytest.mark.parametrize("src,args", WRONG)
def test_tensor_path_never_runs_and_quiet(src, args):
    ns: dict = {}
    exec(compile(HEAD + src, "<r15>", "exec"), ns)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            ns["use"](*args)
        except (SystemExit, ValueError, StopIteration):  # left before the tensor return
            pass
    assert not any("copy construct" in str(w.message) for w in caught)
    assert _findings(src) == []


@pytest.mark.parametrize("src", NOT_RUN)
def test_os_exit_quiet(src):
    assert _findings(src) == []


def test_data_tests_stay_reported():
    """What the narrowing keeps: parameters tested as data (``len(a) == 0``, two parameters
    compared), passed as the caller's parameters or locals computed from them."""
    for src in (DIST + "def use(xs):\n    return torch.tensor(dist(xs))\n",
                LEV + "def use(a):\n    b = a[::-1]\n    return torch.Tensor(lev(a, b))\n"):
        (f,) = _findings(src)
        assert "is a tensor on some paths" in f.message and f.fix is None


RETAIN = """
import torch


def h(n, d):
    w = torch.zeros(n, requires_grad=True).to(d)
    w.retain_grad()
    return w


def k(d):
    w = torch.ones(3).requires_grad_().to(d)
    w.retain_grad()
    return w
"""


def test_trc111_quiet_where_retain_grad_fills_the_grad():
    """TRC111 said the moved copy's ``.grad`` stays None after ``backward()``: not where the
    module calls ``retain_grad()``, which fills the ``.grad`` of a tensor that is no leaf."""
    assert [f for f in lint_source(RETAIN) if f.code == "TRC111"] == []
    ns: dict = {}
    exec(RETAIN, ns)
    for w in (ns["h"](3, torch.float64), ns["k"](torch.float64)):  # a copy: no leaf
        assert not w.is_leaf
        w.sum().backward()
        assert w.grad is not None


@pytest.mark.parametrize("call", ["lev(a)", "lev(a, b, a)", "lev(a, u=b)", "lev(a, s=b)"])
def test_a_call_that_cannot_bind_raises_and_is_quiet(call):
    """A call that passes too few, too many or unknown arguments raises TypeError: the
    tensor path never runs."""
    src = LEV + f"def use(a, b):\n    return torch.tensor({call})\n"
    assert _findings(src) == []
    ns: dict = {}
    exec(compile(HEAD + src, "<r15>", "exec"), ns)
    with pytest.raises(TypeError):
        ns["use"]("ab", "cd")


def test_a_call_that_binds_by_keyword_stays_reported():
    src = LEV + "def use(a, b):\n    return torch.tensor(lev(a, target=b))\n"
    (f,) = _findings(src)
    assert "is a tensor on some paths" in f.message
