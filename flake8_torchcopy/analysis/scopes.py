"""The scope of each node, for the attribute summaries: module, class body or function.

:func:`_scoped_nodes` walks the nodes of chosen lines of a module with the
:class:`_Scope` each one is in: its kind, the parameter that holds the instance in a
method (and in functions nested in one) and the class, so that ``self.x = ...`` is
told from a store on another object.  Annotations form a scope of their own
(:data:`_ANNOTATION`).  :func:`enclosing_scope` finds the function, lambda or class
whose body holds a node, entering only the nodes whose span holds it.
"""
from __future__ import annotations

import ast
from typing import Any, Dict, List, Optional, Set, Tuple, cast

from .closedness import _spans_any
from .nodeindex import children

#: methods whose first parameter is the class, not an instance
_CLASS_FIRST = frozenset({"__new__", "__init_subclass__", "__class_getitem__"})


_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
#: the nodes that open a scope of their own for the names bound in them
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _first_param(func: ast.AST) -> Optional[str]:
    a = func.args  # type: ignore[attr-defined]
    params = a.posonlyargs + a.args
    return params[0].arg if params else None


def _decorator_names(func: ast.AST) -> Set[str]:
    out = set()
    for d in func.decorator_list:  # type: ignore[attr-defined]
        d = d.func if isinstance(d, ast.Call) else d
        if isinstance(d, ast.Name):
            out.add(d.id)
        elif isinstance(d, ast.Attribute):
            out.add(d.attr)
    return out


class _Scope:
    """Where the walk is: ``kind`` module/class/function; ``self_name``: the parameter that
    holds the instance (in a plain method, and in functions nested in one); ``cls``: that
    method's class; ``class_names``: parameters that hold a class (``cls`` of a class
    method, and in functions nested in one)."""

    __slots__ = ("kind", "self_name", "cls", "class_names")

    def __init__(self, kind: str, self_name: Optional[str] = None, cls: Optional[ast.ClassDef] = None,
                 class_names: frozenset = frozenset()) -> None:
        self.kind = kind
        self.self_name = self_name
        self.cls = cls
        self.class_names = class_names


_MODULE_SCOPE = _Scope("module")


_ANNOTATION = _Scope("annotation")  # a class named in an annotation is not passed around


def _params(func: ast.AST):
    a = func.args  # type: ignore[attr-defined]
    return a.posonlyargs + a.args + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p is not None]


def _names_in(node: ast.AST):
    """``C`` or the names of a tuple ``(A, B)``: the classes of an ``isinstance`` or ``except``."""
    if isinstance(node, ast.Name):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [e for e in node.elts if isinstance(e, ast.Name)]
    return []


def _children(node: ast.AST, scope: _Scope) -> List[Tuple[ast.AST, _Scope]]:
    """The child nodes of ``node``, each with the scope it is evaluated in: a function's
    decorators, defaults and annotations in the enclosing one, its body in its own."""
    t = type(node)
    if t in _FUNCS:
        a = node.args  # type: ignore[attr-defined]
        outer = list(node.decorator_list) + a.defaults + [d for d in a.kw_defaults if d is not None]  # type: ignore[attr-defined]
        notes = [p.annotation for p in _params(node) if p.annotation is not None]
        if node.returns is not None:  # type: ignore[attr-defined]
            notes.append(node.returns)  # type: ignore[attr-defined]
        params = {p.arg for p in _params(node)}
        first = _first_param(node)
        decorators = _decorator_names(node)
        name = node.name  # type: ignore[attr-defined]
        if scope.kind == "class" and "staticmethod" not in decorators:
            if "classmethod" in decorators or name in _CLASS_FIRST:
                inner = _Scope("function", None, scope.cls, scope.class_names | ({first} if first else set()))
            else:
                inner = _Scope("function", first, scope.cls, scope.class_names - params)
        else:
            inner = _Scope("function", None if scope.self_name in params else scope.self_name,
                           scope.cls, scope.class_names - params)
        return [(n, scope) for n in outer] + [(n, _ANNOTATION) for n in notes] \
            + [(s, inner) for s in node.body]  # type: ignore[attr-defined]
    if t is ast.ClassDef:
        outer = node.decorator_list + node.bases + [k.value for k in node.keywords]  # type: ignore[attr-defined]
        inner = _Scope("class", None, node, scope.class_names)  # type: ignore[arg-type]
        return [(n, scope) for n in outer] + [(s, inner) for s in node.body]  # type: ignore[attr-defined]
    if t is ast.Lambda:
        a = node.args  # type: ignore[attr-defined]
        params = {p.arg for p in _params(node)}
        inner = _Scope("function", None if scope.self_name in params else scope.self_name,
                       scope.cls, scope.class_names - params)
        return [(d, scope) for d in a.defaults + [d for d in a.kw_defaults if d is not None]] \
            + [(node.body, inner)]  # type: ignore[attr-defined]
    if t is ast.AnnAssign:
        return [(c, _ANNOTATION if c is node.annotation else scope)  # type: ignore[attr-defined]
                for c in ast.iter_child_nodes(node)]
    return [(c, scope) for c in ast.iter_child_nodes(node)]


def _scoped_nodes(tree: ast.AST, lines: Optional[List[int]]):
    """``(node, scope)`` for the nodes whose line span holds one of ``lines`` (sorted; every
    node when None), parents before their children, entering no node that spans none."""
    stack: List[Tuple[ast.AST, _Scope]] = [(tree, _MODULE_SCOPE)]
    while stack:
        node, scope = stack.pop()
        yield node, scope
        for child, inner in _children(node, scope):
            if lines is None or not hasattr(child, "lineno") or _spans_any(child, lines):
                stack.append((child, inner))


def enclosing_scope(tree: ast.AST, target: ast.AST) -> ast.AST:
    """:func:`walked_enclosing_scope`'s answer (the innermost function, lambda or class
    whose body holds ``target``, or ``tree``), found without walking whole subtrees: the
    search enters only nodes whose span holds ``target``'s start (or that have no span).
    Where that finds no path (spans that lie), it asks :func:`walked_enclosing_scope`,
    which also walks down only through such nodes, so both agree."""
    if not hasattr(target, "lineno"):
        return walked_enclosing_scope(tree, target)
    at = (target.lineno, target.col_offset)  # type: ignore[attr-defined]
    parent: Dict[int, ast.AST] = {}
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in children(node):  # the target is never a Load/Store
            if child is target:
                while node is not tree:
                    if isinstance(node, SCOPES):
                        return node
                    node = parent[id(node)]
                return tree
            if hasattr(child, "end_lineno") and not (
                    (child.lineno, child.col_offset) <= at  # type: ignore[attr-defined]
                    <= (child.end_lineno, child.end_col_offset)):  # type: ignore[attr-defined]
                continue
            parent[id(child)] = node
            stack.append(child)
    return walked_enclosing_scope(tree, target)


def walked_enclosing_scope(tree: ast.AST, target: ast.AST) -> ast.AST:
    """The innermost function, lambda or class whose body holds ``target``, or the module, by
    walking down every child that holds it (the reference :func:`enclosing_scope` agrees with)."""
    scope, node = tree, tree
    while True:
        for child in ast.iter_child_nodes(node):
            if child is target:
                return scope
            if _contains(child, target):
                if isinstance(child, SCOPES):
                    scope = child
                node = child
                break
        else:
            return scope


def _contains(node: ast.AST, target: ast.AST) -> bool:
    if hasattr(node, "end_lineno") and hasattr(target, "lineno"):
        n, t = cast(Any, node), cast(Any, target)  # expression or statement nodes: positioned
        if not (n.lineno, n.col_offset) <= (t.lineno, t.col_offset) <= (n.end_lineno, n.end_col_offset):
            return False
    return any(n is target for n in ast.walk(node))
