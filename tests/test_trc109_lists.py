"""TRC109 on lists the analysis must follow (literals, comprehensions, append loops) and on
look-alikes it must leave alone: a list that may hold anything but ndarrays, or that may be
filled where the analysis does not look, is never reported."""
import textwrap

import pytest

from flake8_torchcopy import fix_source, lint_source

HEAD = "import numpy as np\nimport torch\n"


def trc109(body):
    src = HEAD + textwrap.dedent(body)
    return [f for f in lint_source(src) if f.code == "TRC109"]


REPORTED = [
    # append in a loop, of arrays of several origins
    """
    def f(xs):
        out = []
        for x in xs:
            out.append(np.asarray(x, dtype=np.float32))
        return torch.tensor(out)
    """,
    """
    def f(batch):
        feats = []
        for t in batch:
            feats.append(t.detach().cpu().numpy())
        if not feats:
            return None
        return torch.as_tensor(feats)
    """,
    """
    def f(n):
        rows: list = []
        while len(rows) < n:
            rows.append(np.random.randn(8) * 0.5)
        return torch.Tensor(rows)
    """,
    """
    def f(xs):
        out = []
        for x in xs:
            if x is None:
                continue
            out.append(np.stack([np.asarray(x), np.asarray(x)]))
        return torch.tensor(out)
    """,
    # literal and comprehension
    "a = np.ones(3)\ny = torch.tensor([a, a + 1, a * 2.0])\n",
    "y = torch.tensor([np.zeros(4) for _ in range(3)])\n",
    "def f(ts):\n    return torch.tensor([t.detach().numpy() for t in ts])\n",
    "y = torch.tensor((np.zeros(2), np.ones(2)))\n",
    # module-level list filled at module level
    "acc = []\nfor i in range(3):\n    acc.append(np.zeros(3))\ny = torch.tensor(acc)\n",
    # a list re-bound to a fresh list of arrays
    "def f():\n    out = [1.0]\n    out = [np.zeros(2)]\n    return torch.tensor(out)\n",
]

QUIET = [
    # something else may be in the list
    "def f(t):\n    return torch.tensor([np.zeros(3), t])\n",
    "def f(c):\n    out = []\n    out.append(np.zeros(3))\n    if c:\n        out.append(torch.ones(3))\n    return torch.tensor(out)\n",
    "def f(c):\n    out = []\n    out.append(np.zeros(3))\n    if c:\n        out.append([1.0, 2.0, 3.0])\n    return torch.tensor(out)\n",
    "def f(xs):\n    out = []\n    for x in xs:\n        out.append(x)\n    return torch.tensor(out)\n",
    "def f(xs):\n    return torch.tensor([x.numpy() for x in xs])\n",  # x.numpy() of anything
    "def f(xs):\n    return torch.tensor([x.cpu().numpy() for x in xs])\n",  # .cpu() is nn.Module's too
    "def f(xs):\n    return torch.tensor([np.asarray(x) if x is not None else 0 for x in xs])\n",
    "y = torch.tensor([np.random.rand(), np.random.rand()])\n",
    "y = torch.tensor([np.zeros(3).sum(), np.ones(3).sum()])\n",
    "d = np.load('f.npz')\ny = torch.tensor([d, d])\n",
    "y = torch.tensor([np.array(1.0) * 2, np.array(2.0) * 2])\n",
    "def f(n):\n    return torch.tensor([np.zeros(3) * n])\n",
    "y = torch.tensor([*[np.zeros(3)], np.zeros(3)])\n",
    "y = torch.tensor([])\n",
    # np.stack of unknown values may be a duck array's (cupy, dask: __array_function__)
    "def f(x):\n    return torch.tensor([np.stack([x, x]), np.stack([x, x])])\n",
    # the list may be filled or changed where the analysis does not look
    "def f(xs):\n    out = [np.zeros(3)]\n    alias = out\n    alias.append(torch.ones(3))\n    return torch.tensor(out)\n",
    "def f(xs):\n    out = []\n    for x in xs:\n        out.append(np.zeros(3))\n    g(out)\n    return torch.tensor(out)\n",
    "def f(xs):\n    out = [np.zeros(3)]\n    out.extend(xs)\n    return torch.tensor(out)\n",
    "def f(xs):\n    out = [np.zeros(3)]\n    out += xs\n    return torch.tensor(out)\n",
    "def f(t):\n    out = [np.zeros(3)]\n    out[0] = t\n    return torch.tensor(out)\n",
    "def f(t):\n    out = [np.zeros(3)]\n    out.insert(0, t)\n    return torch.tensor(out)\n",
    "def f(ts):\n    out = []\n    [out.append(t) for t in ts]\n    return torch.tensor(out)\n",
    "def f(t):\n    out = [np.zeros(3)]\n    t is None or out.append(t)\n    return torch.tensor(out)\n",
    "def f(t):\n    out = [np.zeros(3)]\n    def g():\n        out.append(t)\n    g()\n    return torch.tensor(out)\n",
    "def f(out):\n    out.append(np.zeros(3))\n    return torch.tensor(out)\n",
    "def f(xs):\n    out = xs\n    out.append(np.zeros(3))\n    return torch.tensor(out)\n",
    "acc = [np.zeros(3)]\ndef g(t):\n    acc.append(t)\ny = torch.tensor(acc)\n",
    "def f(t):\n    global acc\n    acc = [np.zeros(3)]\n    h()\n    return torch.tensor(acc)\n",
    "def f(t):\n    out = [np.zeros(3)]\n    locals()['out'].append(t)\n    return torch.tensor(out)\n",
    "def f(t):\n    out = [np.zeros(3)]\n    for out in [[t]]:\n        pass\n    return torch.tensor(out)\n",
    "def f(t):\n    out = [np.zeros(3)]\n    return torch.tensor(out), out\n",
    "def f(t):\n    out = [np.zeros(3)]\n    self.keep = out\n    return torch.tensor(out)\n",
    "class C:\n    out = [np.zeros(3)]\n    y = torch.tensor(out)\n",
    "def f(ts):\n    out = [np.zeros(3)]\n    return lambda: torch.tensor(out)\n",
    # numpy not imported under a name that is numpy's
    "import torch\nnp = None\ny = torch.tensor([np.zeros(3)])\n",
]


@pytest.mark.parametrize("body", REPORTED)
def test_reported(body):
    assert len(trc109(body)) == 1


@pytest.mark.parametrize("body", QUIET)
def test_quiet(body):
    assert trc109(body) == []


def test_numpy_under_its_own_name_and_no_fix_without_numpy():
    src = "import numpy\nimport torch\ny = torch.tensor([numpy.zeros(3), numpy.ones(3)])\n"
    assert fix_source(src) == src.replace("tensor([numpy.zeros(3), numpy.ones(3)])",
                                          "tensor(numpy.array([numpy.zeros(3), numpy.ones(3)]))")
    src = "import torch\nx = torch.ones(3)\ny = torch.tensor([x.numpy(), x.numpy()])\n"
    (finding,) = [f for f in lint_source(src) if f.code == "TRC109"]
    assert finding.fix is None and "np.array(" in finding.message
    src = "from numpy import zeros\nimport torch\ny = torch.tensor([zeros(3), zeros(3)])\n"
    (finding,) = [f for f in lint_source(src) if f.code == "TRC109"]
    assert finding.fix is None


def test_a_tuple_is_reported_without_a_fix():
    (f,) = trc109("y = torch.tensor((np.zeros(2), np.ones(2)))\n")
    assert f.fix is None


def test_append_lists_get_unsafe_fixes_literal_lists_of_known_1d_arrays_safe_ones():
    (f,) = trc109(REPORTED[0])
    assert f.fix is not None and not f.fix.safe  # may be empty
    (f,) = trc109("a = np.ones(3)\ny = torch.tensor([a, a + 1, a * 2.0])\n")
    assert f.fix is not None and f.fix.safe
    (f,) = trc109("a = np.ones(3)\nwith torch.device('meta'):\n    y = torch.tensor([a, a])\n")
    assert f.fix is not None  # the module sets a default device
    assert not f.fix.safe


def test_cheap_on_files_without_numpy():
    from flake8_torchcopy.rules import RULES_BY_CODE
    rule = RULES_BY_CODE["TRC109"]
    text = "import torch\ny = torch.tensor([a, b])\n"
    present = {t: t in text for g in rule.triggers for t in g}
    assert not rule.may_match(present)
