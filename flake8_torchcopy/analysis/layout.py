"""Sizes and strides through permutes and views, and the proof of view legality.

Strides are symbolic (monomials).  A tensor the analysis could not trace is
assumed contiguous; a permute, transpose or expand then gives it strides in
another order.  ``Tensor.view`` succeeds iff every target dim is a split of one
source dim, or a merge of source dims with ``stride[i] == stride[i+1] * size[i+1]``
(size-1 dims ignored).  :func:`view_verdict` decides that symbolically and,
when the view raises, finds the sizes that would have to be 1 for it not to.
"""
from __future__ import annotations

from itertools import chain
from typing import List, Optional, Sequence, Tuple

from .symbolic import ONE, ZERO, Mono, Sym, product

Sizes = Tuple[Mono, ...]
Strides = Tuple[Mono, ...]

LEGAL = "legal"
ILLEGAL = "illegal"
UNKNOWN = "unknown"


def contiguous_strides(sizes: Sequence[Mono]) -> Strides:
    out: List[Mono] = []
    acc = ONE
    for s in reversed(sizes):
        out.append(acc)
        acc = acc * s
    return tuple(reversed(out))


def normalize_dim(d: int, rank: int) -> Optional[int]:
    if rank == 0:
        return None
    if -rank <= d < rank:
        return d % rank
    return None


def permute(sizes: Sizes, strides: Strides, order: Sequence[int]):
    rank = len(sizes)
    dims = [normalize_dim(d, rank) for d in order]
    if len(dims) != rank or None in dims or sorted(dims) != list(range(rank)):  # type: ignore[type-var]
        return None
    return tuple(sizes[d] for d in dims), tuple(strides[d] for d in dims)  # type: ignore[index]


def swap(sizes: Sizes, strides: Strides, i: int, j: int):
    rank = len(sizes)
    a, b = normalize_dim(i, rank), normalize_dim(j, rank)
    if a is None or b is None:
        return None
    order = list(range(rank))
    order[a], order[b] = order[b], order[a]
    return permute(sizes, strides, order)


def movedim(sizes: Sizes, strides: Strides, src: int, dst: int):
    rank = len(sizes)
    a, b = normalize_dim(src, rank), normalize_dim(dst, rank)
    if a is None or b is None:
        return None
    order = [d for d in range(rank) if d != a]
    order.insert(b, a)
    return permute(sizes, strides, order)


def expand(sizes: Sizes, strides: Strides, target: Sequence[Optional[Mono]]):
    """``target`` items are Monos, or None for ``-1`` (keep)."""
    extra = len(target) - len(sizes)
    if extra < 0:
        return None
    new_sizes: List[Mono] = []
    new_strides: List[Mono] = []
    for k, t in enumerate(target):
        if k < extra:
            if t is None:
                return None
            new_sizes.append(t)
            new_strides.append(ZERO)
            continue
        s, st = sizes[k - extra], strides[k - extra]
        if t is None or t == s:
            new_sizes.append(s)
            new_strides.append(st)
        elif s.is_one:
            new_sizes.append(t)
            new_strides.append(ZERO)
        else:
            return None
    return tuple(new_sizes), tuple(new_strides)


def is_dense(sizes: Sequence[Mono], strides: Sequence[Mono]) -> bool:
    """Non-overlapping and dense: the strides are contiguous strides of some dim order."""
    left = [(s, st) for s, st in zip(sizes, strides) if not s.is_one]
    expected = ONE
    while left:
        for k, (s, st) in enumerate(left):
            if st == expected:
                expected = expected * s
                del left[k]
                break
        else:
            return False
    return True


def _drop_ones(sizes: Sequence[Mono], strides: Sequence[Mono]):
    return [(s, st) for s, st in zip(sizes, strides) if not s.is_one]


def _group(src: Sequence[Mono], tgt: Sequence[Mono]):
    """Partition both lists into consecutive groups of equal products, finest first.

    Returns a list of (src_slice, tgt_slice) index pairs, or None when the sizes
    cannot be matched symbolically.
    """
    groups = []
    i = j = 0
    while i < len(src) and j < len(tgt):
        found = None
        for total in range(2, (len(src) - i) + (len(tgt) - j) + 1):
            for a in range(1, total):
                b = total - a
                if i + a > len(src) or j + b > len(tgt):
                    continue
                if product(src[i:i + a]) == product(tgt[j:j + b]):
                    found = (a, b)
                    break
            if found:
                break
        if not found:
            return None
        a, b = found
        groups.append(((i, i + a), (j, j + b)))
        i, j = i + a, j + b
    if i != len(src) or j != len(tgt):
        return None
    return groups


def _one_only_if_all_one(ratio: Optional[Mono]) -> bool:
    """True when ``ratio == 1`` can hold only if some of its symbols are 1.

    Sizes are positive integers.  A ratio whose symbols all have exponents of one
    sign (and a coefficient that does not compensate) equals 1 only when those
    symbols are 1: the "unless s == 1" cases.  A ratio like ``dim / x.size(1)`` or
    ``s / 2`` may equal 1 by a coincidence the analysis cannot see, so it proves
    nothing.
    """
    if ratio is None:
        return False
    exps = [e for _, e in ratio.powers]
    if not exps:
        return ratio.coef != 1
    if all(e > 0 for e in exps):
        return ratio.coef >= 1
    if all(e < 0 for e in exps):
        return ratio.coef <= 1
    return False


def _check(sizes: Sequence[Mono], strides: Sequence[Mono], target: Sequence[Mono]):
    """LEGAL / ILLEGAL / UNKNOWN for viewing (sizes, strides) as target (no -1 left).

    ILLEGAL is claimed only when it is proven for every value of the symbols
    other than 1: the failing merged group cannot be split into finer groups, and
    its stride mismatch cannot vanish, by any coincidence between distinct symbols.
    """
    kept = _drop_ones(sizes, strides)
    src = [s for s, _ in kept]
    tgt = [t for t in target if not t.is_one]
    if not src and not tgt:
        return LEGAL, []
    groups = _group(src, tgt)
    if groups is None:
        return UNKNOWN, []
    bad = []
    for (a, b), (c, d) in groups:
        mismatches = []
        for k in range(a, b - 1):
            st_k, (s_n, st_n) = kept[k][1], kept[k + 1]
            if st_k != st_n * s_n:
                mismatches.append(st_k / (st_n * s_n))
        if not mismatches:
            continue
        if not all(_one_only_if_all_one(r) for r in mismatches):
            return UNKNOWN, groups
        for i in range(a + 1, b):  # could a coincidence split the group finer?
            for j in range(c + 1, d):
                if not _one_only_if_all_one(product(src[a:i]) / product(tgt[c:j])):
                    return UNKNOWN, groups
        bad.append(a)
    return (ILLEGAL if bad else LEGAL), groups


def resolve_target(sizes: Sequence[Mono], target: Sequence[Optional[Mono]]) -> Optional[List[Mono]]:
    """Replace the one ``None`` (``-1``) in target by the size it stands for."""
    holes = [k for k, t in enumerate(target) if t is None]
    if len(holes) > 1:
        return None
    out = list(target)
    if holes:
        known = product(t for t in target if t is not None)
        rest = product(sizes) / known
        if rest is None:
            return None
        out[holes[0]] = rest
    return out  # type: ignore[return-value]


def view_verdict(
    sizes: Sequence[Mono], strides: Sequence[Mono], target: Sequence[Optional[Mono]]
) -> Tuple[str, List[Sym]]:
    """Whether ``view(target)`` succeeds; for ILLEGAL, the symbols whose being 1 would save it."""
    resolved = resolve_target(sizes, target)
    if resolved is None:
        return UNKNOWN, []
    verdict, _ = _check(sizes, strides, resolved)
    if verdict != ILLEGAL:
        return verdict, []
    rescues: List[Sym] = []
    seen = set()
    for sym in chain.from_iterable(m.symbols for m in chain(sizes, strides, resolved)):
        if sym in seen:
            continue
        seen.add(sym)
        s2 = [m.subst_one(sym) for m in sizes]
        st2 = [m.subst_one(sym) for m in strides]
        t2 = [m.subst_one(sym) for m in resolved]
        if _check(s2, st2, t2)[0] == LEGAL:
            rescues.append(sym)
    return ILLEGAL, rescues


def view_result(sizes: Sequence[Mono], strides: Sequence[Mono], target: Sequence[Mono]):
    """Strides of a legal view (None when they cannot be derived)."""
    kept = _drop_ones(sizes, strides)
    src = [s for s, _ in kept]
    verdict, groups = _check(sizes, strides, target)
    if verdict != LEGAL:
        return None
    tgt_nonone = [k for k, t in enumerate(target) if not t.is_one]
    new_strides: List[Optional[Mono]] = [None] * len(target)
    for (a, b), (c, d) in groups:
        base = kept[b - 1][1]  # innermost source stride of the group
        acc = base
        for k in range(d - 1, c - 1, -1):
            idx = tgt_nonone[k]
            new_strides[idx] = acc
            acc = acc * target[idx]
    for k, t in enumerate(target):
        if new_strides[k] is None:
            nxt = next((new_strides[j] * target[j] for j in range(k + 1, len(target)) if new_strides[j] is not None), ONE)  # type: ignore[operator]
            new_strides[k] = nxt
    del src
    return tuple(new_strides)
