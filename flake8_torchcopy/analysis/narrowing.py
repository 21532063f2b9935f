"""Narrowing: what a test proves about names when it is true, and when it is false.

``isinstance(x, torch.Tensor)``, ``torch.is_tensor(x)``, ``type(x) is T``,
``x is None`` and their ``not``/``and``/``or`` combinations.  A result maps names
to kinds; the walker applies it to the branch it enters.

Two ``if`` statements read together, on paths the walker's join would otherwise invent: a
flag set under a type test (``kind = "array"`` in the body of ``if not isinstance(x, T):``)
holds that test, so a later ``if kind == "array":``, like a flag holding the test itself,
leaves the names it narrows unknown in its branches (:func:`note_flags`).  And
``if len(v) > 0: ...`` followed at once by ``if len(v) < 1 or ...:``: where the second test is
false the first was true (its body did not run where it was false, so ``v`` is as it was), so
the second's false branch starts from the end of the first's body, not from the join
(:func:`false_entry`): only with the ``len`` test first (an earlier disjunct may change ``v``),
and a tensor it proves has unsafe fixes (a ``__len__`` may answer otherwise the second time).
"""
from __future__ import annotations

import ast
from typing import Dict, Tuple

from .nodeindex import walk
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
    if ev.test_flags and test.__class__ is ast.Compare and len(test.ops) == 1 \
            and isinstance(test.left, ast.Name) and isinstance(test.comparators[0], ast.Constant) \
            and test.left.id in ev.test_flags:
        test = test.left  # `kind == "array"` of a flag set under a type test (note_flags)
    if isinstance(test, ast.Name) and test.id in ev.test_flags:
        # a flag holding a test (`is_t = isinstance(x, T)`): its names may have been
        # rebound since, so what it proves is not followed, and what was known is dropped
        about = {n: UNKNOWN for n in ev.test_flags[test.id] if not _rebound_since(ev, test.id, n)}
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


LEN_TWICE = "it is proven only by len() read twice (a __len__ may change its answer)"

_OPS = {ast.Lt: int.__lt__, ast.LtE: int.__le__, ast.Gt: int.__gt__, ast.GtE: int.__ge__,
        ast.Eq: int.__eq__, ast.NotEq: int.__ne__}
_SIZES = frozenset(range(66))  # len(v) OP n, n < 64: the same answer for every k above 65


def _rebound_since(ev, flag: str, name: str) -> bool:
    """Was ``name`` bound again after ``flag`` was set, in the state the test is read in (the
    same straight-line code: on every path to the test)?  Then it keeps what it holds."""
    at = ev.__dict__.get("rebound_at", {}).get(name)
    set_at = ev.__dict__.get("flag_set_at", {}).get(flag)
    return at is not None and set_at is not None and at[0] is ev.env and at[1] > set_at


def note_flags(ev, s: ast.If, yes: dict, no: dict) -> None:
    """After ``if <type test>:`` (``isinstance``, ``hasattr``, ``torch.is_tensor``, maybe under
    ``not``), the names its branches bind to a constant are flags of it."""
    test = s.test
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    tested = frozenset(yes) | frozenset(no)
    if not tested or not isinstance(test, ast.Call):
        return
    for st in s.body + s.orelse:
        if isinstance(st, ast.Assign) and isinstance(st.value, ast.Constant):
            for t in st.targets:
                if isinstance(t, ast.Name) and t.id not in tested:
                    ev.test_flags[t.id] = ev.test_flags.get(t.id, frozenset()) | tested


def _len_test(ev, test: ast.AST):
    """``len(name) OP int``: (name, the sizes k for which it holds, below a bound)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _OPS):
        return None
    left, right = test.left, test.comparators[0]
    if not (isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "len"
            and "len" not in ev.env and len(left.args) == 1 and not left.keywords
            and isinstance(left.args[0], ast.Name) and isinstance(right, ast.Constant)
            and type(right.value) is int and 0 <= right.value < 64):
        return None
    op = _OPS[type(test.ops[0])]
    return left.args[0].id, frozenset(k for k in _SIZES if op(k, right.value))


def _siblings(ev, first: ast.If, second: ast.If) -> bool:
    """``second`` follows ``first`` at once in one block: same column, nothing between."""
    if second.col_offset != first.col_offset or (first.end_lineno or 0) >= second.lineno:
        return False
    between = ev.source.splitlines()[first.end_lineno:second.lineno - 1]
    return all(not ln.strip() or ln.strip().startswith("#") for ln in between)


def after_if(ev, s: ast.If, yes: dict, no: dict, env_t, t_end: bool) -> None:
    """Note the flags of a type test; remember ``if len(v) OP n:`` (no ``else``, a body that
    goes on) and its body's end, for :func:`false_entry`."""
    note_flags(ev, s, yes, no)
    ev.last_len_if = None
    if not s.orelse and not t_end and _len_test(ev, s.test) is not None:
        ev.last_len_if = (s, dict(env_t))


def false_entry(ev, s: ast.If, entry):
    """Where the false branch of ``s`` starts: the end of the previous ``if``'s body when ``s``
    false proves that ``if``'s test true (a disjunct of ``s``, false, leaves only sizes the
    first test holds for; only the first disjunct, and its tensors carry :data:`LEN_TWICE`)."""
    prior, ev.last_len_if = ev.last_len_if, None
    if prior is None or not _siblings(ev, prior[0], s):
        return entry
    first = _len_test(ev, prior[0].test)
    parts = s.test.values if isinstance(s.test, ast.BoolOp) and isinstance(s.test.op, ast.Or) \
        else [s.test]
    if first is None or any(isinstance(n, ast.NamedExpr) for n in walk(s.test)):
        return entry
    # only the first disjunct: one before it runs first and may change v (`fill(v) or len(v) < 1`)
    other = _len_test(ev, parts[0])
    if other is None or other[0] != first[0] or not _SIZES - other[1] <= first[1]:
        return entry
    # a tensor only the first body binds is proven by len() read twice: a __len__ may answer
    # otherwise the second time (then the join's value reaches here), so its fixes are unsafe
    return {k: v.with_(caveat=LEN_TWICE) if v.kind == TENSOR and v.caveat is None and entry.get(k) is not v
            else v for k, v in prior[1].items()}
