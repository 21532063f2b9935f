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


# attributes every tensor has (checked with torch): ``hasattr(x, "shape")`` false, x is none
TENSOR_ATTRIBUTES = frozenset(
    "shape dtype device ndim requires_grad grad is_cuda data dim size numel detach clone".split())


def never_true(ev, test: ast.AST) -> bool:
    """``test`` is false whenever the module runs: ``TYPE_CHECKING``, ``False``, ``0``."""
    if isinstance(test, ast.Constant):
        return not test.value
    return ev.static_qualname(test) in ("typing.TYPE_CHECKING", "typing_extensions.TYPE_CHECKING")


def always_true(test: ast.AST) -> bool:
    """``test`` is a true constant (``while True:``, ``while 1:``)."""
    return isinstance(test, ast.Constant) and bool(test.value)


def tested_names(ev, test: ast.AST) -> frozenset:
    """The names whose kind ``test`` narrows (``isinstance(x, T)``: x), for a flag holding it."""
    if isinstance(test, ast.Call):
        f = test.func
        if not (isinstance(f, ast.Name) and f.id in ("isinstance", "hasattr", "type")
                or isinstance(f, ast.Attribute) and f.attr == "is_tensor"):
            return frozenset()
    elif not isinstance(test, (ast.Compare, ast.BoolOp, ast.UnaryOp)):
        return frozenset()
    yes, no = narrow(ev, test)
    return frozenset(yes) | frozenset(no)


def unmatched_subject(match: ast.Match) -> Dict[str, str]:
    """What no case of ``match`` matching says: a class pattern is an isinstance test whose
    negation is not followed, so a subject name it tests is unknown."""
    subject = match.subject
    if isinstance(subject, ast.Name) and any(
            isinstance(n, ast.MatchClass) for c in match.cases for n in ast.walk(c.pattern)):
        return {subject.id: UNKNOWN}
    return {}


def case_subject(ev, match: ast.Match, case: ast.match_case) -> Dict[str, str]:
    """What entering ``case`` proves of a subject name: ``case list():`` (or ``case C(...) as
    y``) is ``isinstance(subject, list)`` true, unless the pattern captures the name anew."""
    pattern, subject = case.pattern, match.subject
    while isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        pattern = pattern.pattern
    if not (isinstance(subject, ast.Name) and isinstance(pattern, ast.MatchClass)) or any(
            getattr(n, a, None) == subject.id for n in ast.walk(case.pattern) for a in ("name", "rest")):
        return {}
    return narrow_isinstance(ev, subject.id, pattern.cls)[0]


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
        # true when one part is: what every part proves alike (`isinstance(x, list) or
        # isinstance(x, tuple)`: x is no tensor)
        first = parts[0][0]
        yes = {k: v for k, v in first.items() if all(y.get(k) == v for y, _ in parts[1:])}
        return yes, no
    if isinstance(test, ast.Name) and test.id in ev.test_flags:
        # a flag holding a test (`is_t = isinstance(x, T)`): its names may have been
        # rebound since, so what it proves is not followed, and what was known is dropped
        about = {n: UNKNOWN for n in ev.test_flags[test.id]}
        return about, dict(about)
    if isinstance(test, ast.Call) and len(test.args) == 2 and not test.keywords \
            and isinstance(test.func, ast.Name) and test.func.id == "hasattr" and "hasattr" not in ev.env \
            and isinstance(test.args[0], ast.Name) and isinstance(test.args[1], ast.Constant) \
            and test.args[1].value in TENSOR_ATTRIBUTES:
        return {}, {test.args[0].id: NOT}  # every tensor has it
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
            and isinstance(test.ops[0], (ast.Is, ast.Eq, ast.IsNot, ast.NotEq))
            and isinstance(test.left, ast.Call) and isinstance(test.left.func, ast.Name)
            and test.left.func.id == "type" and len(test.left.args) == 1
            and isinstance(test.left.args[0], ast.Name)):
        yes, _ = narrow_isinstance(ev, test.left.args[0].id, test.comparators[0])
        return (yes, {}) if isinstance(test.ops[0], (ast.Is, ast.Eq)) else ({}, yes)  # type(x) is not T
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
