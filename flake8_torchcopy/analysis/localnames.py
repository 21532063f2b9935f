"""The names a function's own scope binds, and those it binds by exactly one statement.

A name a function binds anywhere in its body is local in all of it (Python decides at
compile time): before the binding runs it is unbound (``UnboundLocalError``), never the
module's name of the same spelling (:func:`own_locals`). A nested scope (``def``,
``lambda``, generator) reads the enclosing function's names when it runs, not when it is
made: it may trust only names bound by one statement (:func:`bound_once`).
"""
from __future__ import annotations

import ast
from typing import Dict, Sequence, Set

from .nodeindex import walk

_BINDERS = frozenset({ast.Name, ast.alias, ast.arg, ast.Global, ast.Nonlocal, ast.MatchMapping, ast.FunctionDef,
                      ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler, ast.MatchAs, ast.MatchStar})


def own_locals(func: ast.AST) -> frozenset:
    """Every name ``func``'s own scope binds (stores, ``del``, imports, ``def``/``class``
    names, ``except``/``match`` captures, ``:=``) or declares ``global``/``nonlocal``, and
    its parameters; and, as one fast walk cannot tell scopes apart, the names its nested
    scopes bind too (a comprehension's targets, a nested def's parameters): a superset,
    which only makes more outer names unknown inside ``func``."""
    out: Set[str] = set()
    for node in walk(func):
        cls = node.__class__
        if cls not in _BINDERS or node is func:
            continue
        if cls is ast.Name:
            if node.ctx.__class__ is not ast.Load:  # type: ignore[attr-defined]
                out.add(node.id)  # type: ignore[attr-defined]
        elif cls is ast.alias:
            out.add((node.asname or node.name).split(".")[0])  # type: ignore[attr-defined]
        elif cls is ast.arg:
            out.add(node.arg)  # type: ignore[attr-defined]
        elif cls is ast.Global or cls is ast.Nonlocal:
            out.update(node.names)  # type: ignore[attr-defined]
        else:
            name = node.rest if cls is ast.MatchMapping else node.name  # type: ignore[attr-defined]
            if name:
                out.add(name)
    return frozenset(out)


def bound_once(func: ast.AST) -> frozenset:
    """Names ``func`` binds by exactly one statement, none a parameter, none declared
    ``global``/``nonlocal`` in it or in a scope nested in it, and bound nowhere else in
    its text (stores in nested scopes count too)."""
    counts: Dict[str, int] = {}
    excluded = set()
    for node in walk(func):
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
