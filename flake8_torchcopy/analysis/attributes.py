"""Tensor attributes' layouts: ``.T``, ``.mT``, ``.mH``, ``.H``, ``.data``, ``.real``, ``.imag``."""
from __future__ import annotations

import ast
from typing import Optional

from . import layout as L
from .symbolic import ONE, Condition, Mono, Rest
from .torchapi import TENSOR_ATTRIBUTES
from .values import ANNOTATED, NOT, TENSOR, UNKNOWN, Value

_PERMUTING = frozenset({"T", "mT", "mH", "H"})


def tensor_attribute(ev, node: ast.Attribute, base: Value) -> Optional[Value]:
    """``x.T`` (any of the attributes above) of a tensor; a permuting one of an untraced
    ``x`` too, whose layout is known only where ``x``'s sizes are, and which is otherwise
    never taken for a contiguous tensor (``x.T.t()`` of a 2-d ``x`` is ``x``); ``.values`` and
    ``.indices`` of a named tuple of two tensors; any attribute of an untraced permuted value
    keeps its mark; else None."""
    attr = node.attr
    if base.kind in (TENSOR, ANNOTATED) and attr in TENSOR_ATTRIBUTES:
        return attribute_layout(base, attr, ev, node.value)
    if base.kind == UNKNOWN and attr in _PERMUTING and base.qualname is None:
        if base.sizes is not None:
            return attribute_layout(base, attr)
        return Value(UNKNOWN, permuted_by="." + attr)  # numpy's .T too: no layout, no claim
    if base.kind == NOT and attr in _FIELDS and base.elems is not None and len(base.elems) == 2 \
            and all(e.kind in (TENSOR, ANNOTATED) for e in base.elems):
        return base.elems[_FIELDS[attr]]  # x.sort(1).values: a (values, indices) named tuple's
    if base.kind == UNKNOWN and base.permuted_by and base.qualname is None:
        return Value(UNKNOWN, permuted_by=base.permuted_by)  # x.mT.sort(0).values: x.mT's strides
    return None


#: the fields of torch's (values, indices) named tuples (sort, max, min, topk, cummax...)
_FIELDS = {"values": 0, "indices": 1}


def attribute_layout(base: Value, attr: str, ev=None, base_node: Optional[ast.AST] = None) -> Value:
    if attr in ("data",):
        return base.with_(mono=None)
    if attr in ("real", "imag"):
        return Value(base.kind, sizes=base.sizes, permuted_by=base.permuted_by)
    sizes, strides = base.sizes, base.strides
    if attr == "T" and sizes is None and base.open_layout is None and base.permuted_by is None \
            and ev is not None and base_node is not None:
        return _reversed_open(ev, base, base_node)
    if sizes is None or strides is None:
        return Value(base.kind, permuted_by="." + attr)
    rank = len(sizes)
    if attr == "T":
        res = L.permute(sizes, strides, list(range(rank - 1, -1, -1)))
    elif attr in ("mT", "mH"):
        res = L.swap(sizes, strides, -2, -1) if rank >= 2 else None
    else:  # H
        res = L.swap(sizes, strides, 0, 1) if rank == 2 else (sizes, strides)
    if res is None:
        return Value(base.kind)
    return Value(base.kind, sizes=res[0], strides=res[1], permuted_by="." + attr,
                 assumes=base.assumes)


def _reversed_open(ev, base: Value, base_node: ast.AST) -> Value:
    """``x.T`` of a tensor of unknown rank, taken as contiguous: 0-d or 1-d, ``x`` itself (a
    caveat ``x.dim() < 2``); else its dims reversed, ``x``'s last two first (strides 1 and
    ``x.size(-1)``), then the rest, ``x``'s first dims in reverse order, read as one dim
    contiguous among themselves (:class:`Rest`, 1 for a 2-d ``x``).  They are not: each has
    a stride above the next one's size times its stride, so no view merges two of them;
    the open layout only merges more, and a view it proves to raise raises (checked with
    torch for 2 to 5 dims in ``tests/test_transpose_attribute.py``)."""
    text = ev.idx.text(base_node)
    last = ev.asked_dim(f"{text}.size(-1)", base, -1, base_node)  # x's own serial, as x.size(-1)
    serial = next(iter(last.atoms())).key[1][1]
    owner = base.with_()
    owner.serial = serial
    before = ev.asked_dim(f"{text}.size(-2)", owner, -2, None)
    rest = Mono.sym(Rest(f"math.prod({text}.shape[:-2])", ("rest-head", serial, 2)))
    sizes = (last, before, rest)
    strides = (ONE, last, last * before)
    return Value(base.kind, permuted_by=".T", open_layout=(sizes, strides),
                 assumes=base.assumes | {Condition(f"{text}.dim() < 2")})
