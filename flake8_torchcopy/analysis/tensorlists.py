"""Lists of tensors: what the items of a list the analysis followed are (TRC108).

A list value says what it holds in two ways: a literal's ``elems`` (one value per item),
or ``item``, the value of every item of a list built by a comprehension
(:meth:`~.binding.Binding.e_ListComp`) or filled by ``lst.append(x)`` statements
(:func:`.numpyish.appended`; a rule may trust those only where
:func:`.locallists.list_stays_local` proves the list never escapes).  :func:`item_kinds`
reads either, and flattens nested literals (``[[a, b], [c, d]]``), whose items
``torch.tensor`` converts the same way.  It does not look inside an ``item`` of a nested
value: a zip, a dict view or an iterator is no sequence to ``torch.tensor``.
"""
from __future__ import annotations

from typing import List, Optional

from .values import ANNOTATED, NOT, TENSOR, Value

SOME = "some"  # a tensor on some paths, anything on the others


def leaf_kind(v: Value, trust_annotations: bool) -> Optional[str]:
    """``"tensor"`` for a proven tensor, ``"annotated"`` for one proven only by a trusted
    annotation, ``"some"`` for a tensor on some paths; None otherwise."""
    if v.kind == TENSOR:
        return TENSOR
    if v.kind == ANNOTATED:
        return ANNOTATED if trust_annotations else None
    return SOME if v.some else None


def _flatten(v: Value, trust: bool, out: List[Optional[str]]) -> None:
    if v.kind == NOT and v.elems is not None:
        for e in v.elems:  # a nested literal, tuple result or torch.Size: a sequence
            _flatten(e, trust, out)
        return
    out.append(leaf_kind(v, trust))


def item_kinds(v: Value, trust_annotations: bool) -> Optional[List[Optional[str]]]:
    """The kinds (:func:`leaf_kind`) of the items of a list value: one per item of a
    literal (items of nested literals in their place), one standing for every item of a
    list built by a comprehension or appends.  None: not a list the analysis followed, or
    one with no items known (``[]``)."""
    if v.kind != NOT:
        return None
    out: List[Optional[str]] = []
    if v.elems is not None:
        _flatten(v, trust_annotations, out)
    elif v.item is not None:
        _flatten(v.item, trust_annotations, out)
    return out or None
