"""Loops walked to a fixpoint: the body runs again from what it binds until that stops changing.

A loop's body is first walked silently from the state before the loop; the state at its
head is then the join of that state and the body's ends.  The reporting pass walks from
there, its reports held back; if what it binds would change the head again (``z = y; y =
x.item()`` turns ``z`` into a float on the third iteration only), the held reports are
dropped, silent passes go on until the head is stable (past ``MAX_PASSES`` the names still
changing become unknown), and the reporting pass runs again.  Stable is judged on the
facts reports and fixes rest on (:func:`facts`), which joins only ever weaken: the passes end.
"""
from __future__ import annotations

import ast
from functools import lru_cache
from typing import Callable, Dict, FrozenSet, List, Set, Tuple, Union

from .escapes import alias_iter
from .narrowing import always_true, narrow
from .nodeindex import walk
from .values import UNKNOWN_VALUE, Env, Value, join

#: silent passes after the first before the names still changing are given up as unknown
MAX_PASSES = 4
Loop = Union[ast.For, ast.AsyncFor, ast.While]


def facts(v: Value) -> Tuple[object, ...]:
    """What of a value a report or a fix may rest on, for telling whether a loop's head moved
    (what its items are too: ``b = a; a = [x.item()]`` changes what ``b[0]`` is, and a
    numpy array's dtype decides TRC109's fix, on the third iteration only)."""
    return (v.kind, v.mixed, v.some, v.caveat, v.permuted_by, v.qualname, v.local_def, v.is_class,
            v.sizes is None, len(v.sizes or ()), v.strides is None, v.mono is None,
            None if v.elems is None else tuple(facts(e) for e in v.elems),
            None if v.item is None else facts(v.item), None if v.mapped is None else facts(v.mapped),
            v.open_layout is None, v.array)


def moved(head: Env, new: Env) -> List[str]:
    """Names whose facts differ between two heads of a loop (or that only one binds)."""
    return [k for k in set(head) | set(new)
            if k not in head or k not in new or facts(head[k]) != facts(new[k])]


def walk_loop(w, s: Loop, enter: Callable[[], object]) -> bool:
    """Walk the loop ``s`` (``enter`` binds its target or narrows by its test) on walker ``w``;
    True when no path leaves it."""
    entry = dict(w.env)
    head, _ = _silent(w, s, enter, entry, entry)
    for attempt in range(2):
        saved, w.held = w.held, ([] if w.reporting else None)
        end, ctl = _pass(w, s, enter, head)
        held, w.held = w.held, saved
        again = w.join_envs([head] + ([] if end else [w.env]) + ctl["continues"])
        if held is None or not moved(head, again):
            for report in held or ():
                w.emit(report)  # to the enclosing loop's hold, or the sink
            break
        if attempt:
            break  # still moving after a widened fixpoint: its reports are dropped, not guessed
        head = _fixpoint(w, s, enter, entry, again)
    after = w.join_envs([head] + ([] if end else [w.env]) + ctl["continues"])
    if isinstance(s, ast.While):  # left at the head: the test was false there
        after = w.apply(after, narrow(w, s.test)[1])
    w.env = dict(after)
    if s.orelse:
        else_end = w.block(s.orelse)
        exits = ([] if else_end else [w.env]) + ctl["breaks"]
    elif isinstance(s, ast.While) and always_true(s.test):
        exits = ctl["breaks"]  # `while True:` leaves only by a break
    else:
        exits = [after] + ctl["breaks"]
    if not exits:
        return True
    w.env = w.join_envs(exits)
    return False


def _silent(w, s: Loop, enter: Callable[[], object], entry: Env, start: Env) -> Tuple[Env, bool]:
    """One silent pass from ``start``: the head it leads to, and whether the body ended every path."""
    saved, w.reporting = w.reporting, False
    end, ctl = _pass(w, s, enter, start)
    w.reporting = saved
    return w.join_envs([entry] + ([] if end else [w.env]) + ctl["continues"]), end


def _pass(w, s: Loop, enter: Callable[[], object], start: Env) -> Tuple[bool, Dict[str, List[Env]]]:
    """Walk the body once from ``start``: whether it ended every path, and its breaks and continues."""
    w.env = dict(start)
    w.loops.append({"breaks": [], "continues": []})
    enter()
    end = w.block(s.body)
    return end, w.loops.pop()


def _fixpoint(w, s: Loop, enter: Callable[[], object], entry: Env, head: Env) -> Env:
    """Silent passes from ``head`` until it stops moving; then the names still moving are unknown."""
    for _ in range(MAX_PASSES):
        new, _ = _silent(w, s, enter, entry, head)
        new = w.join_envs([head, new])
        if not moved(head, new):
            return new
        head = new
    widened: Dict[str, Value] = dict(head)
    for name in moved(head, _silent(w, s, enter, entry, head)[0]):
        widened[name] = UNKNOWN_VALUE
    return widened


def live_element(w, s: Union[ast.For, ast.AsyncFor], first: Value) -> Value:
    """What ``for t in xs:`` binds on a pass: the item of ``xs`` as the loop started, joined
    with the item of what the name holds at the pass's head. A list's iterator reads it
    live: a body that appends to it or replaces a later item (``xs[i + 1] = [1.0]``) hands
    later passes those. Not where the body rebinds the name (the iterator keeps the old
    object; joining would only weaken the proof). Over another expression
    (``enumerate(xs)``), unknown where the body may change a name it reads."""
    it = s.iter
    alias_iter(w, s.target, it)  # for a in [t]: what reaches a reaches t
    held = [n.id for n in walk(it) if n.__class__ is ast.Name and _holds_items(w.env.get(n.id))]
    if not held:
        return first  # no list, tuple or dict whose items the proof rests on
    changed = _changed_in_body(s)
    if isinstance(it, ast.Name):
        if it.id in changed[1]:
            return first
        return join(first, w.element_of(w.ev(it)))  # what the name reads now
    if any(name in changed[0] for name in held):
        return UNKNOWN_VALUE
    return first


def _holds_items(v) -> bool:
    """Is ``v`` a value whose items a proof may rest on (a list, tuple, dict)?"""
    return v is not None and (v.mutable or v.elems is not None or v.item is not None or v.mapped is not None)


@lru_cache(maxsize=64)
def _changed_in_body(s: ast.AST) -> Tuple[FrozenSet[str], FrozenSet[str]]:
    """Names the loop's body may change (read other than as ``n[i]`` or ``len(n)``: a method
    call, an item store, an argument, an alias), and names it rebinds."""
    safe: Set[int] = set()
    used: Set[str] = set()
    stored: Set[str] = set()
    for b in s.body:  # type: ignore[attr-defined]
        for n in walk(b):
            if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name):
                safe.add(id(n.value))
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len" \
                    and len(n.args) == 1 and isinstance(n.args[0], ast.Name):
                safe.add(id(n.args[0]))
            elif isinstance(n, ast.Name) and id(n) not in safe:
                (stored if not isinstance(n.ctx, ast.Load) else used).add(n.id)
    return frozenset(used | stored), frozenset(stored)
