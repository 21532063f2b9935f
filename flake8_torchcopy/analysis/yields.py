"""Library knowledge: what PyTorch APIs yield when iterated, unpacked or indexed.

One table, ``YIELDS``: for a method name, which receivers it applies to and the
container it returns, as a :class:`~.values.Value` whose ``item`` is what iterating
it yields and whose ``mapped`` is what its values are.  ``zip``/``enumerate``/
``list``/``tuple``/``reversed`` carry the items through (``range`` yields ints); ``.items()``/``.values()``
and subscripts read a mapping's values.

An entry applies only to a receiver the analysis proves to be what the entry needs (a
tensor; a mapping whose values it knows).  ``m.state_dict()``, ``m.parameters()``,
``m.named_parameters()``, ``m.buffers()``, ``m.named_buffers()`` are not here: the
analysis cannot prove ``m`` an ``nn.Module``, and the same names on other receivers
hold anything (an optimizer's, an LR scheduler's or a GradScaler's ``state_dict()`` holds
numbers, lists and dicts; a module's holds what ``get_extra_state`` returns).
"""
from __future__ import annotations

from typing import Optional, Sequence

from . import torchfacts as facts
from .values import ANNOTATED, NOT, NOT_VALUE, TENSOR, UNKNOWN, UNKNOWN_VALUE, Value

# Tensor methods that return a tuple of tensors of a length known at run time (unbind, split,
# chunk...: analysis/torchfacts.py); ``split`` is a Python method whose return torch does not
# annotate.  Those of a fixed length (topk, sort, ``max`` with a dim...) are
# ``tuples.tuple_shape``'s, which knows how many and how they are laid out.
TENSOR_TUPLE_METHODS = facts.TENSOR_LIST_METHODS | {"split"}
# receiver "tensor": a tensor; "mapping": a mapping whose values are known (``mapped``).
YIELDS = {
    **{m: ("tensor", None) for m in sorted(TENSOR_TUPLE_METHODS)},
    "items": ("mapping", None),
    "values": ("mapping", None),
}
# torch.<name>(t, ...) that return a tuple of tensors of a length known at run time.
TORCH_FUNCTIONS = frozenset(
    q[6:] for q in facts.TENSOR_LIST_FUNCTIONS if q.startswith("torch.") and "." not in q[6:])
_PASS_THROUGH = frozenset({"list", "tuple", "reversed", "iter"})
BUILTINS = _PASS_THROUGH | {"zip", "enumerate", "range"}


def method_yield(recv: Value, m: str) -> Optional[Value]:
    """The container ``recv.m(...)`` returns, if the table knows it."""
    entry = YIELDS.get(m)
    if entry is None:
        return None
    receiver, _ = entry
    if receiver == "tensor":
        return tensor_pieces(recv)
    if recv.mapped is None:
        return None
    if m == "items":
        return Value(NOT, item=Value(NOT, elems=(NOT_VALUE, recv.mapped)))
    return Value(NOT, item=recv.mapped)


def tensor_pieces(t: Value) -> Optional[Value]:
    """``t.unbind()``/``split``/``chunk``: a tuple of tensors.  Of a ``t`` not proven a tensor
    but laid out by a permutation (``x.mT``, ``x.transpose(1, 2)`` of a name), pieces that keep
    the mark: a piece of ``x.mT`` of a 3-d ``x`` is strided ``(1, n)``, never contiguous."""
    if t.kind == UNKNOWN and t.permuted_by:
        return Value(NOT, item=Value(UNKNOWN, permuted_by=t.permuted_by))
    if t.kind not in (TENSOR, ANNOTATED):
        return None
    # pieces of a subclass are of that class; of a permuted tensor, never taken for contiguous
    return Value(NOT, item=Value(t.kind, caveat=t.caveat, permuted_by=t.permuted_by))


def builtin_yield(name: str, elements: Sequence[Value]) -> Optional[Value]:
    """``zip(a, b)``, ``enumerate(a)``, ``list(a)``… given what iterating each argument yields."""
    if name == "zip" and elements:
        return Value(NOT, item=Value(NOT, elems=tuple(elements)))
    if name == "range":  # ints (range raises on anything but ints and objects with __index__)
        return Value(NOT, item=Value(NOT))
    if name == "enumerate" and len(elements) == 1:
        return Value(NOT, item=Value(NOT, elems=(NOT_VALUE, elements[0])))
    if name in _PASS_THROUGH and len(elements) == 1 and elements[0] is not UNKNOWN_VALUE:
        # ``reversed(t)`` of a tensor is a tensor (``Tensor.__reversed__`` flips it)
        return Value(UNKNOWN if name == "reversed" else NOT, item=elements[0], mutable=name == "list")
    return None
