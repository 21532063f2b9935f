"""Where autograd recording is certainly off, TRC103 and TRC110 have nothing to save.

The torch facts (a clone or a transfer records no node under each manager, and does again
under ``enable_grad`` inside one) are checked with torch; the lexical proof is checked on
code that must stay reported (recording may be on) and code that must be quiet.
"""
import textwrap

import pytest
import torch

from flake8_torchcopy import lint_source

OFF = {
    "no_grad": torch.no_grad,
    "inference_mode": torch.inference_mode,
    "inference_mode(True)": lambda: torch.inference_mode(True),
    "set_grad_enabled(False)": lambda: torch.set_grad_enabled(False),
    "autograd.no_grad": torch.autograd.no_grad,
}


@pytest.mark.parametrize("manager", sorted(OFF))
@pytest.mark.parametrize("op", ["clone", "cpu", "double", "to_float64"])
def test_torch_records_no_node_where_recording_is_off(manager, op):
    w = torch.randn(3, requires_grad=True)
    run = {"clone": lambda t: t.clone(), "cpu": lambda t: t.cpu().mul(1), "double": lambda t: t.double(),
           "to_float64": lambda t: t.to(torch.float64)}[op]
    assert run(w).grad_fn is not None  # recording on: a node
    with OFF[manager]():
        assert run(w).grad_fn is None
        if manager.startswith("set_grad") or "no_grad" in manager:
            with torch.enable_grad():
                assert run(w).grad_fn is not None  # back on inside


def test_decorated_function_records_no_node():
    @torch.no_grad()
    def f(t):
        return t.clone()

    @torch.inference_mode()
    def g(t):
        return t.clone()

    w = torch.randn(3, requires_grad=True)
    assert f(w).grad_fn is None and g(w).grad_fn is None


def test_inference_mode_false_records():
    w = torch.randn(3, requires_grad=True)
    with torch.inference_mode(False):
        assert w.clone().grad_fn is not None


HEAD = "import torch\nfrom torch import no_grad\n"


def codes(body):
    return [f.code for f in lint_source(HEAD + textwrap.dedent(body))]


#: ``C`` in a case stands for the copy a rule looks at
C = "w.clone().detach()"
W = "with torch.no_grad():\n"

QUIET = [
    "@torch.no_grad()\ndef f(w: torch.Tensor):\n    return C\n",
    "@torch.inference_mode()\ndef f(w):\n    return C\n",
    "@no_grad()\ndef f(w):\n    return C\n",
    "def f(w):\n    W        y = C\n    return y\n",
    "def f(w):\n    with torch.set_grad_enabled(False):\n        return C\n",
    "def f(w):\n    with torch.autograd.no_grad():\n        if w is not None:\n"
    "            return [C for _ in range(2)]\n",
    "w = torch.randn(3, requires_grad=True)\nW    y = w.cpu().detach()\n",
    "@torch.no_grad()\ndef f():\n    x = torch.randn(3, requires_grad=True)\n    return x.to(torch.float64).detach()\n",
]

REPORTED = [
    # recording may be on where the copy runs
    ("def f(w):\n    return C\n", "TRC103"),
    ("def f(w):\n    W        with torch.enable_grad():\n            return C\n", "TRC103"),
    ("def f(w, flag):\n    with torch.set_grad_enabled(flag):\n        return C\n", "TRC103"),
    ("def f(w):\n    with torch.inference_mode(False):\n        return C\n", "TRC103"),
    ("def f(w):\n    W        g = lambda: C\n    return g\n", "TRC103"),
    ("def f(w):\n    W        def g():\n            return C\n    return g\n", "TRC103"),
    ("def f(w):\n    W        return (C for _ in range(2))\n", "TRC103"),
    ("def f(w):\n    W        torch.set_grad_enabled(True)\n        return C\n", "TRC103"),
    ("def f(w):\n    W        pass\n    return C\n", "TRC103"),
    ("@torch.no_grad()\ndef f(w, d=torch.randn(2, requires_grad=True).clone().detach()):\n    return d\n", "TRC103"),
    # a decorator below no_grad may keep the undecorated function and call it elsewhere
    ("def keep(fn):\n    return fn\n@torch.no_grad()\n@keep\ndef f(w):\n    return C\n", "TRC103"),
    ("def no_grad():\n    return open('x')\ndef f(w):\n    with no_grad():\n        return C\n", "TRC103"),
    ("def f(w, torch):\n    W        return C\n", "TRC103"),
    ("w = torch.randn(3, requires_grad=True)\nwith torch.enable_grad():\n    y = w.cpu().detach()\n", "TRC110"),
]


def spelled(body):
    return body.replace("W", W).replace("C", C)


@pytest.mark.parametrize("body", QUIET)
def test_quiet_where_recording_is_off(body):
    assert codes(spelled(body)) == []


@pytest.mark.parametrize("body,code", REPORTED)
def test_reported_where_recording_may_be_on(body, code):
    assert code in codes(spelled(body))
