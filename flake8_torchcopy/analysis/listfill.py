"""Lists filled by index: ``xs = [None] * n`` then ``xs[i] = t``.

A list repeated from a one-item display (``[None] * n``, ``n * [0.0]``; ``n`` an int: a
literal, ``len(...)`` or a size) or built by ``[c for _ in range(n)]`` holds that item in
every slot (:func:`repeated`).  A statement ``xs[k] = v`` (:func:`stored`) puts ``v`` in one
slot: the list's items are then what it held joined with ``v`` (a literal's item at a
constant index, ``-1`` and ``True`` too, is replaced), so a ``None`` not known to be
overwritten keeps the items a tensor on some paths only.  :func:`.locallists.list_reads_safe`
trusts such values only where every store into the list is such a statement.

:func:`fill_target` and :func:`filled` prove every slot overwritten: a loop
``for i in range(len(xs))`` (or ``range(n)`` over the ``n`` of ``xs = [c] * n``, the same
block, nothing between them storing ``n``, ``xs`` unchanged since) whose body stores
``xs[i] = v`` as a statement of its own, with no ``continue`` before it, no ``break``, no
other store, append or rebinding of ``xs`` and no store of ``i`` before it.  After such a
loop completes the items are only what the loop stored (walked to the loop's fixpoint).

:func:`slot` reads back what ``xs[k] = v`` stored (``v`` not proven a tensor; ``k`` an int
literal or a local name bound nowhere after) while the list is the very value that store made:
no other store, append or join happened between, so ``xs[k]`` is ``v`` however the other
items were filled (``xs[i] = [..]; xs[i] = torch.tensor(xs[i])`` in a loop).
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Tuple, cast

from ..source import word_offsets
from .locallists import uses_in_scope
from .methodlayouts import const_int
from .modulescan import builtin
from .nodeindex import children, walk
from .values import NOT, UNKNOWN, Value, join

_UNFILLED = "_unfilled_lists"  # ev.__dict__: serial of a repeated list -> (its statement, n's name)
_ACC = "_fill_stores"  # ev.__dict__: id(store target) -> what the loop being walked stored there
_SLOTS = "_slot_stores"  # ev.__dict__: serial of a list a store made -> (the key, what it stored)


def _an_int(ev, node: ast.AST, names: bool = True) -> bool:
    """Is ``node`` certainly an int (so ``[c] * node`` is a list, not what an ``__rmul__``
    makes): an int literal, ``len(...)``, a size, or a local name every binding of which is
    ``n = <one of those>``?"""
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
            and len(node.args) == 1 and not node.keywords:
        return builtin(ev, "len")
    v = ev.cache.get(id(node))
    if v is not None and v.kind == NOT and v.mono is not None and v.array is None:
        return True
    if not names or not isinstance(node, ast.Name) or node.id in ev.volatile or node.id not in ev.env:
        return False
    scope = ev.tree if ev.in_module_body else ev.closure_func
    text = ev.source if ev.in_module_body else ev.idx.text(scope) if scope is not None else ""
    found = uses_in_scope(scope, node.id, text) if scope is not None else None
    if found is None:
        return False
    stores = [(n, p) for n, p in found[0] if not isinstance(n.ctx, ast.Load)]
    return bool(stores) and all(isinstance(p, ast.Assign) and p.targets == [n] and _an_int(ev, p.value, False)
                                for n, p in stores)


def repeated(ev, nodes: Tuple[Optional[ast.AST], Optional[ast.AST]], left: Value, right: Value) -> Optional[Value]:
    """``[c] * n`` or ``n * [c]`` (``nodes``: the operands; a one-item display, ``n`` certainly
    an int): a list holding ``c`` in every slot; None for any other product."""
    display, count, held = (nodes[0], nodes[1], left) if isinstance(nodes[0], ast.List) \
        else (nodes[1], nodes[0], right)
    if not isinstance(display, ast.List) or len(display.elts) != 1 or held.elems is None \
            or isinstance(display.elts[0], ast.Starred) or count is None or not _an_int(ev, count):
        return None
    stmt = getattr(ev, "current_stmt", None)
    made = isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.BinOp) \
        and stmt.value.left is nodes[0] and stmt.value.right is nodes[1]
    return _record(ev, made, held.elems[0], count)


def comprehended(ev, node: ast.ListComp, elt: Optional[Value]) -> Optional[Value]:
    """``[c for _ in range(n)]`` (one generator, no test): a list of ``c`` in every slot."""
    if elt is None or len(node.generators) != 1:
        return None
    gen = node.generators[0]
    it = gen.iter
    if gen.ifs or gen.is_async or not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                                       and it.func.id == "range" and len(it.args) == 1
                                       and not it.keywords and builtin(ev, "range")):
        return None
    stmt = getattr(ev, "current_stmt", None)
    return _record(ev, isinstance(stmt, ast.Assign) and stmt.value is node, elt, it.args[0])


def _record(ev, made: bool, item: Value, count: ast.AST) -> Value:
    """The list value; the count's name kept where the statement walked (``xs = [c] * n``)
    made it, all of its value."""
    out = Value(NOT, item=item, mutable=True)
    if made and isinstance(count, ast.Name):
        ev.__dict__.setdefault(_UNFILLED, {})[out.serial] = (ev.current_stmt, count.id)
    return out


def stored(ev, target: ast.Subscript, held: Value) -> Optional[Value]:
    """The list ``xs`` after ``xs[k] = v`` (``held``: v's value); None where ``xs`` is no list
    whose items are followed, or ``k`` a slice."""
    if not isinstance(target.value, ast.Name) or isinstance(target.slice, ast.Slice):
        return None
    cur = ev.env.get(target.value.id)
    if cur is None or cur.kind != NOT or not cur.mutable or (cur.elems is None and cur.item is None):
        return None
    acc: Dict[int, Optional[Value]] = ev.__dict__.get(_ACC) or {}
    if id(target) in acc:
        prev = acc[id(target)]
        acc[id(target)] = held if prev is None else join(prev, held)
    k = const_int(target.slice)  # xs[1], xs[-1]; xs[True] is xs[1]
    if k is None and isinstance(target.slice, ast.Constant) and type(target.slice.value) is bool:
        k = int(target.slice.value)
    if cur.elems is not None and k is not None and -len(cur.elems) <= k < len(cur.elems):
        elems = list(cur.elems)
        elems[k] = held
        return Value(NOT, elems=tuple(elems), mutable=True)
    before = ev.element_of(cur)
    out = Value(NOT, item=join(before, held), mutable=True)
    key = _slot_key(target.slice)
    if key is not None and held.kind in (NOT, UNKNOWN):  # a read is then never more a tensor
        ev.__dict__.setdefault(_SLOTS, {})[out.serial] = (key, held)
    return out


def _slot_key(sl: ast.AST) -> Optional[tuple]:
    k = const_int(sl)
    if k is not None:
        return ("int", k)
    return ("name", sl.id, (sl.lineno, sl.col_offset)) if isinstance(sl, ast.Name) else None


def slot(ev, node: ast.Subscript, base: Value) -> Optional[Value]:
    """``xs[k]`` read while ``base`` is the list ``xs[k] = v`` made, ``k`` the same literal or
    a local name bound nowhere in its scope after that store (nor a parameter, nor used in a
    nested scope: a loop may rebind it before it comes back to the read): ``v`` (lists
    inside it forgotten); else None."""
    got = (ev.__dict__.get(_SLOTS) or {}).get(base.serial)
    key = _slot_key(node.slice) if got is not None else None
    if got is None or key is None or key[:2] != got[0][:2]:
        return None
    if key[0] == "name" and not _unbound_after(ev, key[1], got[0][2]):
        return None
    held = got[1]
    return held.with_(elems=None, item=None) if held.mutable else held


def _unbound_after(ev, name: str, since: Tuple[int, int]) -> bool:
    """Is the local ``name`` bound nowhere in the scope walked after the place ``since``?"""
    scope = ev.tree if ev.in_module_body else ev.closure_func
    if scope is None or name in ev.volatile:
        return False
    found = uses_in_scope(scope, name, ev.source if ev.in_module_body else ev.idx.text(scope))
    return found is not None and not any(
        not isinstance(n.ctx, ast.Load) and (n.lineno, n.col_offset) > since for n, _p in found[0])


def _own_jumps(stmts: List[ast.stmt], kinds: tuple) -> bool:
    """Does a ``break``/``continue`` (of ``kinds``) of the loop these statements belong to
    occur in them (not in a loop or scope nested in them)?"""
    stack: List[ast.AST] = list(stmts)
    while stack:
        n = stack.pop()
        if isinstance(n, kinds):
            return True
        if isinstance(n, (ast.For, ast.AsyncFor, ast.While)):
            stack.extend(n.orelse)  # a nested loop's else belongs to the outer loop
            continue
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(children(n))
    return False


def _only_loads(ev, nodes: List[ast.AST], name: str) -> bool:
    """Is every occurrence of the word ``name`` in the text of ``nodes`` a ``Name`` that reads it?"""
    text = "\n".join(ev.idx.text(n) for n in nodes)
    words = sum(1 for _ in word_offsets(text, name))
    loads = sum(1 for n in nodes for x in walk(n) if isinstance(x, ast.Name) and x.id == name
                and isinstance(x.ctx, ast.Load))
    return words == loads


def fill_target(ev, s: ast.AST) -> Optional[Tuple[str, ast.Subscript]]:
    """For a loop ``s`` that stores every slot of a list (module docstring): the list's name
    and the store's target; None otherwise.  Asked before the loop is walked."""
    if not isinstance(s, ast.For) or s.orelse or not isinstance(s.target, ast.Name):
        return None
    it = s.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
            and len(it.args) == 1 and not it.keywords and builtin(ev, "range")):
        return None
    arg = it.args[0]
    i = s.target.id
    if i in ev.volatile:
        return None
    pos = next((p for p, st in enumerate(s.body) if _store_at(st, i)), None)
    if pos is None:
        return None
    st = cast(ast.Assign, s.body[pos])
    t = cast(ast.Subscript, st.targets[0])
    xs = cast(ast.Name, t.value).id
    if _own_jumps(s.body[:pos], (ast.Continue, ast.Break)) or _own_jumps(s.body[pos + 1:], (ast.Break,)):
        return None
    if _fills(ev, s, xs, arg) and _only_loads(ev, s.body[:pos] + [st.value], i) and _untouched(ev, s.body, t, xs):
        return xs, t
    return None


def _store_at(st: ast.stmt, i: str) -> bool:
    """Is ``st`` a statement ``xs[i] = v`` (one target, ``xs`` a name)?"""
    t = st.targets[0] if isinstance(st, ast.Assign) and len(st.targets) == 1 else None
    return isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and isinstance(t.slice, ast.Name) \
        and t.slice.id == i


def _fills(ev, s: ast.For, xs: str, arg: ast.AST) -> bool:
    """Does ``range(arg)`` count the slots of the list ``xs`` holds when the loop starts?"""
    cur = ev.env.get(xs)
    if cur is None or cur.kind != NOT or not cur.mutable or xs in ev.volatile:
        return False
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "len" \
            and len(arg.args) == 1 and not arg.keywords and isinstance(arg.args[0], ast.Name):
        return arg.args[0].id == xs and builtin(ev, "len")
    made = (ev.__dict__.get(_UNFILLED) or {}).get(cur.serial)
    if made is None or not isinstance(arg, ast.Name) or made[1] != arg.id or arg.id in ev.volatile:
        return False
    between = _between(ev, made[0], s)
    return between is not None and _only_loads(ev, between + [s.iter], arg.id)


def _between(ev, first: Optional[ast.stmt], last: ast.stmt) -> Optional[List[ast.AST]]:
    """The statements between ``first`` and ``last`` when both are in one block, ``first`` before."""
    if first is None:
        return None
    scope = ev.tree if ev.in_module_body else ev.closure_func
    for node in walk(scope) if scope is not None else ():
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and last in block:
                if first not in block or block.index(first) > block.index(last):
                    return None
                return block[block.index(first) + 1:block.index(last)]
    return None


def _untouched(ev, body: List[ast.stmt], target: ast.Subscript, xs: str) -> bool:
    """Is the one store ``target`` the only thing in ``body`` that may change the list ``xs``:
    its other occurrences read it (no ``.append``, item store, ``del`` or rebinding)?"""
    names = 0
    for st in body:
        for n in walk(st):
            if isinstance(n, ast.Name) and n.id == xs:
                names += 1
                if not isinstance(n.ctx, ast.Load):
                    return False
            elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == xs:
                return False
            elif isinstance(n, ast.Subscript) and n is not target and isinstance(n.value, ast.Name) \
                    and n.value.id == xs and not isinstance(n.ctx, ast.Load):
                return False
    text = "\n".join(ev.idx.text(st) for st in body)
    return sum(1 for _ in word_offsets(text, xs)) == names


def start(ev, fill: Optional[Tuple[str, ast.Subscript]]) -> None:
    """Before a filling loop (:func:`fill_target`) is walked: collect what its passes store."""
    if fill is not None:
        ev.__dict__.setdefault(_ACC, {})[id(fill[1])] = None


def filled(ev, fill: Optional[Tuple[str, ast.Subscript]], ended: bool) -> None:
    """After a filling loop (``ended``: no path leaves it): where it completes, the list
    holds only what the loop stored."""
    if fill is None:
        return
    got = (ev.__dict__.get(_ACC) or {}).pop(id(fill[1]), None)
    if ended:
        return
    cur = ev.env.get(fill[0])
    if got is not None and cur is not None and cur.kind == NOT and cur.mutable:
        ev.env[fill[0]] = Value(NOT, item=got, mutable=True)
