"""Reads of a recorded dict (:mod:`.localdicts`) through its methods: ``d.values()`` and
``d.items()`` yield what its keys hold (joined: a tensor among other values is a tensor on
some paths), ``d.get("k")`` what the key ``"k"`` holds where the dict lists it.  A view
is live (a store into the dict while it is iterated shows through), so only a view that a
``for`` or a comprehension iterates at once counts, and only where that loop (the whole
statement, for a comprehension) stores nothing into the dict.  ``d`` is
a name bound to a dict that stays local, or a call that just made one (``self.out().items()``).
Only the kind travels, as for ``d["k"]``."""
from __future__ import annotations

import ast
from typing import Dict, Optional, cast

from . import localdicts
from .nodeindex import walk
from .values import NOT, NOT_VALUE, UNKNOWN_VALUE, Value

READS = frozenset({"values", "items", "get"})


def method_read(ev, node: ast.Call, recv: Value, m: str) -> Optional[Value]:
    """``d.values()``, ``d.items()``, ``d.get(k[, default])`` of a recorded dict ``recv``;
    None where it is no such dict or the read is another form."""
    held = cast(ast.Attribute, node.func).value
    entry = localdicts.entry_of(ev, recv)
    if entry is None or not isinstance(held, (ast.Name, ast.Call)) or node.keywords \
            or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    if isinstance(held, ast.Name) and not localdicts.stays_local(ev, held, entry):
        return None
    keys = cast(Dict[localdicts.Key, Value], entry.keys)
    if m == "get":
        k = localdicts.key_of(node.args[0]) if 1 <= len(node.args) <= 2 else None
        return keys[k] if k is not None and k in keys else None  # a listed key: its value, never the default
    if node.args or not _iterated_unchanged(ev, node, held):
        return None
    every = localdicts.join_all(list(keys.values()) + ([entry.rest] if entry.rest is not None else []))
    if every is None:
        return None
    if m == "values":
        return Value(NOT, item=every)
    key = NOT_VALUE if entry.rest is None else UNKNOWN_VALUE  # listed keys are str or int constants
    return Value(NOT, item=Value(NOT, elems=(key, every)))


_MUTATORS = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"})


def _iterated_unchanged(ev, node: ast.Call, held: ast.expr) -> bool:
    """Is the view ``node`` iterated at once (the ``iter`` of the statement's ``for`` or of a
    comprehension in it), by a loop that stores nothing into the dict ``held`` names (a
    call's dict: nothing stored into any subscript)?  Not in a generator expression or a
    lambda: those iterate after the statement (``g = (torch.tensor(v) for v in d.values())``,
    then ``d["b"] = xs``, then ``list(g)``)."""
    stmt = getattr(ev, "current_stmt", None)
    if isinstance(stmt, (ast.For, ast.AsyncFor)) and stmt.iter is node:
        return not any(_stores(s, held) for s in stmt.body)
    if stmt is None or not any(isinstance(c, ast.comprehension) and c.iter is node for c in walk(stmt)):
        return False
    return not _stores(stmt, held) and not any(
        isinstance(n, (ast.GeneratorExp, ast.Lambda)) and any(m is node for m in walk(n)) for n in walk(stmt))


def _stores(root: ast.AST, held: ast.expr) -> bool:
    name = held.id if isinstance(held, ast.Name) else None
    for n in walk(root):
        target = n.value if isinstance(n, ast.Subscript) and not isinstance(n.ctx, ast.Load) else \
            n.func.value if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
            and n.func.attr in _MUTATORS else None
        if target is not None and (name is None or isinstance(target, ast.Name) and target.id == name):
            return True
    return False
