"""Layouts that travel into a parameter: a permuted dense tensor passed by every call.

``obj_mask = self.build_target(pred, ...)`` where ``pred`` is a clone of a permuted tensor:
``pred`` is dense, laid out in one order of its dims that is not theirs.  That order is
what travels (:func:`carried`, at each call; :func:`seeded`, joined over the calls), never
the caller's sizes: the parameter gets sizes of its own (symbols named ``pred.size(i)``,
positive integers as every size) and the strides of a dense tensor in that order.  A
claim the rules make on it holds for every size, so on the path of every call seen.  Only
tensors marked permuted travel (a contiguous one is what an untraced tensor is assumed to
be anyway), of rank 2 to 6, with every size known and laid out densely in exactly one order
(no size proven 1, no assumption on sizes: :func:`.selfmethods._order`).  The calls not
seen (another module, a subclass's ``super()``) may pass anything: a finding that rests on
such a layout has an unsafe fix (:attr:`.flow.ModuleWalk.rests_on_public_calls`).
"""
from __future__ import annotations

from typing import Dict, FrozenSet, Optional, Sequence, Tuple

from . import layout as L
from .symbolic import Condition, Mono, Sym
from .values import TENSOR, Value

_CARRIED = "carried"


def _ordered(order: Tuple[int, ...], name: str, key: object, v: Value,
             assumes: FrozenSet[Sym] = frozenset()) -> Value:
    sizes = [Mono.sym(Sym(f"{name}.size({i})", (_CARRIED, key, i))) for i in range(len(order))]
    mem = L.contiguous_strides([sizes[i] for i in order])
    strides = [mem[0]] * len(order)
    for k, i in enumerate(order):
        strides[i] = mem[k]
    return Value(TENSOR, sizes=tuple(sizes), strides=tuple(strides), permuted_by=v.permuted_by,
                 caveat=v.caveat, assumes=assumes)


def order_of(v: Value) -> Optional[Tuple[int, ...]]:
    """The one order of dims in which a permuted tensor ``v`` is dense, if it travels."""
    if v.kind != TENSOR or not v.permuted_by or v.sizes is None or not 2 <= len(v.sizes) <= 6:
        return None
    from .selfmethods import _order
    order = _order(v.with_(assumes=frozenset()) if v.assumes else v)
    return None if order is None or order == tuple(range(len(order))) else order


def _renamed(v: Value, made: Value, where: str) -> FrozenSet[Sym]:
    """``v.assumes`` said of ``made``'s sizes: a size of one of ``v``'s dims that is 1 is
    that dim's; any other condition is named as it is, ``where`` said (a size of the caller)."""
    dims: Dict[Sym, Sym] = {}
    for m, new in zip(v.sizes or (), made.sizes or ()):
        atoms = list(m.atoms())
        if len(atoms) == 1 and m == Mono.sym(atoms[0]):
            dims.setdefault(atoms[0], next(iter(new.atoms())))
    return frozenset(dims.get(s) or (s if isinstance(s, Condition) or not where
                                     else Condition(f"{s.name} == 1 {where}")) for s in v.assumes)


def carried(v: Value, name: str, key: object, line: int = 0) -> Value:
    """What a call (at ``line``) passes a parameter ``name``: ``v``, its sizes replaced by
    symbols of the call (``key``) where its layout travels, so the passes of a loop agree."""
    order = order_of(v)
    if order is None:
        return v
    made = _ordered(order, name, key, v)
    return made.with_(assumes=_renamed(v, made, f"at the call on line {line}")) if v.assumes else made


def seeded(values: Sequence[Value], joined: Value, name: str, key: object) -> Value:
    """The entry value of a tensor parameter ``name`` of the def ``key``, ``joined`` over
    the calls: with a layout of its own where every call passes one in the same order."""
    orders = {order_of(v) for v in values}
    order = orders.pop() if len(orders) == 1 else None
    if order is None:
        return joined
    made = _ordered(order, name, key, joined)
    assumes = frozenset().union(*(_renamed(v, made, "") for v in values))
    return made.with_(assumes=assumes) if assumes else made
