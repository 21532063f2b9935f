"""Layouts of ``self.m(...)``: what a method of the class (or a base class) of the module returns.

``query = self._split_heads(x)`` where ``_split_heads`` ends in ``.permute(0, 2, 1, 3)``:
the call's value is a tensor of rank 4 laid out as that permutation of a contiguous
tensor, with sizes of its own (symbols of the call; how they relate to the arguments is
not followed).  The method is walked once, with its parameters unknown (untraced tensors
assumed contiguous, as everywhere), by :func:`.returnwalker.walker_of`; every ``return``
must give the same permutation of a dense tensor of the same rank.

Which method runs (:func:`resolve`): ``m`` is defined in the class of the method being
walked, or in its chain of single bases that are classes of the module; no other ``def m``
and no store of ``.m`` in the module, no ``setattr``/``__dict__``; the ``def`` is plain
(undecorated, no generator, ends with a ``return``).  Assumed: no subclass in another
module overrides ``m`` (``self`` may be an instance of one).  That assumption can only
make a view look legal that is not (a quiet result, like the standing assumption that an
untraced tensor is contiguous); a raising verdict is never claimed on it: the sizes are
:func:`hedged` symbols, and :mod:`.views` judges a view that raises only by them
undecided.  Only files that hold ``view(`` and methods whose text may permute are
followed; a self-method call inside a method being summarised is not (one level).
"""
from __future__ import annotations

import ast
import itertools
import re
from typing import Dict, List, Optional, Sequence, Tuple

from ..source import word_offsets
from . import layout as L
from .symbolic import Mono, Sym
from .values import UNKNOWN, Value

_PERMUTING = ("permute", "transpose", ".t(", ".T", ".mT", "swapaxes", "movedim", "moveaxis")
_HEDGE = "self-method"


def hedged(sym: Sym) -> bool:
    """Is this a size of a ``self.m(...)`` result, whose layout assumes ``m`` not overridden?"""
    key = sym.key[1]
    return isinstance(key, tuple) and bool(key) and key[0] == _HEDGE


def _class_named(tree: ast.Module, name: str) -> Optional[ast.ClassDef]:
    found = [s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == name]
    return found[0] if len(found) == 1 else None


_STORE_AFTER = re.compile(r"\s*=[^=]")  # what follows a name (or attribute) that is stored


def _stored(source: str, m: str) -> bool:
    """Does the text store a name or an attribute ``m`` (``m = ...``, ``x.m = ...``)?"""
    return any(_STORE_AFTER.match(source, i + len(m)) for i in word_offsets(source, m))


def resolve(tree: ast.Module, source: str, cls: ast.ClassDef, m: str) -> Optional[ast.FunctionDef]:
    """The ``def`` that ``self.m`` runs in a method of ``cls`` (conditions in the module doc)."""
    if "setattr(" in source or "__dict__" in source or source.count(f"def {m}(") != 1 \
            or _stored(source, m):
        return None
    seen = 0
    while cls is not None and seen < 8:
        seen += 1
        defs = [s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == m]
        if defs:
            d = defs[0]
            if not isinstance(d, ast.FunctionDef) or d.decorator_list or not d.body \
                    or not isinstance(d.body[-1], ast.Return) or cls.decorator_list or cls.keywords:
                return None
            if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(d)):
                return None
            return d
        if len(cls.bases) != 1 or not isinstance(cls.bases[0], ast.Name) or cls.decorator_list or cls.keywords:
            return None
        cls = _class_named(tree, cls.bases[0].id)  # type: ignore[assignment]
    return None


def _order(v: Value) -> Optional[Tuple[int, ...]]:
    """The one order of dims in which ``v`` is laid out contiguously, if there is one."""
    if v.sizes is None or v.strides is None or None in v.sizes or v.assumes or v.open_layout:
        return None
    sizes: Sequence[Mono] = v.sizes
    if len(sizes) > 6 or any(s.is_one for s in sizes):
        return None
    found = []
    for p in itertools.permutations(range(len(sizes))):
        mem = L.contiguous_strides([sizes[i] for i in p])
        if all(v.strides[i] == mem[k] for k, i in enumerate(p)):
            found.append(p)
    return found[0] if len(found) == 1 else None


def returns_order(values: Optional[Sequence[Optional[Value]]]) -> Optional[Tuple[int, ...]]:
    """The one order every value of ``values`` (a method's returns) is laid out densely in."""
    orders = {_order(v) if v is not None else None for v in values or [None]}
    return orders.pop() if len(orders) == 1 else None


def method_order(ev, func: ast.FunctionDef) -> Optional[Tuple[int, ...]]:
    """The order every ``return`` of ``func`` is laid out in (walked once per module)."""
    summaries: Dict[int, Optional[Tuple[int, ...]]] = ev.__dict__.setdefault("_method_orders", {})
    if id(func) in summaries:
        return summaries[id(func)]
    summaries[id(func)] = None  # a cycle, or a failure below: unknown
    text = ev.idx.text(func)
    if not any(w in text for w in _PERMUTING):
        return None
    from .returnwalker import module_returns
    order = returns_order(module_returns(ev, func))
    summaries[id(func)] = order
    return order


def self_method_value(ev, node: ast.Call) -> Optional[Value]:
    """The value of ``self.m(...)`` in a method, when the module says how ``m`` lays it out."""
    func = node.func
    cls = ev.method_of
    if cls is None or ev.__dict__.get("no_self_methods") or not isinstance(func, ast.Attribute) \
            or not isinstance(func.value, ast.Name) or ev.self_value is None \
            or ev.lookup(func.value.id) is not ev.self_value:
        return None
    has_view = ev.__dict__.get("_has_view")
    if has_view is None:  # asked once per module
        has_view = ev.__dict__["_has_view"] = "view(" in ev.source
    if not has_view:
        return None
    memo: Dict[Tuple[int, str], Optional[ast.FunctionDef]] = ev.__dict__.setdefault("_self_methods", {})
    tree = getattr(ev, "tree", None)
    if not isinstance(tree, ast.Module):
        return None
    key = (id(cls), func.attr)
    if key not in memo:  # the scans of the module's text, once per class and name
        memo[key] = resolve(tree, ev.source, cls, func.attr)
    d = memo[key]
    order = method_order(ev, d) if d is not None else None
    if order is None:
        return None
    holder = Value(UNKNOWN)
    text = ev.idx.text(node)
    sizes: List[Mono] = [Mono.sym(Sym(f"{text}.size({i})", (_HEDGE, holder.serial, i))) for i in range(len(order))]
    mem = L.contiguous_strides([sizes[i] for i in order])
    strides = [mem[0]] * len(order)
    for k, i in enumerate(order):
        strides[i] = mem[k]
    permuted = tuple(order) != tuple(range(len(order)))
    return Value(UNKNOWN, sizes=tuple(sizes), strides=tuple(strides),
                 permuted_by=f"self.{func.attr}(...)" if permuted else None)
