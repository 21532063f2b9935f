"""The layout of ``torch.einsum(eq, a, b)`` where every output label is in one operand only.

ATen's einsum (torch 2.13, two operands) permutes both operands to one label order (the
output's labels first, in the output's order) and reduces the pair to a ``bmm`` whose
contiguous result is permuted back to the output's order.  Measured on random equations
(tests/test_einsum_layout.py) where every label to contract is in both operands, no output
label is in both, and every size is above 1: the output's labels lie in memory in the
order "the left operand's, then the right operand's", each group in the output's order
(``'bik,ji->bjk'`` is ``(b, k, j)`` in memory, strides ``(k*j, 1, k)``), or the right's then
the left's where that is the output's own order (a contiguous output).  Outside that
domain (a size 1, a label summed out of one operand first, one kept from both, a repeated
label, an ellipsis, one operand or three) the order was seen to change, so a literal 1 or
any other form gives no layout (the call stays never taken for contiguous), and every size
not known is named as a condition the layout rests on.
"""
from __future__ import annotations

import ast
from typing import List, Optional

from . import layout as L
from .symbolic import Condition, Mono
from .values import TENSOR, UNKNOWN_VALUE, Value

ORIGIN = "torch.einsum"


def _operands(ev, node: ast.Call):
    """The operand expressions: ``einsum(eq, a, b)`` or ``einsum(eq, [a, b])``."""
    rest = node.args[1:]
    if len(rest) == 1 and isinstance(rest[0], (ast.List, ast.Tuple)):
        rest = rest[0].elts
    if any(isinstance(a, ast.Starred) for a in rest):
        return None
    return list(rest)


def einsum_layout(ev, node: ast.Call) -> Optional[Value]:
    """The output's sizes and strides, or None where :mod:`.einsum`'s rule does not apply."""
    if node.keywords or not node.args:
        return None
    eq = node.args[0]
    if not (isinstance(eq, ast.Constant) and isinstance(eq.value, str)):
        return None
    text = eq.value.replace(" ", "")
    if "->" not in text or "." in text:
        return None
    lhs, out = text.split("->")
    terms = lhs.split(",")
    operands = _operands(ev, node)
    if operands is None or len(terms) != 2 or len(operands) != 2:
        return None
    if not all(t.isalpha() and len(set(t)) == len(t) for t in terms + [out]) or len(set(out)) != len(out):
        return None
    left, right = terms
    if not out or any(c in left and c in right for c in out) or any(c not in left + right for c in out):
        return None
    values = [ev.cache.get(id(o)) or UNKNOWN_VALUE for o in operands]
    for term, v in zip(terms, values):
        if v.sizes is not None and len(v.sizes) != len(term):
            return None
    if any((c in left) != (c in right) for c in left + right if c not in out):
        return None  # a label summed out of one operand first: an order not measured

    def size(k: int, c: str) -> Mono:
        v, expr, i = values[k], operands[k], terms[k].index(c)
        return v.sizes[i] if v.sizes is not None else ev.asked_dim(f"{ev.idx.text(expr)}.size({i})", v, i, expr)

    # measured with every size above 1: a size 1 (or none to contract, where ATen multiplies
    # the operands instead) may lay it out otherwise, so every size not known is a condition
    assumes = set()
    for k, term in enumerate(terms):
        for c in term:
            m = size(k, c)
            if not m.powers and m.coef == 1:
                return None
            if m.powers:
                assumes.add(Condition(f"{ev.idx.text(operands[k])}.size({term.index(c)}) == 1"))
    if not any(c in right for c in left):
        return None
    sizes: List[Mono] = [size(0 if c in left else 1, c) for c in out]
    lo = [i for i, c in enumerate(out) if c in left]
    ro = [i for i, c in enumerate(out) if c in right]
    order = ro + lo if ro + lo == list(range(len(out))) else lo + ro
    mem = L.contiguous_strides([sizes[i] for i in order])
    strides: List[Mono] = list(sizes)
    for pos, i in enumerate(order):
        strides[i] = mem[pos]
    return Value(TENSOR, sizes=tuple(sizes), strides=tuple(strides), permuted_by=ORIGIN,
                 assumes=frozenset(assumes))

