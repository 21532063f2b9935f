"""The layout of a piece of ``t.chunk(n, d)``, ``split``, ``tensor_split`` (and their
``torch.`` forms): ``t``'s strides, a size of its own in the split dim, known for each piece
(by its index, or unpacked) where the dim's size is, and for any piece (iterated) where every
piece has the same; whether a piece may be empty (a view of an empty piece is legal)."""
from __future__ import annotations

import ast
from typing import List, Optional

from .methodlayouts import const_int
from .symbolic import ONE, ZERO, Mono, Sym
from .values import Value

PIECES = frozenset({"chunk", "split", "tensor_split", "unsafe_chunk", "unsafe_split", "split_with_sizes"})


#: pieces given one by one (``a, b, c = x.chunk(3, 1)``, ``x.split(2, 1)[0]``) up to this many
_MAX_PIECES = 16


def pieces_of(ev, node: ast.Call, m: str, t: Value, container: Value, rest: List[ast.expr]) -> Value:
    """What ``t.chunk(n, d)``/``split``/``tensor_split`` (or the ``torch.`` form) returns:
    ``container`` with each piece's layout; one by one (``elems``) where the split dim's size
    and every piece's size are known, so that a piece of 1 (the last chunk of 5 in 3) is told
    from the others; the item (what iterating gives) where every piece has the same."""
    base = container.item
    out = container.with_(item=piece_layout(ev, node, m, t, base, rest))
    if base is None or t.sizes is None or t.strides is None or not rest \
            or any(isinstance(a, ast.Starred) for a in node.args):
        return out
    d = _split_dim(node, rest, len(t.sizes))
    whole = t.sizes[d].coef if d is not None and not t.sizes[d].powers and isinstance(t.sizes[d].coef, int) \
        else None
    sizes = _all_sizes(m, rest[0], whole) if whole is not None and whole > 0 else None
    if d is None or not sizes or len(sizes) > _MAX_PIECES:
        return out
    return out.with_(elems=tuple(base.with_(sizes=t.sizes[:d] + (Mono.const(k),) + t.sizes[d + 1:],
                                            strides=t.strides, assumes=t.assumes) for k in sizes))


def _split_dim(node: ast.Call, rest: List[ast.expr], rank: int) -> Optional[int]:
    dims = list(rest[1:2]) + [k.value for k in node.keywords if k.arg == "dim"]
    d = const_int(dims[0]) if len(dims) == 1 else 0 if not dims else None
    return d % rank if d is not None and -rank <= d < rank else None


def _all_sizes(m: str, arg: ast.expr, whole: int) -> Optional[List[int]]:
    """The size of each piece, in order, where torch cuts a dim of size ``whole`` (> 0) so."""
    listed = _listed_sizes(arg) if m in ("split", "split_with_sizes", "unsafe_split") else None
    if listed is not None:
        return listed if sum(listed) == whole else None  # else torch raises
    n = const_int(arg)
    if n is None or n <= 0:
        return None
    if m in ("chunk", "unsafe_chunk"):
        each = -(-whole // n)
        return [min(each, whole - i) for i in range(0, whole, each)]
    if m in ("split", "unsafe_split"):
        return [min(n, whole - i) for i in range(0, whole, n)]
    if m == "tensor_split":  # sections: the first whole % n one longer
        return [whole // n + (1 if i < whole % n else 0) for i in range(n)]
    return None


def piece_layout(ev, node: ast.Call, m: str, t: Value, piece: Optional[Value],
                 rest: List[ast.expr]) -> Optional[Value]:
    """A piece of ``t.chunk(n, d)``/``split``/``tensor_split`` or ``torch.chunk(t, n, d)``...
    (``m`` the name, ``rest`` the arguments after ``t``: ``n``, then ``d``, a literal, else
    0): ``t``'s sizes and strides, with a size of its own (at most ``t``'s) in dim ``d``,
    known where every piece has the same."""
    d = _split_dim(node, rest, len(t.sizes)) if t.sizes is not None else None
    if piece is None or d is None or t.sizes is None or t.strides is None or not rest \
            or any(isinstance(a, ast.Starred) for a in node.args):
        return piece
    whole = t.sizes[d].coef if not t.sizes[d].powers and isinstance(t.sizes[d].coef, int) else None
    n = const_int(rest[0]) if m != "split_with_sizes" else None
    listed = _listed_sizes(rest[0]) if m in ("split", "split_with_sizes") and n is None else None
    # a dim of size 0: every piece is empty there (split(1) gives one, of size 0)
    size = ZERO if whole == 0 else Mono.const(listed[0]) if listed and len(set(listed)) == 1 \
        else _piece_size(m, n, whole)
    if size is None:
        # pieces of listed sizes, none empty and none of size 1 (a sym is taken for no 1)
        if not (listed and min(listed) > 1 or _never_empty(m, n, whole)):
            return piece  # a piece may be empty (tensor_split(3) of 2, split([2, 0])): a view of it is legal
        if whole is not None and not listed and _smallest(m, n, whole) <= 1:
            return piece  # chunk(3) of 5 ends in a piece of size 1: a view of it may be legal
        size = Mono.sym(Sym(f"{ev.idx.text(node)}[i].size({d})", ("piece", id(node), d)))
    return piece.with_(sizes=t.sizes[:d] + (size,) + t.sizes[d + 1:], strides=t.strides, assumes=t.assumes)


def _listed_sizes(node: ast.expr) -> Optional[List[int]]:
    """The sizes of ``split([3, 3], d)``: a list or tuple display of literal ints (else None)."""
    if not isinstance(node, (ast.List, ast.Tuple)) or not node.elts:
        return None
    sizes = [const_int(e) for e in node.elts]
    return None if any(k is None or k < 0 for k in sizes) else sizes  # type: ignore[return-value]


def _never_empty(m: str, n: Optional[int], whole: Optional[int]) -> bool:
    """Is every piece as long as 1 in the split dim, where ``t`` is (chunks always are, a
    split by an int size too; sections only while they are no more than ``whole``)?"""
    if m in ("chunk", "unsafe_chunk"):
        return True
    if m in ("split", "unsafe_split"):
        return n is not None and n > 0
    return m == "tensor_split" and n is not None and whole is not None and 0 < n <= whole


def _smallest(m: str, n: Optional[int], whole: int) -> int:
    """The size of the smallest piece of a dim of known size ``whole`` (> 0) cut into pieces of
    different sizes by ``n`` (> 0): the last chunk or split piece, or a section."""
    n = n or 1
    if m in ("chunk", "unsafe_chunk"):
        each = -(-whole // n)
        return whole - each * (-(-whole // each) - 1)
    if m in ("split", "unsafe_split"):
        return whole % n or n
    return whole // n


def _piece_size(m: str, n: Optional[int], whole: Optional[int]) -> Optional[Mono]:
    """The size every piece has in the split dim, where all have the same: ``split(1)``, or
    ``n`` (chunks, sections, or a split size) dividing a known ``whole``."""
    if n is None or n <= 0:
        return None
    if m in ("split", "unsafe_split") and n == 1:
        return ONE
    if whole is None or whole <= 0:
        return None
    if m in ("split", "unsafe_split"):
        return Mono.const(n) if whole % n == 0 else None
    if m in ("chunk", "unsafe_chunk"):
        each = -(-whole // n)  # ceil: every chunk but the last, which holds the rest
        return Mono.const(each) if whole % each == 0 else None
    return Mono.const(whole // n) if whole % n == 0 else None  # tensor_split(n): sections
