"""What the analysis knows about a value: its kind, and for tensors their sizes and strides.

Tensor-ness is three-valued (tensor / not a tensor / unknown), plus ``ANNOTATED``:
a value whose only evidence is a ``torch.Tensor`` annotation, which counts as a
tensor only with ``trust_annotations`` (and then its fixes are unsafe).
"""
from __future__ import annotations

import itertools
import operator
from typing import Dict, FrozenSet, Optional, Tuple

from .symbolic import Mono, Sym

TENSOR = "tensor"
ANNOTATED = "annotated"
NOT = "not"
UNKNOWN = "unknown"

_serial = itertools.count(1)

Sizes = Tuple[Mono, ...]
Strides = Tuple[Mono, ...]


class HeldByValue:
    """A node per :class:`Value` (the value a module-level ``def`` or ``class`` bound), found
    by the value itself: the value is held, so that its id is never a later value's (keyed by
    a bare id, a def nested in a function, made after the first is gone, found another's def)."""

    __slots__ = ("_held",)

    def __init__(self) -> None:
        self._held: Dict[int, tuple] = {}

    def put(self, value: "Value", node) -> None:
        self._held[id(value)] = (value, node)

    def get(self, value: "Optional[Value]"):
        held = self._held.get(id(value))
        return held[1] if held is not None and held[0] is value else None

    def values(self) -> list:
        return [node for _, node in self._held.values()]


class Value:
    """Immutable facts about one value.

    ``qualname``: set for names bound to imports (``"torch"``, ``"copy.deepcopy"``).
    ``local_def``: a function or class defined in this file (never torch's).
    ``sizes``/``strides``: per dim, for tensors of known rank (every size known).
    ``strides`` are symbolic, assuming the tensors the analysis could not trace
    were contiguous.  ``permuted_by`` names the op that made the layout
    non-contiguous (``.transpose(1, 2)``).  ``mono``: the value of an int size.
    ``elems``: the items of a tuple (``x.shape``, ``a.unbind(0)``).
    ``open_layout``: (sizes, strides) of a tensor whose rank is known only from
    below (``x.transpose(1, 2)`` of a parameter: three dims or more); the last item
    stands for the dims after those, contiguous among themselves; the strides are
    None where not known (``y.expand_as(x)`` of such an ``x``).  Only sizes read by
    index, slices, elementwise ops and views consult it; to everything else the sizes
    are unknown.
    ``permuted_by`` also marks a tensor derived from a permuted one whose strides
    were lost: such a tensor is never assumed contiguous.
    ``mixed``: an unknown value that is a tensor on some path and provably something
    else on every other.  ``item``: what iterating the value yields (a container of
    tensors); ``mapped``: for a mapping, what its values are (``state_dict()``).
    ``mutable``: a list (``elems``/``item`` hold only while no code the analysis does not
    follow can store into it: :func:`.locallists.list_reads_safe`).
    ``nnmod``: an instance of a torch.nn module class (its tag, :mod:`.nnmodules`).
    """

    __slots__ = ("kind", "qualname", "local_def", "sizes", "strides", "permuted_by", "mono", "elems",
                 "is_class", "mixed", "some", "item", "mapped", "open_layout", "caveat", "assumes", "array",
                 "mutable", "nnmod", "serial")

    def __init__(
        self,
        kind: str = UNKNOWN,
        *,
        qualname: Optional[str] = None,
        local_def: bool = False,
        sizes: Optional[Sizes] = None,
        strides: Optional[Strides] = None,
        permuted_by: Optional[str] = None,
        mono: Optional[Mono] = None,
        elems: Optional[Tuple["Value", ...]] = None,
        is_class: bool = False,
        mixed: bool = False,
        some: bool = False,
        item: Optional["Value"] = None,
        mapped: Optional["Value"] = None,
        open_layout: Optional[Tuple[Sizes, Optional[Strides]]] = None,
        caveat: Optional[str] = None,
        assumes: FrozenSet[Sym] = frozenset(),
        array=None,
        mutable: bool = False,
        nnmod: Optional[str] = None,
    ) -> None:
        self.kind = kind
        self.qualname = qualname
        self.local_def = local_def
        self.sizes = sizes
        self.strides = strides if sizes is not None else None
        self.permuted_by = permuted_by
        self.mono = mono
        self.elems = elems
        self.is_class = is_class
        self.mixed = mixed and kind == UNKNOWN
        self.some = (some or mixed) and kind == UNKNOWN
        self.item = item
        self.mapped = mapped
        self.open_layout = open_layout if sizes is None else None
        self.caveat = caveat if kind in (TENSOR, ANNOTATED) else None
        self.assumes = assumes if sizes is not None or self.open_layout is not None else frozenset()
        self.array = array if kind == NOT else None
        self.mutable = mutable
        self.nnmod = nnmod
        self.serial = next(_serial)

    def with_(self, **changes) -> "Value":
        """The same runtime value, known better: keeps the serial (symbols stay stable)."""
        fields = dict(zip(_KNOWN, _known(self)))  # (one C call reads them all)
        fields.update(changes)
        kind = fields.pop("kind")
        out = Value(kind, **fields)
        out.serial = self.serial
        return out

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        extra = f" sizes={self.sizes} strides={self.strides}" if self.sizes is not None else ""
        return f"<Value {self.kind}{' ' + self.qualname if self.qualname else ''}{extra}>"


SUBCLASS = "it may be a Tensor subclass (only its type is checked)"
ASSERTED = "it is proven only by an assert (gone under python -O)"
OTHER_MODULE = "it is proven only by another module of the project (which may change)"
MODULE_GLOBAL = "it is a module global (another module may rebind it)"

_KNOWN = tuple(k for k in Value.__slots__ if k != "serial")  # what Value.with_ carries over
_known = operator.attrgetter(*_KNOWN)
UNKNOWN_VALUE = Value(UNKNOWN)
NOT_VALUE = Value(NOT)

#: a scope's bindings: name -> its value
Env = Dict[str, Value]


def join_kind(a: str, b: str) -> str:
    if a == b:
        return a
    if {a, b} == {TENSOR, ANNOTATED}:
        return ANNOTATED
    return UNKNOWN


def _held(item: Optional[Value]) -> bool:
    """Items a list filled by appends keeps through a join with an empty literal: arrays
    (:mod:`.numpyish`), tensors, values that are tensors on some paths, and rows of them."""
    if item is None:
        return False
    if item.kind == NOT and item.elems:  # a row (``rows.append([x0, y0])``) of such items
        return all(_held(e) for e in item.elems)
    return item.array is not None or item.kind in (TENSOR, ANNOTATED) or item.some


def join(a: Optional[Value], b: Optional[Value]) -> Value:
    """The value a name has when either of two paths may have reached here."""
    if a is None or b is None:
        return UNKNOWN_VALUE
    if a is b:
        return a
    if a.qualname is not None or b.qualname is not None:
        return a if a.qualname == b.qualname and a.qualname is not None else UNKNOWN_VALUE
    kind = join_kind(a.kind, b.kind)
    # a tensor on one path, provably not on the other (or already so on both)
    mixed = kind == UNKNOWN and {"mixed" if a.mixed else a.kind,
                                 "mixed" if b.mixed else b.kind} <= {TENSOR, NOT, "mixed"}
    same_shape = a.sizes is not None and a.sizes == b.sizes
    item = join(a.item, b.item) if a.item is not None and b.item is not None else None
    # rows of one length (``[x0, y0]`` appended on two paths, or by two iterations): per position
    elems = None
    if kind == NOT and a.elems and b.elems is not None and len(a.elems) == len(b.elems) <= 16:
        elems = tuple(join(x, y) for x, y in zip(a.elems, b.elems))
    if item is None and kind == NOT:  # an empty literal and a list of arrays (of tensors): so
        if a.elems == () and _held(b.item):
            item = b.item
        elif b.elems == () and _held(a.item):
            item = a.item
    return Value(
        kind,
        local_def=a.local_def and b.local_def,
        sizes=a.sizes if same_shape else None,
        strides=a.strides if same_shape and a.strides == b.strides else None,
        permuted_by=a.permuted_by or b.permuted_by,  # permuted on one path: never assumed contiguous
        mono=a.mono if a.mono is not None and a.mono == b.mono else None,
        mixed=mixed,
        some=kind == UNKNOWN and (TENSOR in (a.kind, b.kind) or a.some or b.some),
        elems=elems,
        item=item,
        mapped=join(a.mapped, b.mapped) if a.mapped is not None and b.mapped is not None else None,
        caveat=a.caveat or b.caveat,
        assumes=a.assumes | b.assumes,
        array=a.array.join(b.array) if a.array is not None and b.array is not None else None,
        mutable=a.mutable or b.mutable,
        nnmod=a.nnmod if a.nnmod == b.nnmod else None,
    )
