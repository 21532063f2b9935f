"""A nested function that reads a tensor its enclosing function binds once (never a
parameter, never rebound, no ``nonlocal``/``global`` of the name anywhere in it): whenever
the nested function runs, the name holds what that one binding bound, so it is a tensor.
Every other closure stays unknown: rebinding after the def (late binding), ``nonlocal``
rebinding, ``del``, augmented assignment, a class body's names (not closures)."""
import textwrap
import warnings

import pytest
import torch

from flake8_torchcopy import lint_source

HEAD = "import torch\n"


def trc101(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC101"]


REPORTED = [
    ("""
    def outer():
        t = torch.zeros(3)
        def f():
            return torch.tensor(t)
        return f
    """, "outer()()"),
    # two levels down, and a lambda
    ("""
    def outer():
        t = torch.ones(2)
        def f():
            def g():
                return torch.tensor(t)
            return g()
        return f
    """, "outer()()"),
    # a method of a class defined in the function sees the function's locals
    ("""
    def outer():
        t = torch.arange(3)
        class C:
            def m(self):
                return torch.tensor(t)
        return C().m
    """, "outer()()"),
]

QUIET = [
    # rebound after the def: late binding sees the list
    """
    def outer():
        t = torch.zeros(3)
        def f():
            return torch.tensor(t)
        t = [1.0, 2.0]
        return f
    """,
    # rebound by a nonlocal in a sibling, or in the reader itself
    """
    def outer():
        t = torch.zeros(3)
        def f():
            return torch.tensor(t)
        def reset():
            nonlocal t
            t = [1.0]
        return f, reset
    """,
    """
    def outer():
        t = torch.zeros(3)
        def f():
            nonlocal t
            x = torch.tensor(t)
            t = [1.0]
            return x
        return f
    """,
    # a parameter (what callers pass), del, augmented assignment
    """
    def outer(t):
        def f():
            return torch.tensor(t)
        return f
    """,
    """
    def outer():
        t = torch.zeros(3)
        def f():
            return torch.tensor(t)
        del t
        return f
    """,
    """
    def outer():
        t = torch.zeros(3)
        t += 1
        def f():
            return torch.tensor(t)
        return f
    """,
    # a loop binding it twice over
    """
    def outer(xs):
        fs = []
        for x in xs:
            t = torch.zeros(3)
            fs.append(lambda: t)
            t = x
        def f():
            return torch.tensor(t)
        return f
    """,
    # a class body's names are not closures of its methods
    """
    def outer():
        class C:
            t = torch.zeros(3)
            def m(self):
                return torch.tensor(t)
        return C
    """,
    # declared global: the module's name, which anything may rebind
    """
    def outer():
        global t
        t = torch.zeros(3)
        def f():
            return torch.tensor(t)
        return f
    """,
    # not a tensor on the one binding
    """
    def outer(c):
        t = torch.zeros(3) if c else [1.0]
        def f():
            return torch.tensor(t)
        return f
    """,
]


@pytest.mark.parametrize("src,call", REPORTED)
def test_closure_over_a_tensor_is_reported(src, call):
    assert len(trc101(src)) == 1
    ns: dict = {"torch": torch}
    exec(textwrap.dedent(src), ns)
    with warnings.catch_warnings(record=True) as w:  # torch does warn there
        warnings.simplefilter("always")
        eval(call, ns)
    assert any("copy construct from a tensor" in str(x.message) for x in w)


@pytest.mark.parametrize("src", QUIET)
def test_closure_not_proven_a_tensor_is_quiet(src):
    assert trc101(src) == []


def test_closure_keeps_the_caveat():
    # a tensor proven by isinstance (of some class): the report stays, the fix is not safe
    src = """
    def outer(x):
        y = x
        if isinstance(y, torch.Tensor):
            def f():
                return torch.tensor(y)
            return f
    """
    found = trc101(src)
    assert len(found) == 1
    assert found[0].fix is None or not found[0].fix.safe


def test_closure_over_a_plain_tensor_gets_the_fix():
    found = trc101(REPORTED[0][0])
    assert found[0].fix is not None and found[0].fix.safe
