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
    """What ``t.chunk(n, d)``/``split``/``tensor_split`` (or the ``torch.`` form; ``rest`` the
    arguments after ``t``: ``n``, then ``d``, a literal, else 0) returns: ``container`` with
    each piece's layout, ``t``'s sizes and strides with a size of its own in dim ``d``; one by
    one (``elems``) where the split dim's size and every piece's size are known, so that a
    piece of 1 (the last chunk of 5 in 3) is told from the others; the item (what iterating
    gives) where every piece has the same."""
    base = container.item
    d = _split_dim(node, rest, len(t.sizes)) if t.sizes is not None else None
    if base is None or d is None or t.sizes is None or t.strides is None or not rest \
            or any(isinstance(a, ast.Starred) for a in node.args):
        return container
    whole = t.sizes[d].coef if not t.sizes[d].powers and isinstance(t.sizes[d].coef, int) else None
    sizes = _all_sizes(m, rest[0], whole) if whole is not None and whole > 0 else None

    def cut(size: Mono) -> Value:
        return base.with_(sizes=t.sizes[:d] + (size,) + t.sizes[d + 1:], strides=t.strides,  # type: ignore[index]
                          assumes=t.assumes)

    size = _any_piece_size(ev, node, m, rest[0], d, whole, sizes)
    out = container.with_(item=cut(size) if size is not None else base)
    if not sizes or len(sizes) > _MAX_PIECES:
        return out
    return out.with_(elems=tuple(cut(Mono.const(k)) for k in sizes))


def _any_piece_size(ev, node: ast.Call, m: str, arg: ast.expr, d: int, whole: Optional[int],
                    sizes: Optional[List[int]]) -> Optional[Mono]:
    """The size in dim ``d`` that holds for any piece (known where every piece has the same;
    else a symbol, taken for no 1); None where a piece may be empty or of size 1 (a view of
    it may be legal)."""
    n = const_int(arg) if m != "split_with_sizes" else None
    listed = _listed_sizes(arg) if m in ("split", "split_with_sizes") and n is None else None
    if whole == 0:
        return ZERO  # every piece is empty there (split(1) gives one, of size 0)
    if listed and len(set(listed)) == 1:
        return Mono.const(listed[0])
    if sizes and len(set(sizes)) == 1:
        return Mono.const(sizes[0])
    if m in ("split", "unsafe_split") and n == 1:
        return ONE
    # pieces of listed sizes, none empty and none of size 1 (a sym is taken for no 1)
    if not (listed and min(listed) > 1 or _never_empty(m, n, whole)):
        return None  # a piece may be empty (tensor_split(3) of 2, split([2, 0])): a view of it is legal
    if whole is not None and not listed and (min(sizes) if sizes else whole) <= 1:
        return None  # chunk(3) of 5 ends in a piece of size 1: a view of it may be legal
    return Mono.sym(Sym(f"{ev.idx.text(node)}[i].size({d})", ("piece", id(node), d)))


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
