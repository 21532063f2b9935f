"""Reports on paths that cannot hold a tensor (found by a hostile review): a "tensor on some
paths" report (TRC101, TRC105, TRC106, TRC108) behind a test that removes the tensor
(``hasattr``, an ``or`` of isinstance tests, a flag holding one, a match class pattern), in a
branch that never runs (``TYPE_CHECKING``), after a ``while True`` left only by ``break``; and
tensor evidence that is none (an assert's test, a module class's own ``keepdim=``); and
(hostile review 10) ``type(x) is not T``, a class pattern's own case, a ``while`` left where
its test is false.  Each case
asserts no report, and ``test_cases_never_see_a_tensor`` runs the code with torch to show
that no tensor reaches the reported call (``torch.tensor(t)`` of a tensor warns)."""
import copy
import textwrap
import warnings
from typing import TYPE_CHECKING

import pytest
import torch

from flake8_torchcopy import lint_source

HEAD = "import copy\nfrom typing import TYPE_CHECKING\n\nimport torch\n"

# hasattr(x, "shape") is True for every tensor: after ``return x`` none is left
HASATTR_TENSOR = """
def f(x=None):
    if x is None:
        x = torch.zeros(3)
    if hasattr(x, "shape"):
        return x
    return torch.tensor(x)
"""
HASATTR_DEEPCOPY = """
def f(x=None):
    if x is None:
        x = torch.zeros(3)
    if hasattr(x, "shape"):
        return x
    return copy.deepcopy(x)
"""
# the only tensor binding never runs (TYPE_CHECKING is False at run time)
TYPE_CHECKING_DEAD = """
def f():
    x = [1.0, 2.0]
    if TYPE_CHECKING:
        x = torch.zeros(3)
    return torch.tensor(x)
"""
# a class pattern is an isinstance test: every tensor returns in the case
MATCH_CLASS = """
def f(x=None):
    if x is None:
        x = torch.zeros(3)
    match x:
        case torch.Tensor():
            return x
    return torch.tensor(x)
"""

# ``while True`` leaves only by its break, after the body rebinds x: the entry state never exits
WHILE_TRUE = """
def f(stream=iter([None, [1.0]])):
    x = torch.zeros(3)
    while True:
        x = next(stream)
        if x is not None:
            break
    return torch.tensor(x)
"""

# ``isinstance(x, list) or isinstance(x, tuple)``: true only for a list or a tuple
OR_OF_ISINSTANCE = """
def f(x=None):
    if x is None:
        x = torch.zeros(3)
    if isinstance(x, list) or isinstance(x, tuple):
        return torch.tensor(x)
    return x
"""
# the isinstance test held in a name first
ISINSTANCE_FLAG = """
def f(x=None):
    if x is None:
        x = torch.zeros(3)
    is_t = isinstance(x, torch.Tensor)
    if is_t:
        return x
    return torch.tensor(x)
"""

# (hostile review 10) ``type(x) is not list`` then return: what is left is a list
TYPE_IS_NOT = """
def f(x=None):
    if x is None:
        x = torch.zeros(3)
    if type(x) is not list:
        return x
    return torch.tensor(x)
"""
# a class pattern proves its class inside the case: a list there
MATCH_LIST_CASE = """
def f(x=None):
    if x is None:
        x = torch.zeros(3)
    match x:
        case list():
            return torch.tensor(x)
    return x
"""
# a while loop is left (not by break) where its test is false: no tensor after it
WHILE_ISINSTANCE = """
def f(x=None):
    if x is None:
        x = torch.zeros(3)
    while isinstance(x, torch.Tensor):
        x = x.tolist()
    return torch.tensor(x)
"""

CASES = [
    pytest.param(TYPE_IS_NOT, "TRC101", id="type-is-not-list"),
    pytest.param(MATCH_LIST_CASE, "TRC101", id="match-list-case"),
    pytest.param(WHILE_ISINSTANCE, "TRC101", id="while-isinstance-exit"),
    pytest.param(HASATTR_TENSOR, "TRC101", id="hasattr-shape-trc101"),
    pytest.param(HASATTR_DEEPCOPY, "TRC105", id="hasattr-shape-trc105"),
    pytest.param(TYPE_CHECKING_DEAD, "TRC101", id="type-checking-dead-branch"),
    pytest.param(MATCH_CLASS, "TRC101", id="match-class-pattern"),
    pytest.param(WHILE_TRUE, "TRC101", id="while-true-exits-by-break"),
    pytest.param(OR_OF_ISINSTANCE, "TRC101", id="or-of-non-tensor-isinstance"),
    pytest.param(ISINSTANCE_FLAG, "TRC101", id="isinstance-held-in-a-name"),
]

# the same causes reach TRC108 and TRC106 (their runs: test_reach_cases_never_see_a_tensor)
OR_TRC108 = """
def f(a=None, b=1.0):
    if a is None:
        a = torch.zeros(())
    if isinstance(a, float) or isinstance(a, int):
        return torch.tensor([a, b])
    return a
"""
WHILE_TRUE_TRC106 = """
def f():
    a = torch.zeros(3)
    while True:
        a = [1.0, 2.0]
        break
    return torch.Tensor(a)
"""
REACH = [
    pytest.param(OR_TRC108, "TRC108", id="or-of-isinstance-trc108"),
    pytest.param(WHILE_TRUE_TRC106, "TRC106", id="while-true-trc106"),
]


def _codes(src):
    return [f.code for f in lint_source(HEAD + textwrap.dedent(src))]


@pytest.mark.parametrize("src,code", CASES + REACH)
def test_no_some_path_report(src, code):
    assert code not in _codes(src)


@pytest.mark.parametrize("src", [c.values[0] for c in CASES])
def test_cases_never_see_a_tensor(src):
    """Torch's side: run each function on None, a list, a tensor, a Parameter and a float;
    torch.tensor of a tensor would warn (an error here), deepcopy is spied on."""
    seen = []

    class Spy:
        @staticmethod
        def deepcopy(v):
            seen.append(isinstance(v, torch.Tensor))
            return copy.deepcopy(v)

    ns = {"copy": Spy, "torch": torch, "TYPE_CHECKING": TYPE_CHECKING}
    exec(textwrap.dedent(src), ns)
    f = ns["f"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        args = [None, [1.0], torch.ones(2), torch.nn.Parameter(torch.ones(2)), 3.0]
        if "stream" in f.__code__.co_varnames:
            f()  # the default: None, then a list
        elif f.__code__.co_argcount:
            for a in args:
                f(a)
        else:
            f()
    assert not any(seen)
    # and the warning does fire when a tensor does reach torch.tensor
    with pytest.warns(UserWarning):
        torch.tensor(torch.ones(2))


def test_reach_cases_never_see_a_tensor():
    """Spy on torch.tensor / torch.Tensor: no item or argument that reaches them is a tensor."""
    seen = []

    class Torch:
        zeros = staticmethod(torch.zeros)

        @staticmethod
        def tensor(data):
            seen.extend(isinstance(v, torch.Tensor) for v in data)
            return torch.tensor(data)

        @staticmethod
        def Tensor(data):
            seen.append(isinstance(data, torch.Tensor))
            return torch.Tensor(data)

    for src, args in ((OR_TRC108, [None, 1.5, 2, torch.ones(()), "s"]), (WHILE_TRUE_TRC106, [])):
        ns = {"torch": Torch}
        exec(textwrap.dedent(src), ns)
        for a in args:
            ns["f"](a)
        if not args:
            ns["f"]()
    assert seen and not any(seen)


# ``python -O`` strips the assert: the torch.isnan evidence need not have run
ASSERT_EVIDENCE = """
def f(x):
    assert not torch.isnan(x).any()
    return copy.deepcopy(x)
"""


def test_assert_is_not_evidence():
    found = [f for f in lint_source(HEAD + textwrap.dedent(ASSERT_EVIDENCE)) if f.code == "TRC105"]
    assert all("some paths" in f.message for f in found)


def test_assert_evidence_under_O():
    """Torch's side: under -O a list reaches deepcopy; without -O torch.isnan raises first."""
    import subprocess
    import sys
    prog = "import copy, torch\n" + textwrap.dedent(ASSERT_EVIDENCE) + "print(type(f([1.0])).__name__)"
    out = subprocess.run([sys.executable, "-O", "-c", prog], capture_output=True, text=True)
    assert out.stdout.strip() == "list"
    ns = {"copy": copy, "torch": torch}
    exec(textwrap.dedent(ASSERT_EVIDENCE), ns)
    with pytest.raises(TypeError):
        ns["f"]([1.0])


# the module's own class takes keepdim= / end_dim=: the keyword is no tensor evidence here
LOCAL_KEEPDIM = """
class Bag:
    def sum(self, dim=None, keepdim=False):
        return 0

    def flatten(self, start_dim=0, end_dim=-1):
        return self


def f(b: Bag):
    b.sum(keepdim=True)
    return copy.deepcopy(b)


def g(b):
    b.flatten(end_dim=1)
    return copy.deepcopy(b)
"""


def test_local_class_keyword_is_not_evidence():
    assert "TRC105" not in _codes(LOCAL_KEEPDIM)


def test_local_class_keyword_runs_on_a_bag():
    ns = {"copy": copy, "torch": torch}
    exec(textwrap.dedent(LOCAL_KEEPDIM), ns)
    bag = ns["Bag"]()
    for fn in (ns["f"], ns["g"]):
        out = fn(bag)
        assert type(out).__name__ == "Bag" and not isinstance(out, torch.Tensor)


def test_tensor_attributes_are_on_every_tensor():
    """``hasattr(x, a)`` false proves x no tensor only if every tensor has ``a``."""
    from flake8_torchcopy.analysis.narrowing import TENSOR_ATTRIBUTES
    for t in (torch.zeros(2), torch.nn.Parameter(torch.zeros(2)), torch.zeros(2, 3).t(),
              torch.tensor(1, dtype=torch.int64), torch.zeros(2).to_sparse()):
        missing = [a for a in sorted(TENSOR_ATTRIBUTES) if not hasattr(t, a)]
        assert not missing, (type(t), missing)
