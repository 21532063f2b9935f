"""Returns that depend on the arguments: ``torch.max(x)``, ``torch.where(cond)``, ``x.unique()``.

torch's schemas give ``torch.max``, ``torch.min``, ``torch.where``... several return types
(``VARYING_*`` in analysis/torchfacts.py); the facts also say which one a call with the
tensor alone gets (``ALONE_*``: ``torch.min(x)`` and ``x.median()`` are tensors,
``torch.where(cond)`` a tuple of tensors), and which flags add tensors to what
``unique``/``unique_consecutive`` return (``FLAG_TUPLE_*``): with no flag or every flag
literally ``False`` one tensor, else a tuple of one more tensor per flag literally
``True``.  A second tensor (``OTHER_*``: ``torch.max(a, b)``, ``a.min(other=b)``, ``b``
proven a tensor, a 0-dim one too) makes ``max``/``min`` the elementwise form, a tensor;
a number there is the ``dim`` form (a tuple, analysis/tuples.py).  Anything else (another
argument, a flag that is not a literal, ``*args`` or ``**kwargs``, a positional flag) is
left to the caller (unknown).  The calls succeed only
on a tensor (the one argument must be one: torch raises a TypeError otherwise), so the
result is a tensor whatever the analysis knows of the argument; a subclass's
``__torch_function__`` may return its own class (the caveat :meth:`derived_caveat` gives).
tests/test_arg_returns.py runs every entry with torch.
"""
from __future__ import annotations

import ast
from typing import Optional

from . import torchfacts as facts
from .elementwise import permuted_origin
from .values import NOT, TENSOR, Value

_ALONE_FUNCTIONS = {q[6:]: k for q, k in facts.ALONE_FUNCTIONS.items() if q.startswith("torch.")}
_OTHER_FUNCTIONS = {q[6:]: k for q, k in facts.OTHER_FUNCTIONS.items() if q.startswith("torch.")}
_FLAG_FUNCTIONS = {q[6:]: f for q, f in facts.FLAG_TUPLE_FUNCTIONS.items() if q.startswith("torch.")}
#: keywords that do not change what these return (``sorted``, ``dim``)
_NEUTRAL = frozenset({"sorted", "dim"})


def function_value(ev, node: ast.Call, name: str, args) -> Optional[Value]:
    """``torch.<name>(...)`` of the tables, when the call says which kind it returns."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return None
    if name in _ALONE_FUNCTIONS and len(node.args) == 1 and not node.keywords:
        return _kind(ev, node, _ALONE_FUNCTIONS[name], Value(TENSOR, permuted_by=permuted_origin(args)))
    if name in _OTHER_FUNCTIONS:
        other = _other(ev, node, args[1:])
        if other is not None:  # the caveat of either argument: the evaluator's derived_caveat
            return _kind(ev, node, _OTHER_FUNCTIONS[name], Value(TENSOR, permuted_by=permuted_origin(args)))
    flags = _FLAG_FUNCTIONS.get(name)
    if flags is not None and len(node.args) == 1:
        count = _count(node, flags)
        if count is not None:
            return _tuple(ev, node, count, Value(TENSOR, permuted_by=permuted_origin(args)))
    return None


def method_value(ev, node: ast.Call, recv: Value, m: str, args) -> Optional[Value]:
    """``recv.<m>(...)`` of a tensor ``recv``, when the call says which kind it returns."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return None
    if m in facts.OTHER_METHODS:
        other = _other(ev, node, args)
        if other is not None:  # a.max(b): a tensor, as the receiver and b are (b's caveat too)
            return _kind(None, node, facts.OTHER_METHODS[m], Value(
                recv.kind, caveat=recv.caveat or other.caveat, permuted_by=permuted_origin([recv, other])))
    if node.args:
        return None
    made = Value(recv.kind, caveat=recv.caveat, permuted_by=recv.permuted_by)
    if m in facts.ALONE_METHODS and not node.keywords:
        return _kind(None, node, facts.ALONE_METHODS[m], made)
    flags = facts.FLAG_TUPLE_METHODS.get(m)
    if flags is not None:
        count = _count(node, flags)
        if count is not None:
            return _tuple(None, node, count, made)
    return None


def _other(ev, node: ast.Call, rest) -> Optional[Value]:
    """The second tensor of ``torch.max(a, b)`` / ``a.max(b)`` (``rest``: the values of the
    positional arguments after the tensor), or of ``other=b``: the one argument left, no
    other keyword, proven a tensor; else None."""
    if len(rest) == 1 and not node.keywords:
        v = rest[0]
    elif not rest and len(node.keywords) == 1 and node.keywords[0].arg == "other":
        v = ev.cache.get(id(node.keywords[0].value))
    else:
        return None
    return v if v is not None and v.kind == TENSOR else None


def _count(node: ast.Call, flags) -> Optional[int]:
    """How many tensors the call returns: one, and one more per flag literally True; None
    when a keyword is not a literal flag or one that changes nothing."""
    count = 1
    for k in node.keywords:
        if k.arg in flags:
            if not (isinstance(k.value, ast.Constant) and isinstance(k.value.value, bool)):
                return None
            count += k.value.value
        elif k.arg not in _NEUTRAL:
            return None
    return count


def _kind(ev, node: ast.Call, kind: str, made: Value) -> Optional[Value]:
    if kind == "Tensor":
        return made
    if kind == "Tensor[]":  # a tuple of tensors of a length known at run time
        return Value(NOT, item=_item(ev, node, made))
    return None


def _tuple(ev, node: ast.Call, count: int, made: Value) -> Value:
    if count == 1:
        return made
    item = _item(ev, node, made)
    return Value(NOT, elems=(item,) * count, item=item)


def _item(ev, node: ast.Call, made: Value) -> Value:
    """An output of a tuple: a function's carries the caveat its arguments give (the
    evaluator gives a tensor result's itself), a method's its receiver's (``made``)."""
    if ev is None or made.caveat is not None:
        return made
    return ev.derived_caveat(node, made)
