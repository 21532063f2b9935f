"""The one binding of a name that certainly reaches a read, for :mod:`.gradfree`.

:func:`.gradfree.certainly_no_grad` follows a name to every binding in its scope.  Where
that fails (another binding elsewhere: ``d_p = buf`` later in the loop of an optimizer's
``step``), :func:`dominating_value` looks for the binding that every path to the read runs
last: walking back from the read's statement through the statements before it in its
block, then up through the blocks that hold it, it takes the first statement that binds
the name, if that is a plain ``name = value``.  It gives up (None) where that is not
certain: a read in a lambda or a generator expression (it runs later), a
``global``/``nonlocal`` of the name anywhere in the scope, a nested def or lambda
that may change it in place (it may run anywhere), a walked-over statement
that binds the name some other way or may change it in place, a loop on the way up that binds
or changes the name anywhere (a later iteration reads what the previous one left), a header
(``if`` test, ``with`` items) that does, an ``except``, ``else`` or ``finally`` block of a
``try`` or a ``match`` case on the way, or the top of the scope.  In place, only
``name.add_(u)`` (``sub_``, ``mul_``, ``div_``) as a statement of its own, of numbers and
values that certainly do not require grad (``alpha=`` a number: torch raises on a tensor),
keeps a value that requires no grad so (checked with torch in ``tests/test_grad_free.py``).

Only asked where the flow-insensitive answer is "no", so files without such reads pay nothing.
"""
from __future__ import annotations

import ast
from typing import Callable, Dict, List, Optional, Tuple

from .hostmade import _bindings_in
from .nodeindex import parents as parents_of

Mutating = Callable[[ast.AST, Dict[int, ast.AST]], bool]
#: in-place arithmetic that keeps a tensor free of grad where its operands are
_KEEPING = frozenset("add_ sub_ mul_ div_".split())
_STMT_FIELDS = ("body", "orelse", "finalbody")
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
#: expressions whose body runs when called or iterated, not where they stand
_LAZY = (ast.Lambda, ast.GeneratorExp)


def dominating_value(scope: ast.AST, use: ast.Name, mutating: Mutating,
                     no_grad: Callable[[ast.AST], bool]) -> Optional[ast.expr]:
    """The value of the ``use.id = value`` that every path to ``use`` runs last, or None."""
    name = use.id
    path = _path(scope, use)
    if not path or any(isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names
                       or isinstance(n, _NESTED) and n is not scope and _touches(n, name, mutating, no_grad)
                       for n in ast.walk(scope)):
        return None  # a nested def may run anywhere: one that changes the name in place counts
    owner, block, i = path[-1]
    stmt = block[i]
    head = stmt.value if isinstance(stmt, (ast.Assign, ast.Expr, ast.Return)) else None
    if head is None or _named(head, name) or _touches(head, name, mutating, no_grad) \
            or any(isinstance(n, _LAZY) and any(m is use for m in ast.walk(n)) for n in ast.walk(head)):
        return None  # a lambda's or a generator's read runs later: the name may be rebound by then
    for owner, block, i in reversed(path):
        for prev in reversed(block[:i]):
            bound = list(_bindings_in(ast.Module(body=[prev], type_ignores=[]), name))
            if bound:
                if isinstance(prev, ast.Assign) and len(prev.targets) == 1 \
                        and isinstance(prev.targets[0], ast.Name) and bound == [prev.value]:
                    return prev.value  # the name's only binding there: ``name = value``
                return None
            if _touches(prev, name, mutating, no_grad):
                return None
        if owner is scope:
            return None
        if isinstance(owner, (ast.For, ast.AsyncFor, ast.While)):
            whole = ast.Module(body=[owner], type_ignores=[])
            if any(True for _ in _bindings_in(whole, name)) or _touches(owner, name, mutating, no_grad):
                return None
        elif isinstance(owner, (ast.If, ast.With, ast.AsyncWith)):
            header = [owner.test] if isinstance(owner, ast.If) else list(owner.items)
            if any(_named(h, name) or _touches(h, name, mutating, no_grad) for h in header):
                return None
        elif not (isinstance(owner, ast.Try) and block is owner.body):
            return None
    return None


def _path(scope: ast.AST, use: ast.AST) -> List[Tuple[ast.AST, List[ast.stmt], int]]:
    """(owner, block, index) from ``scope`` down to the innermost statement holding ``use``."""
    at = (use.lineno, use.col_offset)  # type: ignore[attr-defined]
    out: List[Tuple[ast.AST, List[ast.stmt], int]] = []
    owner: Optional[ast.AST] = scope
    while owner is not None:
        inner, owner_now = None, owner
        for f in _STMT_FIELDS:
            block = getattr(owner_now, f, None)
            if not isinstance(block, list):
                continue
            for i, s in enumerate(block):
                if isinstance(s, ast.stmt) and (s.lineno, s.col_offset) <= at <= (s.end_lineno, s.end_col_offset):
                    out.append((owner_now, block, i))
                    inner = s
        if inner is None or isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            break
        owner = inner
    return out


def _named(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
               for n in ast.walk(node))


def _touches(node: ast.AST, name: str, mutating: Mutating, no_grad: Callable[[ast.AST], bool]) -> bool:
    """May ``node`` change ``name`` in place (other than arithmetic that keeps it grad-free)?"""
    parents = parents_of(node)
    for n in ast.walk(node):
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == name:
            return True
        if isinstance(n, ast.Name) and n.id == name and mutating(n, parents) \
                and not _keeping(n, parents, no_grad):
            return True
    return False


def _keeping(n: ast.Name, parents: Dict[int, ast.AST], no_grad: Callable[[ast.AST], bool]) -> bool:
    """``name.add_(u, alpha=2)`` as a statement, of operands free of grad: no grad after it."""
    attr = parents.get(id(n))
    call = parents.get(id(attr)) if attr is not None else None
    return (isinstance(attr, ast.Attribute) and attr.attr in _KEEPING and isinstance(call, ast.Call)
            and call.func is attr and isinstance(parents.get(id(call)), ast.Expr)
            and all(k.arg == "alpha" for k in call.keywords) and bool(call.args)
            and all(_number(a) or no_grad(a) for a in call.args))


def _number(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)
