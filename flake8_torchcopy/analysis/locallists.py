"""Local lists: is a list one the analysis has seen filled in full?

:func:`list_stays_local` proves that a name in a function (or the module) is only ever
bound to a fresh list and only read by ``name.append(x)`` statements, ``len``, tests,
iteration and calls the caller accepts, so no other name holds the list and the appends
the evaluator saw (:func:`.numpyish.appended`) are all its items;
:func:`enclosing_scope` finds the scope that holds a node.
"""
from __future__ import annotations

import ast
from typing import Any, Dict, List, Optional, Tuple, cast

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


_DYNAMIC = ("locals(", "globals(", "vars(", "exec(", "eval(", "__dict__")


Uses = List[Tuple[ast.Name, ast.AST]]  # each occurrence of the name, with its parent
Parents = Dict[int, ast.AST]  # id(node) -> its parent


def uses_in_scope(scope: ast.AST, name: str, source_text: str) -> Optional[Tuple[Uses, Parents]]:
    """Every occurrence of ``name`` in ``scope`` (a function or the module) with its parent,
    and the parent of each node walked; None where the scope is not followed: a class body
    or a lambda, ``locals()``-like access, ``name`` a parameter or declared
    ``global``/``nonlocal``, or used (or defined) in a nested scope."""
    if any(d in source_text for d in _DYNAMIC):
        return None
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        return None
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = scope.args
        if any(p.arg == name for p in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]):
            return None
    uses: Uses = []
    parents: Parents = {}
    stack: List[Tuple[ast.AST, ast.AST]] = [(s, scope) for s in scope.body]
    while stack:
        node, parent = stack.pop()
        parents[id(node)] = parent
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return None
        if isinstance(node, _SCOPES):
            if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node)) \
                    or not isinstance(node, ast.Lambda) and node.name == name:
                return None
            continue
        if isinstance(node, ast.Name) and node.id == name:
            uses.append((node, parent))
        for child in ast.iter_child_nodes(node):
            stack.append((child, node))
    return uses, parents


def list_stays_local(scope: ast.AST, name: str, source_text: str, constructors) -> bool:
    """Is ``name`` in ``scope`` (a function or the module) only ever bound to a fresh list
    (``name = [...]``, ``name = [... for ...]``) and only read by ``name.append(x)``
    statements, ``len(name)``, ``if name:``, iteration, and calls of ``constructors``
    (qualified-name check by the caller's ``constructors(call)``)?  Then no other name
    holds the list and nothing but those appends fills it: the analysis has seen every
    item.  What :func:`uses_in_scope` does not follow, and ``del``, refuse it."""
    found = uses_in_scope(scope, name, source_text)
    if found is None:
        return False
    uses, parents = found
    for node, parent in uses:
        if isinstance(node.ctx, ast.Store):
            if not (isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is not None
                    and isinstance(parent.value, (ast.List, ast.ListComp))
                    and (getattr(parent, "target", None) is node or node in getattr(parent, "targets", ()))):
                return False
        elif not (isinstance(node.ctx, ast.Load) and _allowed_read(node, parent, parents, constructors)):
            return False  # del
    return any(isinstance(node.ctx, ast.Store) for node, _ in uses)


_DICT_READS = frozenset({"keys", "values", "items", "get", "copy"})


def dict_sources(scope: ast.AST, name: str, source_text: str) -> Optional[frozenset]:
    """The ids of the expressions ``name`` is bound to in ``scope`` when each binding is
    ``name = {...}`` or ``name = <call>`` (a single target) and each read of ``name`` is
    ``name[k]``, a call of ``name.keys``/``values``/``items``/``get``/``copy``, a test,
    ``k in name``, iteration or ``return name``: no other name holds the dict, nothing
    stores into it.  None otherwise (and where :func:`uses_in_scope` does not follow)."""
    found = uses_in_scope(scope, name, source_text)
    if found is None:
        return None
    uses, parents = found
    sources = set()
    for node, parent in uses:
        if isinstance(node.ctx, ast.Store):
            if isinstance(parent, ast.Assign) and parent.targets == [node] \
                    or isinstance(parent, ast.AnnAssign) and parent.target is node and parent.value is not None:
                if isinstance(parent.value, (ast.Dict, ast.Call)):
                    sources.add(id(parent.value))
                    continue
            return None
        if not (isinstance(node.ctx, ast.Load) and _dict_read(node, parent, parents)):
            return None  # del
    return frozenset(sources) if sources else None


def _dict_read(node: ast.Name, parent: ast.AST, parents) -> bool:
    if isinstance(parent, ast.Subscript) and parent.value is node:
        return isinstance(parent.ctx, ast.Load)
    if isinstance(parent, ast.Attribute) and parent.attr in _DICT_READS:
        call = parents.get(id(parent))
        return isinstance(call, ast.Call) and call.func is parent
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)) and parent.iter is node:
        return True
    if isinstance(parent, (ast.If, ast.While, ast.IfExp)) and parent.test is node:
        return True
    if isinstance(parent, ast.Compare) and node in parent.comparators:
        return all(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)
    if isinstance(parent, ast.Return) and parent.value is node:
        return True
    return isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)


def _allowed_read(node: ast.Name, parent: ast.AST, parents, constructors) -> bool:
    if isinstance(parent, ast.Attribute) and parent.attr == "append":
        call = parents.get(id(parent))
        return isinstance(call, ast.Call) and call.func is parent and isinstance(parents.get(id(call)), ast.Expr)
    if isinstance(parent, ast.Call) and node in parent.args:
        return (isinstance(parent.func, ast.Name) and parent.func.id == "len") or constructors(parent)
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)) and parent.iter is node:
        return True
    if isinstance(parent, (ast.If, ast.While, ast.IfExp)) and parent.test is node:
        return True
    return isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)


def enclosing_scope(tree: ast.AST, target: ast.AST) -> ast.AST:
    """The innermost function, lambda or class whose body holds ``target``, or the module.
    (Asked only for a call a rule is about to report: it walks down one path.)"""
    scope, node = tree, tree
    while True:
        for child in ast.iter_child_nodes(node):
            if child is target:
                return scope
            if _contains(child, target):
                if isinstance(child, _SCOPES):
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
