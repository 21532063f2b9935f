"""A call of a module function that returns a tensor on its main path only (``levenshtein``
of vocalpy/vak: ints on its early returns, ``torch.tensor(d[-1])`` at its end): a tensor on
some paths, reported by TRC101/102/105/106/108 without a fix (:mod:`.analysis.somereturns`).
Each reported form is run with torch: on the tensor path it copy-constructs (warns); each
quiet form is one the analysis cannot tell the tensor path runs for (a flag, a type test, a
literal mode at the call) or where the last return is not a tensor."""
import textwrap
import warnings

import numpy as np
import pytest
import torch

from flake8_torchcopy import lint_source

HEAD = "import copy\nimport numpy as np\nimport torch\n\n"

DIST = """
def dist(a):
    if len(a) == 0:
        return 0
    return torch.zeros(len(a)).sum()
"""

OPT = """
def opt(a):
    if len(a) == 0:
        return None
    return torch.ones(len(a))
"""

LEV = """
def lev(source, target):
    if source == target:
        return 0
    source = np.array(tuple(source))
    n = source.size
    if n == 0:
        return n
    d = np.arange(n + 1)
    return torch.tensor(d[-1], dtype=torch.int32)
"""


def findings(src):
    return [f for f in lint_source(HEAD + textwrap.dedent(src)) if f.code.startswith("TRC")]


def run(src, call, *args):
    """Run the module, call ``call(*args)``: did it warn "To copy construct from a tensor"?"""
    ns: dict = {}
    exec(compile(HEAD + textwrap.dedent(src), "<some>", "exec"), ns)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ns[call](*args)
    return any("copy construct from a tensor" in str(w.message) for w in caught)


# (source, code, "and not on others" in the message, the arguments of use() on the tensor path)
REPORTED = [
    (DIST + "def use(xs):\n    return torch.tensor(dist(xs))\n", "TRC101", True, [1, 2]),
    (DIST + "def use(xs):\n    return torch.tensor(dist(xs) / len(xs), dtype=torch.float32)\n", "TRC101", True,
     [1, 2]),
    (DIST + "def use(xs):\n    r = dist(xs) * 2.0\n    return torch.tensor(r)\n", "TRC101", True, [1, 2]),
    (LEV + "def use(a):\n    b = a[::-1]\n    return torch.tensor(lev(a, b) / len(a))\n", "TRC101", True, "abcd"),
    # a None path: a tensor on some paths, not "not on others" (a test may rule None out)
    (OPT + "def use(xs):\n    return torch.tensor(opt(xs))\n", "TRC101", False, [1, 2]),
    (OPT + "def use(xs):\n    o = opt(xs)\n    if o is not None:\n        return torch.tensor(o)\n", "TRC101", False,
     [1, 2]),
    (DIST + "def use(xs):\n    return xs.new_tensor(dist(xs))\n", "TRC102", True, torch.ones(2)),
]


@pytest.mark.parametrize("src,code,others,arg", REPORTED)
def test_reported_without_fix_and_warns_on_the_tensor_path(src, code, others, arg):
    (f,) = findings(src)
    assert f.code == code and f.fix is None and "is a tensor on some paths" in f.message
    assert ("(and not on others)" in f.message) == others
    assert run(src, "use", arg)


def test_the_other_rules_report_it_without_fix():
    src = DIST + ("def use(xs):\n    a = copy.deepcopy(dist(xs))\n    b = torch.Tensor(dist(xs))\n"
                  "    c = torch.tensor([dist(xs), dist(xs)])\n    return a, b, c\n")
    got = {(f.code, f.fix is None) for f in findings(src)}
    assert got == {("TRC105", True), ("TRC106", True), ("TRC108", True)}
    ns: dict = {}
    exec(compile(HEAD + textwrap.dedent(src), "<some>", "exec"), ns)
    t = ns["dist"]([1, 2])
    assert isinstance(t, torch.Tensor) and torch.Tensor(t).data_ptr() == t.data_ptr()  # aliased
    assert ns["dist"]([]) == 0


QUIET = [
    # a flag with a default: the call may never take the tensor path
    ("def f(a, raw=True):\n    if raw:\n        return a\n    return torch.ones(len(a))\n"
     "def use(xs):\n    return torch.tensor(f(xs))\n", [1.0]),
    # a type test picks the path
    ("def f(a):\n    if isinstance(a, list):\n        return a\n    return torch.ones(3)\n"
     "def use(xs):\n    return torch.tensor(f(xs))\n", [1.0]),
    ("def f(a):\n    if a is None:\n        return 0\n    return torch.ones(3)\n"
     "def use(xs):\n    return torch.tensor(f(xs))\n", None),
    # a literal mode at the call (a string too: the vak form quiet with lev(a, "abed"))
    (LEV + "def use(a):\n    return torch.tensor(lev(a, 'abed'))\n", None),
    ("def f(a, raw):\n    if len(a) > 3 and raw:\n        return 0\n    return torch.ones(3)\n"
     "def use(xs):\n    return torch.tensor(f(xs, True))\n", [1, 2, 3, 4]),
    ("def f(a, w):\n    if w == 1:\n        return a\n    return torch.ones(3) * w\n"
     "def use(xs):\n    return torch.tensor(f(xs, 1))\n", [1.0]),
    # the last return is not the tensor
    ("def f(a):\n    if len(a) == 0:\n        return torch.zeros(0)\n    return len(a)\n"
     "def use(xs):\n    return torch.tensor(f(xs))\n", [1]),
    # a generator, a decorated function, one bound twice, *args
    ("def f(a):\n    if len(a) == 0:\n        return 0\n    yield 1\n    return torch.ones(1)\n"
     "def use(xs):\n    return torch.tensor(list(f(xs)))\n", [1]),
    ("import functools\n@functools.lru_cache\ndef f(a):\n    if a == 0:\n        return 0\n    return torch.ones(1)\n"
     "def use(n):\n    return torch.tensor(f(n))\n", None),
    ("def f(a):\n    if len(a) == 0:\n        return 0\n    return torch.ones(1)\nf = len\n"
     "def use(xs):\n    return torch.tensor(f(xs))\n", [1]),
    ("def f(*a):\n    if len(a) == 0:\n        return 0\n    return torch.ones(1)\n"
     "def use(xs):\n    return torch.tensor(f())\n", [1]),
    # the tensor return cannot run
    ("def f(a):\n    if len(a) == 0:\n        return 0\n    raise ValueError(a)\n    return torch.ones(1)\n"
     "def use(xs):\n    return torch.tensor(f(xs))\n", []),
    ("def f(a):\n    if len(a) == 0:\n        return 0\n    else:\n        return 1\n    return torch.ones(1)\n"
     "def use(xs):\n    return torch.tensor(f(xs))\n", [1]),
    ("def f(a):\n    try:\n        return len(a)\n    except TypeError:\n        raise\n    return torch.ones(1)\n"
     "def use(xs):\n    return torch.tensor(f(xs))\n", [1]),
    # by a value that is not a number: a sequence or a string (tensor + str raises)
    (DIST + "def use(xs, s):\n    return torch.tensor(dist(xs) + s)\n", None),
    # a method: not summarised
    ("class A:\n    def f(self, a):\n        if len(a) == 0:\n            return 0\n        return torch.ones(1)\n"
     "    def use(self, xs):\n        return torch.tensor(self.f(xs))\n", None),
]


@pytest.mark.parametrize("src,arg", QUIET)
def test_quiet(src, arg):
    assert findings(src) == []
    if arg is not None:  # as the call is written, the tensor path never runs
        assert not run(src, "use", arg)


def test_torch_facts():
    """What the forms rest on: a tensor by a Python number stays a tensor; numpy's ``size``,
    ``ndim``, ``itemsize``, ``nbytes`` are Python ints (arrays and scalars); ``tensor + str``
    raises."""
    t = torch.ones(())
    for r in (t + 2, 2 - t, t * 2.0, t / 3, 3 // (t + 1), t % 2, t ** 2):
        assert isinstance(r, torch.Tensor)
    for v in (np.array([1, 2]), np.float64(1.0), np.zeros((2, 3), dtype=np.int8)):
        assert all(type(getattr(v, a)) is int for a in ("size", "ndim", "itemsize", "nbytes"))
    with pytest.raises(TypeError):
        t + "a"  # noqa: B018
