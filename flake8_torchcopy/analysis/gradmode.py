"""Is autograd recording certainly off where a node runs?

Under ``torch.no_grad()``, ``torch.inference_mode()`` and ``torch.set_grad_enabled(False)``
no operation records a graph node (checked with torch in ``tests/test_grad_mode.py``),
so a rule whose point is a node thrown away (``t.clone().detach()``) has nothing to say
there.  Lexical only: the node must sit in the body of such a ``with`` in its own
function, or in a function decorated with one, with no ``with`` between them that turns
recording back on (``torch.enable_grad()``, ``set_grad_enabled(x)`` for anything but a
literal ``False``, ``inference_mode(x)`` for anything but ``True``).  A function that
calls ``set_grad_enabled`` as a statement, a generator expression or a lambda in between
(they may run later, elsewhere), a ``yield`` or ``await`` in the function (what follows
runs under the mode of whoever resumes it), a coroutine, or a name the lookup does not
resolve to torch's managers: not known to be off.
"""
from __future__ import annotations

import ast
from typing import Any, Callable, List, Optional

#: managers that turn recording off when entered with no arguments
_OFF = frozenset({
    "torch.no_grad", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad",
    "torch.inference_mode", "torch.autograd.inference_mode", "torch.autograd.grad_mode.inference_mode",
})
_SET = frozenset({"torch.set_grad_enabled", "torch.autograd.set_grad_enabled",
                  "torch.autograd.grad_mode.set_grad_enabled"})
_ON = frozenset({"torch.enable_grad", "torch.autograd.enable_grad", "torch.autograd.grad_mode.enable_grad"})
#: scopes whose body may run later than the code around them
_LATER = (ast.Lambda, ast.GeneratorExp, ast.ClassDef)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)

Qualname = Callable[[ast.AST], Optional[str]]


def _path(tree: ast.AST, target: ast.AST) -> Optional[List[ast.AST]]:
    """The nodes from ``tree`` down to ``target`` (both included), found by position."""
    t = (target.lineno, target.col_offset, target.end_lineno, target.end_col_offset)  # type: ignore[attr-defined]
    path, node = [tree], tree
    while node is not target:
        for child in ast.iter_child_nodes(node):
            if child is target:
                node = child
                break
            if not hasattr(child, "end_lineno"):
                continue  # arguments, operators: no position, never an ancestor of a call
            c: Any = child  # positioned: an expression or a statement
            if (c.lineno, c.col_offset) <= t[:2] and t[2:] <= (c.end_lineno, c.end_col_offset):
                node = child
                break
        else:
            return None
        path.append(node)
    return path


def _effect(expr: ast.AST, qualname: Qualname) -> Optional[bool]:
    """False: entering ``expr`` (a ``with`` item or a decorator) turns recording off;
    True: it may turn it on; None: it leaves it as it is (as far as torch's managers go)."""
    call = expr if isinstance(expr, ast.Call) else None
    q = qualname(call.func if call is not None else expr)
    if q is None:
        return None
    args = [] if call is None else list(call.args) + [k.value for k in call.keywords]
    if q in _OFF:
        if call is None or not args:
            return False
        if q.endswith("inference_mode") and len(args) == 1 and _literal(args[0], True):
            return False
        return True
    if q in _SET:
        return False if call is not None and len(args) == 1 and _literal(args[0], False) else True
    if q in _ON:
        return True
    return None


def _literal(node: ast.AST, value: bool) -> bool:
    return isinstance(node, ast.Constant) and node.value is value


def _sets_mode(function: ast.AST, qualname: Qualname) -> bool:
    """May the function change the mode other than by a ``with`` item: a call of
    ``set_grad_enabled``, ``enable_grad``, ``inference_mode`` anywhere else (``prev =
    torch.set_grad_enabled(True)``), any ``__enter__``, or a ``yield``/``await`` (the code
    after it runs under the mode of whoever resumes it)?"""
    managers = {id(item.context_expr) for n in ast.walk(function) if isinstance(n, (ast.With, ast.AsyncWith))
                for item in n.items}
    managers |= {id(d) for n in ast.walk(function) if isinstance(n, _FUNCTIONS) for d in n.decorator_list}
    for n in ast.walk(function):
        if isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)):
            return True
        if isinstance(n, ast.Call) and id(n) not in managers:
            if isinstance(n.func, ast.Attribute) and n.func.attr == "__enter__":
                return True
            q = qualname(n.func)
            if q is not None and any(w in q for w in ("grad_enabled", "enable_grad", "inference_mode")):
                return True
    return False


def recording_off(tree: ast.AST, target: ast.AST, qualname: Qualname) -> bool:
    """Is autograd recording certainly off when ``target`` runs (see the module's doc)?"""
    path = _path(tree, target)
    if path is None:
        return False
    for i in range(len(path) - 2, -1, -1):
        node, child = path[i], path[i + 1]
        if isinstance(node, _LATER):
            return False
        if isinstance(node, (ast.With, ast.AsyncWith)) and child in node.body:
            effects = [_effect(item.context_expr, qualname) for item in node.items]
            if True in effects:
                return False
            if False in effects:
                return not _sets_mode(_function_of(path, i), qualname)
        if isinstance(node, _FUNCTIONS):
            if child not in node.body or isinstance(node, ast.AsyncFunctionDef):
                return False  # a default or a decorator runs where the def runs; a coroutine's
                # body runs later, outside the decorator's manager
            effects = [_effect(d, qualname) for d in node.decorator_list]
            return effects[-1:] == [False] and True not in effects and not _sets_mode(node, qualname)
    return False


def _function_of(path: List[ast.AST], i: int) -> ast.AST:
    """The innermost function (or the module) holding ``path[i]``."""
    for node in reversed(path[:i]):
        if isinstance(node, _FUNCTIONS):
            return node
    return path[0]
