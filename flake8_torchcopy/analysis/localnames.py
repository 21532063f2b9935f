"""The names a function's own scope binds, and those it binds by exactly one statement.

A name a function binds anywhere in its body is local in all of it (Python decides at
compile time): before the binding runs it is unbound (``UnboundLocalError``), never the
module's name of the same spelling (:func:`own_locals`). A nested scope (``def``,
``lambda``, generator) reads the enclosing function's names when it runs, not when it is
made: it may trust only names bound by one statement (:func:`bound_once`).
"""
from __future__ import annotations

import ast
from typing import Dict, List, Sequence, Set

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def own_locals(func: ast.AST) -> frozenset:
    """Every name ``func``'s own scope binds (stores, ``del``, imports, ``def``/``class``
    names, ``except``/``match`` captures, ``:=`` also inside its comprehensions) or declares
    ``global``/``nonlocal``; parameters too. Nested scopes' own names are not included
    (a comprehension's targets, a nested body), their defaults and decorators are."""
    a = func.args  # type: ignore[attr-defined]
    out: Set[str] = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    out.update(p.arg for p in (a.vararg, a.kwarg) if p is not None)
    stack: List[ast.AST] = list(func.body) if isinstance(func, _DEFS) else [func.body]  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        if isinstance(node, (*_DEFS, ast.ClassDef)):
            out.add(node.name)
            stack.extend(node.decorator_list)
            if isinstance(node, ast.ClassDef):
                stack.extend(node.bases + [k.value for k in node.keywords])
            else:
                stack.extend(node.args.defaults + [d for d in node.args.kw_defaults if d is not None])
            continue
        if isinstance(node, ast.Lambda):
            stack.extend(node.args.defaults + [d for d in node.args.kw_defaults if d is not None])
            continue
        if isinstance(node, ast.comprehension):
            stack.append(node.iter)  # the target is the comprehension's own
            stack.extend(node.ifs)
            stack.extend(n for n in ast.walk(node.target) if isinstance(n, ast.NamedExpr))
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, ast.NamedExpr):
            out.add(node.target.id)
        elif isinstance(node, ast.alias):
            out.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(node.names)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            out.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            out.add(node.rest)
        stack.extend(ast.iter_child_nodes(node))
    return frozenset(out)


def bound_once(func: ast.AST) -> frozenset:
    """Names ``func`` binds by exactly one statement, none a parameter, none declared
    ``global``/``nonlocal`` in it or in a scope nested in it, and bound nowhere else in
    its text (stores in nested scopes count too)."""
    counts: Dict[str, int] = {}
    excluded = set()
    for node in ast.walk(func):
        names: Sequence = ()
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names = (node.id,)  # stores and del
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = (node.name,) if node is not func else ()
        elif isinstance(node, ast.alias):
            names = ((node.asname or node.name).split(".")[0],)
        elif isinstance(node, ast.ExceptHandler):
            names = (node.name,)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)):
            names = (node.name,)
        elif isinstance(node, ast.MatchMapping):
            names = (node.rest,)
        elif isinstance(node, ast.arg):
            excluded.add(node.arg)  # a parameter (of func or of a nested scope)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            excluded.update(node.names)
        for n in names:
            if n is not None:
                counts[n] = counts.get(n, 0) + 1
    return frozenset(n for n, c in counts.items() if c == 1 and n not in excluded)
