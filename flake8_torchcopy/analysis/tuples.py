"""Calls that return a fixed tuple of tensors (``x.topk(k)``, ``torch.max(x, 1)``,
``torch.linalg.qr(a)``): which, how many, and whether the outputs are contiguous.

The names and counts are analysis/torchfacts.py's (generated from torch's schemas); the
only hand-kept fact is ``CONTIGUOUS_TUPLES``, checked against torch by
tests/test_tuple_results.py.
"""
from __future__ import annotations

import ast
from typing import Dict, NamedTuple, Optional

from . import torchfacts as facts
from .methodlayouts import const_int
from .modulescan import defines_method
from .torchapi import TENSOR_ONLY_TUPLE_METHODS
from .values import ANNOTATED, NOT, TENSOR, UNKNOWN, Value


def _tensor_tuple_count(kind) -> int:
    """How many tensors a return kind of the facts holds when it is a tuple of tensors only
    (``("Tensor", "Tensor")`` or ``"(Tensor, Tensor)"``), else 0."""
    parts = kind if isinstance(kind, tuple) else tuple(
        p.strip() for p in kind.strip("()").split(",")) if kind.startswith("(") else ()
    return len(parts) if parts and all(p == "Tensor" for p in parts) else 0


def _tuples(table) -> Dict[str, int]:
    """{name: count} of the entries of a fixed-tuple table of the facts that are all tensors."""
    return {n: c for n, kinds in table.items() if (c := _tensor_tuple_count(kinds))}


def _tuples_with_dim(table) -> Dict[str, int]:
    """{name: count} of the varying-returns entries one of whose returns is a tuple of tensors:
    ``max``/``min``/``median``/``nanmedian``, a tuple when given a dim (tests/test_tuple_results.py
    checks that this is the condition for every name derived here)."""
    return {n: max(_tensor_tuple_count(k) for k in kinds) for n, kinds in table.items()
            if any(_tensor_tuple_count(k) for k in kinds)}


# Tensor methods and ``torch.<name>`` functions (keyed without ``torch.``) that return a tuple
# of tensors, and how many: analysis/torchfacts.py's fixed-tuple tables ...
TUPLE_METHODS = _tuples(facts.TUPLE_METHODS)
TUPLE_FUNCTIONS = {q[6:]: c for q, c in _tuples(facts.TUPLE_FUNCTIONS).items() if q.startswith("torch.")}
# ... and, only when given a dim, its varying-returns ones (``x.max()`` is one tensor,
# ``x.max(y)`` an elementwise max)
TUPLE_METHODS_WITH_DIM = _tuples_with_dim(facts.VARYING_METHODS)
TUPLE_FUNCTIONS_WITH_DIM = {q[6:]: c for q, c in _tuples_with_dim(facts.VARYING_FUNCTIONS).items()
                            if q.startswith("torch.")}
# Of those (method or ``torch.`` function of that name), the ones whose every output is
# contiguous whatever the input's layout (structured kernels that allocate their outputs;
# ``sort``'s and ``kthvalue``'s follow the input's strides).  Checked against torch, with
# dense, transposed and sliced inputs, by tests/test_tuple_results.py.
CONTIGUOUS_TUPLES = frozenset({"topk", "aminmax", "max", "min"})

# the last part of every name above: a call whose callee ends otherwise is none of them
_TUPLE_LAST_NAMES = frozenset(n.rsplit(".", 1)[-1] for n in (
    *TUPLE_METHODS, *TUPLE_METHODS_WITH_DIM, *TUPLE_FUNCTIONS, *TUPLE_FUNCTIONS_WITH_DIM))


class TupleShape(NamedTuple):
    """A call that returns a tuple of tensors: how many, whether they are contiguous, and
    whether it is a ``torch.<name>`` function (a tensor whatever its arguments)."""

    name: str
    length: int
    contiguous: bool
    torch_function: bool


def tuple_shape(ev, node: ast.Call) -> Optional[TupleShape]:
    """The tuple of tensors ``node`` returns, when it is a call of the tables above."""
    func = node.func
    last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if last not in _TUPLE_LAST_NAMES:
        return None  # every call is asked: the qualified name is built only for these few
    q = ev.static_qualname(func)
    if q is not None and q.startswith("torch."):
        name, first = q[6:], 1  # torch.max(x, 1): the dim comes after the tensor
    elif isinstance(func, ast.Attribute) and q is None:
        name, first = func.attr, 0
    else:
        return None
    fixed, with_dim = (TUPLE_FUNCTIONS, TUPLE_FUNCTIONS_WITH_DIM) if first else (
        TUPLE_METHODS, TUPLE_METHODS_WITH_DIM)
    count = fixed.get(name, 0)
    if not count and name in with_dim and _has_dim(node, first):
        count = with_dim[name]
    return TupleShape(name, count, name in CONTIGUOUS_TUPLES, first == 1) if count else None


def method_result(ev, shape: TupleShape, recv: Value) -> Optional[Value]:
    """What ``recv.topk(k)`` (a method of the tables) returns holds: tensors of ``recv``'s
    kind where ``recv`` is a tensor, tensors where it is untraced and the method one only
    tensors have (unless the module defines a method of that name); else None."""
    if recv.kind in (TENSOR, ANNOTATED):
        return Value(recv.kind, caveat=recv.caveat, permuted_by=recv.permuted_by)
    if shape.name in TENSOR_ONLY_TUPLE_METHODS and recv.kind == UNKNOWN and recv.qualname is None \
            and not recv.local_def and not defines_method(ev, shape.name):
        return Value(TENSOR, permuted_by=recv.permuted_by)
    return None


def tuple_result(shape: TupleShape, v: Value) -> Value:
    """The tuple: its items have the call's kind and caveat, and a layout only where the op
    allocates contiguous outputs (else never taken for contiguous when the input was
    permuted)."""
    origin = None if shape.contiguous else v.permuted_by or _strided_origin(shape)
    item = Value(v.kind, caveat=v.caveat, permuted_by=origin)
    return Value(NOT, elems=(item,) * shape.length, item=item)


def _strided_origin(shape: TupleShape) -> Optional[str]:
    """``torch.linalg.qr``, ``x.svd()``...: outputs torch lays out column-major (or otherwise
    not contiguous) though the input is contiguous, so never taken for contiguous."""
    if shape.torch_function:
        q = "torch." + shape.name
        return q if q in facts.STRIDED_RESULT_FUNCTIONS else None
    return "." + shape.name if shape.name in facts.STRIDED_RESULT_METHODS else None


def _has_dim(node: ast.Call, first: int) -> bool:
    """A literal int dim (positional after ``first`` arguments, or ``dim=``)."""
    if any(k.arg == "dim" for k in node.keywords):
        return True
    return len(node.args) > first and const_int(node.args[first]) is not None
