"""Cheaper walks of a tree for the module scans: one index of a module's nodes, shared.

:func:`walk` gives ``ast.walk``'s nodes in ``ast.walk``'s order (breadth first) without the
``Load``/``Store``/``Del`` leaves, which no scan reads as nodes, about twice as fast (each
class's fields that can hold a node are listed once; no generators).  :func:`select` gives
the nodes of some classes of a whole module, in that same order, from one list of the
module's nodes made by the first scan that asks and kept on the tree's node (it goes with
the tree: never in a module global, which would keep a tree alive after its lint; the list
leaves out the root, so the tree and its list make no reference cycle).  A scan whose loop
does nothing for a node of another class sees the same nodes in the same order as over
``ast.walk``, so it keeps its meaning where it depends on the order or stops early.
"""
from __future__ import annotations

import ast
from typing import Callable, Dict, List, Optional, Tuple

#: fields that never hold a node (names, numbers, flags) and the contexts of names
_NO_NODE = frozenset({"ctx", "id", "attr", "arg", "name", "module", "level", "kind", "type_comment",
                      "asname", "is_async", "conversion", "simple", "tag", "rest", "kwd_attrs"})
_INDEX = "_torchcopy_nodes"  # the tree's own attribute that holds the list of its nodes
#: what a field holds that is not a node (a name, a number, a flag, None)
_PLAIN = frozenset({type(None), str, int, bool, float, complex, bytes, type(...)})
#: lists that may hold what is not a node: names (``global x``), None (the key of a ``**d``,
#: a keyword-only parameter without default)
_MIXED = frozenset({("Global", "names"), ("Nonlocal", "names"), ("Dict", "keys"), ("arguments", "kw_defaults")})


class _Fields(dict):
    """``node class -> ((field, may hold what is not a node), ...)`` for its fields that may
    hold nodes, made at the first node of the class (``table[cls]``: no call after)."""

    def __missing__(self, cls: type) -> Tuple[Tuple[str, bool], ...]:
        fields = self[cls] = tuple((f, (cls.__name__, f) in _MIXED) for f in cls._fields  # type: ignore[attr-defined]
                                   if f not in _NO_NODE and not (cls is ast.Constant and f == "value"))
        return fields


_FIELDS = _Fields()


def _walk_from(out: List[ast.AST]) -> List[ast.AST]:
    """Extend ``out`` (nodes of one level) breadth first with everything below them."""
    known, append, extend, plain, AST = _FIELDS, out.append, out.extend, _PLAIN, ast.AST
    # (the loop of :func:`children`, written out: a call per node would cost most of the gain;
    # the fields read off the node's ``__dict__``, a list's nodes added at once: no call per
    # field or node)
    for n in out:  # the list grows as it is read: a queue, in ``ast.walk``'s order
        d = n.__dict__
        for f, mixed in known[n.__class__]:
            if f in d:
                v = d[f]
                if v.__class__ is list:
                    if mixed:
                        extend([x for x in v if isinstance(x, AST)])
                    elif v:
                        extend(v)
                elif v.__class__ not in plain:
                    append(v)
    return out


def walk(node: ast.AST) -> List[ast.AST]:
    """``list(ast.walk(node))`` without the expression contexts (``Load``...)."""
    return _walk_from([node])


def children(node: ast.AST) -> List[ast.AST]:
    """``list(ast.iter_child_nodes(node))`` without the expression contexts."""
    out: List[ast.AST] = []
    d = node.__dict__
    for f, mixed in _FIELDS[node.__class__]:
        if f in d:
            v = d[f]
            if v.__class__ is list:
                if mixed:
                    out.extend([x for x in v if isinstance(x, ast.AST)])
                elif v:
                    out.extend(v)
            elif v.__class__ not in _PLAIN:
                out.append(v)
    return out


def select(tree: ast.AST, classes: Tuple[type, ...]) -> List[ast.AST]:
    """The nodes of ``tree`` below its root whose class is one of ``classes`` (exactly: a
    parsed tree holds no subclass of a node class), in ``ast.walk``'s order."""
    nodes: Optional[List[ast.AST]] = tree.__dict__.get(_INDEX)
    if nodes is None:
        nodes = tree.__dict__[_INDEX] = _walk_from(children(tree))
    wanted = frozenset(classes)
    return [n for n in nodes if n.__class__ in wanted]


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def parents(node: ast.AST) -> Dict[int, ast.AST]:
    """``id(child) -> parent`` for every node under ``node``."""
    out: Dict[int, ast.AST] = {}
    for n in ast.walk(node):
        for c in ast.iter_child_nodes(n):
            out[id(c)] = n
    return out


def is_generator(func: ast.AST) -> bool:
    """Does ``func``'s own body (not a scope nested in it) hold a ``yield``/``yield from``?"""
    todo = list(func.body)  # type: ignore[attr-defined]
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(n, _SCOPES):
            todo.extend(children(n))
    return False


class Handlers(dict):
    """``node class -> walker.<prefix><class name>`` (None where the walker class has none),
    each looked up once; ``table[cls]`` is then no call (asked for every node walked).  The
    functions are unbound: bound methods would make every walker a reference cycle, its
    tree freed only by the garbage collector."""

    def __init__(self, walker: type, prefix: str) -> None:
        super().__init__()
        self.walker, self.prefix = walker, prefix

    def __missing__(self, cls: type) -> Optional[Callable]:
        handler = self[cls] = getattr(self.walker, self.prefix + cls.__name__, None)
        return handler
