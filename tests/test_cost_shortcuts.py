"""The cost floor's shortcuts give the answers of the longer ways they replace: the class
gate (a class's text ruling out its methods at once), the scope search that enters only the
nodes spanning its target, one statement walk for ``global`` and ``nonlocal``, and the
words the engine's file check shares with the walker."""
import ast

import pytest

from flake8_torchcopy.analysis import flow, scopes
from flake8_torchcopy.analysis.triggers import WordsIn, found
from flake8_torchcopy.engine import DEFAULT_OPTIONS
from flake8_torchcopy.rule_runner import _Dispatch
from flake8_torchcopy.rules import ALL_RULES
from flake8_torchcopy.rules.base import CallWord

SOURCES = {
    "class without a trigger": (
        "import torch\n"
        "class A:\n    def f(self, x):\n        return x + 1\n"
        "    def g(self, x):\n        return torch.ones(2)\n"
        "def h(x):\n    return torch.tensor(x)\n"),
    "one method with a trigger": (
        "import torch\n"
        "class A:\n    def f(self, x):\n        return torch.tensor(x)\n"
        "    def g(self, x):\n        return x\n"
        "    class B:\n        def p(self):\n            pass\n        def q(self, y):\n"
        "            return y.view(2)\n"),
    "nested and one-line classes": (
        "import torch\nfrom torch import tensor as T\n"
        "if torch.cuda.is_available():\n"
        "    class C:\n        def a(self): return 1\n        def b(self, x): return T(x)\n"
        "class D: x = 1; y = 2\n"
        "class E:\n    class F:\n        def a(self): pass\n        def b(self): pass\n"
        "    def c(self, x):\n        return x.detach().to('cuda')\n    def d(self): pass\n"),
    "lambdas, comprehensions and f-strings": (
        "import torch\n"
        "g = lambda x: torch.tensor([v for v in x])\n"
        "class K:\n    h = staticmethod(lambda y: f'{torch.tensor(y)!r}')\n"
        "    @property\n    def m(self):\n        return {k: torch.tensor(k) for k in range(3)}\n"
        "    def n(self):\n        return [lambda: torch.tensor(i) for i in range(2)]\n"),
}


def _walker(source):
    tree = ast.parse(source)
    return flow.FlowWalker(source, tree, _Dispatch(ALL_RULES), DEFAULT_OPTIONS), tree


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_class_gate_answers_as_each_method_would(name):
    walker, tree = _walker(SOURCES[name])
    defs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    ruled_out = {id(d) for d in defs if walker._may_match.get(id(d)) is False}
    for d in defs:
        assert walker.may_match(d) == walker._text_may_match(d), d.name
    if name == "class without a trigger":  # A's two methods, ruled out by one check
        assert len(ruled_out) == 2


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_scope_search_agrees_with_the_full_walk(name):
    tree = ast.parse(SOURCES[name])
    nodes = list(ast.walk(tree))
    for node in nodes + [ast.Name("elsewhere", lineno=1, col_offset=0)]:
        assert scopes.enclosing_scope(tree, node) is scopes.walked_enclosing_scope(tree, node)
    inner = [n for n in nodes if isinstance(n, ast.Call) and ast.unparse(n) == "torch.tensor(i)"]
    for call in inner:  # the innermost scope: the lambda, not the method
        assert isinstance(scopes.enclosing_scope(tree, call), ast.Lambda)


DECLARED = [
    ("x = 1\n", (), ()),
    ("# a global comment, a nonlocal one\nx = 1\n", (), ()),
    ("def f():\n    global a, b\n    def g():\n        nonlocal c\n", ("a", "b"), ("c",)),
    ("class C:\n    def f(self):\n        if x: global d\n", ("d",), ()),
    ("def f():\n    x = 0\n    def g():\n        try: pass\n        finally:\n"
     "            nonlocal x\n", (), ("x",)),
]


@pytest.mark.parametrize("source,globals_,nonlocals", DECLARED)
def test_one_walk_finds_globals_and_nonlocals(source, globals_, nonlocals):
    tree = ast.parse(source)
    assert flow._declared(tree, source) == (frozenset(globals_), frozenset(nonlocals))
    walked = {k: {n for s in ast.walk(tree) if isinstance(s, k) for n in s.names}
              for k in (ast.Global, ast.Nonlocal)}
    assert walked == {ast.Global: set(globals_), ast.Nonlocal: set(nonlocals)}


@pytest.mark.parametrize("word", ["tensor", "view(", ".to(", CallWord("tensor(", {"tensor"})])
@pytest.mark.parametrize("text", ["y = torch.tensor(x).to(d)", "is_tensor(x) and x.view(2)", ""])
def test_the_shared_words_are_the_words_found(word, text):
    words = WordsIn(text)
    assert words[word] == found(word, text)
    assert words[word] == found(word, text)  # asked again: kept
