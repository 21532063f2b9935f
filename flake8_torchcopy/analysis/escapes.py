"""Names a function lets out of its hands without a call: into a container or an attribute.

``xs = [t]``, ``h.t = t``, ``d["k"] = t``, ``self.t = t``, ``xs = [t] * 2``: a function that
later gets the container, the object or ``self`` (``helper(xs)``, ``fix(h)``,
``self.helper()``) reaches ``t`` and may change it in place (``t.__class__ = C``,
``t.data = t.data.contiguous()``: checked with torch in tests/test_review_left.py).
:func:`note` records them as the evaluator binds (so in the order the code runs; a loop's
second pass sees its first's), per function; :func:`let_out` reads them.  A display handed
straight to a call is the call's (:func:`.subclasses.handed_over`); one returned, or unpacked
at once (``a, b = t, u``), lets nothing out.  Not followed: ``for a in [t]`` (``a`` is
``t``), ``xs += [t]``, ``u = t`` (an alias).
"""
from __future__ import annotations

import ast
from typing import Dict, Set

_DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.Dict)
_HOLDERS = frozenset(_DISPLAYS + (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp, ast.BinOp))
_EMPTY: Set[str] = set()


def _names_in(node: ast.AST, out: Set[str]) -> None:
    """The names ``node`` holds: itself, the items of a display (nested), a starred item."""
    stack = [node]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is ast.Name:
            out.add(n.id)  # type: ignore[attr-defined]
        elif t is ast.Starred:
            stack.append(n.value)  # type: ignore[attr-defined]
        elif t is ast.Dict:
            stack.extend(v for v in n.values if v is not None)  # type: ignore[attr-defined]
        elif t in (ast.List, ast.Tuple, ast.Set):
            stack.extend(n.elts)  # type: ignore[attr-defined]
        elif t in (ast.ListComp, ast.SetComp, ast.GeneratorExp):
            stack.append(n.elt)  # type: ignore[attr-defined]
        elif t is ast.DictComp:
            stack.append(n.value)  # type: ignore[attr-defined]
        elif t is ast.BinOp:  # [t] * 2, [t] + ys
            stack.extend((n.left, n.right))  # type: ignore[attr-defined]


def note(ev, target: ast.AST, value_node: ast.AST) -> None:
    """``target = value_node`` lets out the names the value holds: into an attribute or an
    item (``h.t = t``, ``d[k] = [t]``), or into a container bound to a name (``xs = [t]``)."""
    t = type(target)
    if t is ast.Name:
        if type(value_node) not in _HOLDERS:
            return
    elif t is not ast.Attribute and t is not ast.Subscript:
        return
    func = getattr(ev, "closure_func", None)
    if func is None:
        return
    out: Dict[int, Set[str]] = ev.__dict__.setdefault("_let_out", {})
    _names_in(value_node, out.setdefault(id(func), set()))


def let_out(ev) -> Set[str]:
    """The names the function walked now has let out so far (:func:`note`)."""
    func = getattr(ev, "closure_func", None)
    out = ev.__dict__.get("_let_out")
    return out.get(id(func), _EMPTY) if out is not None and func is not None else _EMPTY
