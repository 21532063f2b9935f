"""Hostile review of 2026-11-25: what a torch call's arguments decide of its result's class.

A safe fix that needs a plain tensor (``torch.tensor(t)`` -> ``t.detach().clone()`` keeps
t's class) was given where ``t`` came from a torch factory or a tensor method whose
argument the analysis did not know: a size, an index, a ``dtype=`` that is a Tensor
subclass or a ``__torch_function__`` object makes the result one. Checked with torch
here; the programs run before and after the fix in tests/adversarial/cases
(``subclass_size_argument.py``).
"""

import pytest
from round_helpers import safety

SNIPPETS = {
    "a factory's size": "t = torch.zeros(n)",
    "a size in a tuple": "t = torch.randn((2, n))",
    "a factory's dtype=": "t = torch.ones(2, dtype=n)",
    "a factory's generator=": "t = torch.randn(3, generator=n)",
    "a method's index": "t = torch.randn(5).index_select(0, n)",
    "a method's sizes": "t = torch.randn(6).view(n, -1)",
    "a method's bound": "t = torch.randn(5).clamp(max=n)",
}


@pytest.mark.parametrize("name", list(SNIPPETS))
def test_an_unknown_argument_may_decide_the_class(name):
    src = f"""
        import torch
        def f(n):
            {SNIPPETS[name]}
            return torch.tensor(t)
        """
    assert safety(src, "TRC101") == "unsafe"


@pytest.mark.parametrize("line", [
    "t = torch.zeros(3, dtype=torch.float64)",
    "t = torch.tensor(n)",  # torch.tensor's data decides nothing of the class
    "t = torch.randn(6).view(2, -1)",
])
def test_known_arguments_keep_the_safe_fix(line):
    src = f"""
        import torch
        def f(n):
            {line}
            return torch.tensor(t)
        """
    assert safety(src, "TRC101") == "safe"


def test_the_facts_with_torch():
    torch = pytest.importorskip("torch")

    class Marked(torch.Tensor):
        pass

    class Obj:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return "obj's"

    n = torch.tensor(2).as_subclass(Marked)
    assert type(torch.zeros(n)) is Marked
    assert type(torch.randn((2, n))) is Marked
    assert type(torch.randn(6).view(n, -1)) is Marked
    assert type(torch.randn(5).index_select(0, torch.tensor([0, 1]).as_subclass(Marked))) is Marked
    assert torch.ones(2, dtype=Obj()) == "obj's"
    assert torch.randn(3, generator=Obj()) == "obj's"
    # the data of torch.tensor does not dispatch: the copy is plain
    assert type(torch.tensor(torch.zeros(2).as_subclass(Marked))) is torch.Tensor
    # ... and detach().clone() keeps the class: that is what the safe fix must not meet
    assert type(torch.zeros(n).detach().clone()) is Marked
