"""The names a function's own scope binds, and those it binds by exactly one statement.

A name a function binds anywhere in its body is local in all of it (Python decides at
compile time): before the binding runs it is unbound (``UnboundLocalError``), never the
module's name of the same spelling. A nested scope (``def``, ``lambda``, generator) reads
the enclosing function's names when it runs, not when it is made: it may trust only names
bound by one statement.  :func:`local_names` gives both sets from one walk.
"""
from __future__ import annotations

import ast
from typing import Dict, Set, Tuple

from .nodeindex import walk

_BINDERS = frozenset({ast.Name, ast.alias, ast.arg, ast.Global, ast.Nonlocal, ast.MatchMapping, ast.FunctionDef,
                      ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler, ast.MatchAs, ast.MatchStar})


def local_names(func: ast.AST) -> Tuple[frozenset, frozenset]:
    """``(own_locals, bound_once)`` of ``func``, from one walk of its nodes.

    ``own_locals``: every name ``func``'s own scope binds (stores, ``del``, imports,
    ``def``/``class`` names, ``except``/``match`` captures, ``:=``) or declares
    ``global``/``nonlocal``, and its parameters; and, as one walk cannot tell scopes apart,
    the names its nested scopes bind too (a comprehension's targets, a nested def's
    parameters): a superset, which only makes more outer names unknown inside ``func``.

    ``bound_once``: the names ``func`` binds by exactly one statement, none a parameter,
    none declared ``global``/``nonlocal`` in it or in a scope nested in it, and bound
    nowhere else in its text (stores in nested scopes count too)."""
    counts: Dict[str, int] = {}
    excluded: Set[str] = set()
    for node in walk(func):
        cls = node.__class__
        if cls not in _BINDERS or node is func:
            continue
        if cls is ast.Name:
            if node.ctx.__class__ is ast.Load:  # type: ignore[attr-defined]
                continue
            name = node.id  # type: ignore[attr-defined]  # stores and del
        elif cls is ast.alias:
            name = (node.asname or node.name).split(".")[0]  # type: ignore[attr-defined]
        elif cls is ast.arg:
            excluded.add(node.arg)  # type: ignore[attr-defined]  # a parameter (of func or a nested scope)
            continue
        elif cls is ast.Global or cls is ast.Nonlocal:
            excluded.update(node.names)  # type: ignore[attr-defined]
            continue
        else:
            name = node.rest if cls is ast.MatchMapping else node.name  # type: ignore[attr-defined]
        if name:
            counts[name] = counts.get(name, 0) + 1
    once = frozenset(n for n, c in counts.items() if c == 1 and n not in excluded)
    return frozenset(counts).union(excluded), once
