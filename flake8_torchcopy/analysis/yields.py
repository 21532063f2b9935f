"""Library knowledge: what PyTorch APIs yield when iterated, unpacked or indexed.

One table, ``YIELDS``: for a method name, which receivers it applies to and the
container it returns, as a :class:`~.values.Value` whose ``item`` is what iterating
it yields and whose ``mapped`` is what its values are.  ``zip``/``enumerate``/
``list``/``tuple``/``reversed`` carry the items through; ``.items()``/``.values()``
and subscripts read a mapping's values.
"""
from __future__ import annotations

from typing import Optional, Sequence

from .values import ANNOTATED, NOT, NOT_VALUE, TENSOR, UNKNOWN, UNKNOWN_VALUE, Value

_TENSOR = Value(TENSOR)
_NAMED_TENSOR = Value(NOT, elems=(NOT_VALUE, _TENSOR))  # (name, tensor)

# receiver "module": a value of unknown kind that is no import and no local class
# (nn.Module's methods); "tensor": a tensor; "mapping": a mapping of known values.
YIELDS = {
    "parameters": ("module", Value(NOT, item=_TENSOR)),
    "buffers": ("module", Value(NOT, item=_TENSOR)),
    "named_parameters": ("module", Value(NOT, item=_NAMED_TENSOR)),
    "named_buffers": ("module", Value(NOT, item=_NAMED_TENSOR)),
    "state_dict": ("module", Value(NOT, mapped=_TENSOR)),
    "unbind": ("tensor", None),
    "split": ("tensor", None),
    "chunk": ("tensor", None),
    "tensor_split": ("tensor", None),
    "items": ("mapping", None),
    "values": ("mapping", None),
}
TORCH_FUNCTIONS = frozenset({"unbind", "split", "chunk", "tensor_split"})
_PASS_THROUGH = frozenset({"list", "tuple", "reversed", "iter"})
BUILTINS = _PASS_THROUGH | {"zip", "enumerate"}


def _is_module_like(recv: Value) -> bool:
    return recv.kind == UNKNOWN and recv.qualname is None and not recv.local_def


def method_yield(recv: Value, m: str) -> Optional[Value]:
    """The container ``recv.m(...)`` returns, if the table knows it."""
    entry = YIELDS.get(m)
    if entry is None:
        return None
    receiver, result = entry
    if receiver == "module":
        return result if _is_module_like(recv) else None
    if receiver == "tensor":
        return tensor_pieces(recv)
    if recv.mapped is None:
        return None
    if m == "items":
        return Value(NOT, item=Value(NOT, elems=(NOT_VALUE, recv.mapped)))
    return Value(NOT, item=recv.mapped)


def tensor_pieces(t: Value) -> Optional[Value]:
    """``t.unbind()``/``split``/``chunk``: a tuple of tensors."""
    if t.kind not in (TENSOR, ANNOTATED):
        return None
    return Value(NOT, item=Value(t.kind))


def builtin_yield(name: str, elements: Sequence[Value]) -> Optional[Value]:
    """``zip(a, b)``, ``enumerate(a)``, ``list(a)``… given what iterating each argument yields."""
    if name == "zip" and elements:
        return Value(NOT, item=Value(NOT, elems=tuple(elements)))
    if name == "enumerate" and len(elements) == 1:
        return Value(NOT, item=Value(NOT, elems=(NOT_VALUE, elements[0])))
    if name in _PASS_THROUGH and len(elements) == 1 and elements[0] is not UNKNOWN_VALUE:
        return Value(NOT, item=elements[0])
    return None
