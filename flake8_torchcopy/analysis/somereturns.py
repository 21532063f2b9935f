"""A call of a module-level function that returns a tensor on its main path only.

``levenshtein(a, b)`` where the function returns ``0`` or ``len(b)`` on its early paths and
``torch.tensor(d[-1])`` at its end: the call is a tensor on some paths (``Value.some``;
``mixed`` too where every other return is provably no tensor).  Rules report such a value
without a fix (a copy on some paths only).

Conservative on purpose (:func:`some_call`):

- the function's name is bound once in the module (:func:`.returns.def_bound_once`), it is
  an undecorated ``def``, no generator, and ends in a ``return`` (as
  :func:`.returns.exits_by_return`); its text names ``torch``; it has two returns or more;
- its last statement is that ``return``, of a form that may be a tensor (no display or
  literal, no parameter as it came), a tensor by the data-flow walk of the function
  (its parameters unknown: :func:`.returnwalker.module_returns`), and nothing before it at
  the top of the body leaves the function for certain (``raise``, ``return``, ``while True``);
- no test in it picks a path by a flag or a type (:func:`_data_tests`): a test naming a
  parameter with a default, ``*args``/``**kwargs``, a bare name, ``isinstance``/``type``/
  ``is None``/``callable``/``hasattr``/``torch.is_tensor`` anywhere: the caller's arguments
  could then keep every call off the tensor path (``def f(x, raw=False)``);
- the call passes no literal (``True``, ``None``, ``"mode"``, ``1``: a mode or a flag the
  function may test) and no ``*args``/``**kwargs``;
- the scope the call is in holds a word of a rule that reads tensors on some paths
  (``tensor(``, ``Tensor(``, ``deepcopy(``, ``tolist``, ``numpy(``): the function is walked
  only then, once per module.

Methods (``self.f()``) and other modules' functions are not summarised here.
"""
from __future__ import annotations

import ast
from typing import Dict, Optional

from .values import NOT, TENSOR, UNKNOWN, Value

_WORDS = ("tensor(", "Tensor(", "deepcopy(", "tolist", "numpy(")
_TYPE_TESTS = frozenset({"isinstance", "type", "callable", "hasattr", "is_tensor", "issubclass"})


_TESTED = (ast.If, ast.While, ast.IfExp, ast.Assert)


def _data_tests(func: ast.FunctionDef) -> bool:
    """Does every test in ``func`` (``if``, ``while``, ``x if c else y``, ``assert``, boolean
    operands, comprehension conditions) test data, not a flag or a type?  False for a
    generator too, and for a function of one ``return`` (one pass over its own nodes)."""
    from .returns import own_nodes
    a = func.args
    if a.vararg is not None or a.kwarg is not None:
        return False
    positional = a.posonlyargs + a.args
    defaulted = {p.arg for p in positional[len(positional) - len(a.defaults):]} if a.defaults else set()
    defaulted |= {p.arg for p in a.kwonlyargs}
    tests = []
    returns = 0
    for node in own_nodes(func):
        t = type(node)
        if t is ast.Return:
            returns += 1
        elif t in _TESTED:
            tests.append(node.test)
        elif t is ast.BoolOp:
            tests.extend(node.values)
        elif t is ast.comprehension:
            tests.extend(node.ifs)
        elif t is ast.Match or t is ast.Yield or t is ast.YieldFrom:
            return False
    return returns > 1 and all(_data_test(test, defaulted) for test in tests)


def _data_test(test: ast.AST, defaulted) -> bool:
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    if isinstance(test, (ast.Name, ast.Attribute, ast.Constant)):
        return False  # a flag (``if raw:``, ``if self.training:``)
    for n in ast.walk(test):
        t = type(n)
        if t is ast.Name and n.id in defaulted:  # type: ignore[attr-defined]
            return False
        if t is ast.Compare and any(type(op) in (ast.Is, ast.IsNot) for op in n.ops):  # type: ignore[attr-defined]
            return False
        if t is ast.Call:
            f = n.func  # type: ignore[attr-defined]
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in _TYPE_TESTS:
                return False
    return True


def _leaves(stmts) -> bool:
    """May ``stmts`` leave the function (or loop for ever) on every path: a ``return`` or
    ``raise``, an ``if`` whose branches both do, a ``try``/``with`` whose body does, a ``while``
    of a constant test (a ``break`` or not: counted as leaving, to be safe)?"""
    for s in stmts:
        if isinstance(s, (ast.Raise, ast.Return)):
            return True
        if isinstance(s, ast.If) and _leaves(s.body) and _leaves(s.orelse):
            return True
        if isinstance(s, (ast.With, ast.Try)) and _leaves(s.body):
            return True
        if isinstance(s, ast.While) and isinstance(s.test, ast.Constant) and s.test.value:
            return True
    return False


def _main_path(func: ast.FunctionDef) -> bool:
    """Is the last statement a ``return`` that nothing at the top of the body keeps control
    from, of a form that may be a tensor (not a display or literal, a parameter as it came or
    a function the body defines)?"""
    from .returnwalker import _NEVER_TENSOR
    last = func.body[-1]
    if not isinstance(last, ast.Return) or last.value is None or isinstance(last.value, _NEVER_TENSOR):
        return False
    if isinstance(last.value, ast.Name):
        a = func.args
        named = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
        named |= {d.name for d in func.body if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        if last.value.id in named:
            return False
    return not _leaves(func.body[:-1])


def _summary(ev, func: ast.FunctionDef) -> Optional[Value]:
    """A tensor on some paths (mixed where every other return is no tensor), or None."""
    from .returns import def_bound_once
    from .returnwalker import module_returns
    if func.decorator_list or not _main_path(func):
        return None  # (it ends in a return: with no yield, .returns.exits_by_return holds)
    text = ev.idx.text(func)  # the cheap tests first: two returns or more, torch named
    if "torch" not in text or text.count("return ") < 2 or not def_bound_once(func, ev.static_qualname) \
            or not _data_tests(func):
        return None
    values = module_returns(ev, func)
    walker = ev.__dict__.get("_method_walker")
    if not values or walker is None:
        return None
    stmts = walker.returned_at
    if len(stmts) != len(values):
        return None
    last = func.body[-1]
    at_end = [v for s, v in zip(stmts, values) if s is last]
    others = [v for s, v in zip(stmts, values) if s is not last]
    if not at_end or any(v is None or v.kind != TENSOR for v in at_end) or not others:
        return None  # every return a tensor is the other summary's (.returnwalker.walked_returns)
    if all(v is not None and v.kind == TENSOR for v in others):
        return None
    # "and not on others" only where no return is None: ``if r is not None`` keeps it a tensor
    none = any(isinstance(s.value, ast.Constant) and s.value.value is None or s.value is None
               for s in stmts if s is not last)
    return Value(UNKNOWN, some=True, mixed=not none and all(v is not None and v.kind == NOT for v in others))


def some_call(ev, node: ast.Call, defn: ast.AST) -> Optional[Value]:
    """The value of ``f(...)`` (``node``) where ``defn`` returns a tensor on its main path
    only (the module's description); None otherwise."""
    if not isinstance(defn, ast.FunctionDef) or not getattr(ev, "walks_returns", True):
        return None
    passed = list(node.args) + [k.value for k in node.keywords]
    if any(isinstance(a, (ast.Constant, ast.Starred))
           or isinstance(a, ast.UnaryOp) and isinstance(a.operand, ast.Constant) for a in passed) \
            or any(k.arg is None for k in node.keywords):
        return None  # a literal (a mode, a flag, ``f(x, 1)``) the function may test; ``*a``, ``**kw``
    scope = ev.closure_func
    consumes: Dict[int, bool] = ev.__dict__.setdefault("_some_scopes", {})
    if id(scope) not in consumes:  # once per scope
        text = ev.source if scope is None else ev.idx.text(scope)
        consumes[id(scope)] = any(w in text for w in _WORDS)
    if not consumes[id(scope)]:
        return None
    memo: Dict[int, Optional[Value]] = ev.__dict__.setdefault("_some_returns", {})
    if id(defn) not in memo:
        memo[id(defn)] = None  # a cycle: not known
        memo[id(defn)] = _summary(ev, defn)
    return memo[id(defn)]
