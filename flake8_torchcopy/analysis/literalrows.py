"""Rows of a local list: ``torch.tensor(pairs)`` of a list filled only with ``k``-item displays.

``pairs = []`` then ``pairs += [[i, j], [j, i]]`` (or ``pairs.append((i, j))``) in a loop:
every item the list ever holds is a fresh list or tuple display of ``k`` items, so
``torch.tensor(pairs)`` is ``(E, k, ...)`` (rank 2 when the items are numbers; their
values are not known, so the rank is left open, :attr:`~.values.Value.open_layout`),
and ``(0,)`` when nothing was added (an empty tensor: every view of as many elements
works; the value's :attr:`~.values.Value.assumes` says "unless the list is empty").
:func:`row_length` proves it from the scope's text: every binding of the name
is a display of such items, every other use is ``+=``/``.append`` of such items,
``len``, a test, or the constructor call itself.  Iteration is refused (an item read
out may be grown: ``for p in pairs: p.append(0)``), and so is every form
:func:`.locallists.list_stays_local` refuses.
"""
from __future__ import annotations

import ast
from typing import List, Optional, Set

from . import layout as L
from .locallists import every_use
from .methodlayouts import dim_size, rest_size
from .scopes import enclosing_scope
from .symbolic import Condition, Mono
from .values import TENSOR, Value


def _rows(node: ast.AST, k: Set[int]) -> bool:
    """A list display whose items are all list/tuple displays of one length (added to ``k``)."""
    if not isinstance(node, ast.List):
        return False
    for e in node.elts:
        if not _row(e, k):
            return False
    return True


def _row(node: ast.AST, k: Set[int]) -> bool:
    if not isinstance(node, (ast.List, ast.Tuple)) or any(isinstance(e, ast.Starred) for e in node.elts):
        return False
    k.add(len(node.elts))
    return True


def row_length(scope: ast.AST, name: str, call: ast.Call, source_text: str) -> Optional[int]:
    """``k`` when every item the list ``name`` holds in ``scope`` (a function or the module)
    is a fresh display of ``k`` items and nothing but the statements of ``scope`` fills it
    (``call`` is the one read of it allowed besides ``len`` and tests); else None."""
    k: Set[int] = set()
    stored: List[ast.Name] = []

    def store(node: ast.Name, parent: ast.AST, parents) -> bool:
        stored.append(node)
        return _store(node, parent, parents, k)

    def load(node: ast.Name, parent: ast.AST, parents) -> bool:
        return _read(node, parent, parents, call, k)

    if not every_use(scope, name, source_text, store, load):
        return None
    return k.pop() if stored and len(k) == 1 and 0 not in k else None


def _store(node: ast.Name, parent: ast.AST, parents, k: Set[int]) -> bool:
    if isinstance(parent, ast.AugAssign):  # pairs += [[i, j], [j, i]]
        return isinstance(parent.op, ast.Add) and _rows(parent.value, k)
    if isinstance(parent, ast.Assign) and node in parent.targets:
        return _rows(parent.value, k)
    if isinstance(parent, ast.AnnAssign) and parent.value is not None:
        return _rows(parent.value, k)
    stmt = parents.get(id(parent))
    if isinstance(parent, ast.Tuple) and isinstance(stmt, ast.Assign) and parent in stmt.targets \
            and isinstance(stmt.value, (ast.Tuple, ast.List)) and len(stmt.value.elts) == len(parent.elts) \
            and not any(isinstance(e, ast.Starred) for e in parent.elts + stmt.value.elts):
        return _rows(stmt.value.elts[parent.elts.index(node)], k)  # pairs, attrs = [], []
    return False


def _read(node: ast.Name, parent: ast.AST, parents, call: ast.Call, k: Set[int]) -> bool:
    if isinstance(parent, ast.Attribute) and parent.attr == "append":
        c = parents.get(id(parent))
        return isinstance(c, ast.Call) and c.func is parent and isinstance(parents.get(id(c)), ast.Expr) \
            and len(c.args) == 1 and not c.keywords and _row(c.args[0], k)
    if isinstance(parent, ast.Call) and node in parent.args:
        return parent is call or isinstance(parent.func, ast.Name) and parent.func.id == "len"
    if isinstance(parent, (ast.If, ast.While, ast.IfExp)) and parent.test is node:
        return True
    return isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)


def rows_tensor(ev, call: ast.Call, tree: Optional[ast.AST]) -> Optional[Value]:
    """The value of ``torch.tensor(name, ...)`` when ``name`` is such a list: sizes
    ``(len, k)`` then the rest, contiguous, the rank left open."""
    arg = call.args[0] if call.args else None
    if not isinstance(arg, ast.Name) or tree is None:
        return None
    scope = enclosing_scope(tree, call)
    scope_text = ev.source if isinstance(scope, ast.Module) else ev.idx.text(scope)
    k = row_length(scope, arg.id, call, scope_text)
    if k is None:
        return None
    holder = Value(TENSOR)
    text = ev.idx.text(call)
    sizes = (dim_size(f"{text}.size(0)", holder, 0), Mono.const(k), rest_size(text, holder, 2))
    # an empty list makes shape (0,), not (0, k): a report then names that case itself
    return Value(TENSOR, open_layout=(sizes, L.contiguous_strides(sizes)),
                 assumes=frozenset({Condition(f"{arg.id} is empty")}))
