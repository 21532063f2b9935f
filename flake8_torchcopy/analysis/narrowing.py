"""Narrowing: what a test proves about names when it is true, and when it is false.

``isinstance(x, torch.Tensor)``, ``torch.is_tensor(x)``, ``type(x) is T``,
``x is None`` and their ``not``/``and``/``or`` combinations.  A result maps names
to kinds; the walker applies it to the branch it enters.
"""
from __future__ import annotations

import ast
from typing import Dict, Tuple

from .torchsem import NON_TENSOR_QUALNAMES, TENSOR_TYPES
from .values import NOT, TENSOR, UNKNOWN

Narrowed = Tuple[Dict[str, str], Dict[str, str]]

_NON_TENSOR_TYPES = frozenset(
    "int float bool str bytes list tuple dict set frozenset complex range slice type".split()
)


def narrow(ev, test: ast.AST) -> Narrowed:
    """Kinds that hold for names when ``test`` is true, and when it is false."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        when_true, when_false = narrow(ev, test.operand)
        return when_false, when_true
    if isinstance(test, ast.BoolOp):
        parts = [narrow(ev, v) for v in test.values]
        if isinstance(test.op, ast.And):
            yes: Dict[str, str] = {}
            for y, _ in parts:
                yes.update(y)
            return yes, (parts[0][1] if len(parts) == 1 else {})
        no: Dict[str, str] = {}
        for _, n in parts:
            no.update(n)
        return {}, no
    if isinstance(test, ast.Call) and len(test.args) == 2 and not test.keywords:
        is_isinstance = isinstance(test.func, ast.Name) and test.func.id == "isinstance" \
            and "isinstance" not in ev.env
        if is_isinstance and isinstance(test.args[0], ast.Name):
            return narrow_isinstance(ev, test.args[0].id, test.args[1])
    if isinstance(test, ast.Call) and len(test.args) == 1 and isinstance(test.args[0], ast.Name):
        if ev.static_qualname(test.func) == "torch.is_tensor":
            name = test.args[0].id
            return {name: TENSOR}, {name: NOT}
    if (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Is, ast.Eq))
            and isinstance(test.left, ast.Call) and isinstance(test.left.func, ast.Name)
            and test.left.func.id == "type" and len(test.left.args) == 1
            and isinstance(test.left.args[0], ast.Name)):
        yes, _ = narrow_isinstance(ev, test.left.args[0].id, test.comparators[0])
        return yes, {}
    if (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.left, ast.Name)
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None):
        name = test.left.id
        if isinstance(test.ops[0], ast.Is):
            return {name: NOT}, {}
        if isinstance(test.ops[0], ast.IsNot):
            return {}, {name: NOT}
    return {}, {}


def narrow_isinstance(ev, name: str, types: ast.AST) -> Narrowed:
    elts = types.elts if isinstance(types, ast.Tuple) else [types]
    verdicts = []
    for t in elts:
        if isinstance(t, ast.Name) and t.id in _NON_TENSOR_TYPES and t.id not in ev.env:
            verdicts.append(NOT)
            continue
        q = ev.static_qualname(t)
        if q in TENSOR_TYPES:
            verdicts.append(TENSOR)
        elif q in NON_TENSOR_QUALNAMES:
            verdicts.append(NOT)
        else:
            verdicts.append(UNKNOWN)
    if all(v == TENSOR for v in verdicts):
        return {name: TENSOR}, {name: NOT}
    if TENSOR in verdicts:
        return {name: UNKNOWN}, {name: NOT}
    if all(v == NOT for v in verdicts):
        return {name: NOT}, {}
    return {}, {}
