"""View legality: does ``x.view(*sizes)`` succeed on a tensor of known sizes and strides?

``Tensor.view`` succeeds iff every target dim is a split of one source dim, or a merge
of source dims with ``stride[i] == stride[i+1] * size[i+1]`` (size-1 dims ignored).
:func:`view_verdict` decides that symbolically (strides from :mod:`.layout`) and,
when the view raises, finds the sizes that would have to be 1 for it not to
(:func:`_rescues`); :func:`view_result` gives the strides of a legal view.

A literal 0 among the sizes makes the tensor empty: every view of an empty tensor
with as many elements succeeds (torch only checks strides when there are elements),
so no view with a 0 in its source or target is ever judged to raise.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import chain, combinations
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple, cast

from .layout import contiguous_strides, has_zero
from .symbolic import ONE, Condition, Cut, Mono, Quotient, Rest, Sym, chain_atoms, product

LEGAL = "legal"


ILLEGAL = "illegal"


UNKNOWN = "unknown"


def aligned_legal(sizes: Sequence[Mono], strides: Sequence[Mono], target: Sequence[Mono]) -> bool:
    """A view proven legal by torch's chunk rule alone: the source splits into chunks
    where a dim's stride is not the next dim's stride times its size, and the view
    succeeds when every chunk ends where the target's trailing dims multiply to the
    chunk's trailing elements.  Here every place where two dims are not merged for
    every value of the symbols has its trailing product equal to one of the target's:
    a place that merges by coincidence only joins two aligned chunks, and size-1 dims
    are skipped by torch, so the view works for every value.  (``x.transpose(1, 2)``
    of ``(b, n, c)`` viewed as ``(b, c, h, w)``: the chunks end after ``b`` and ``b * c``
    elements, and the target's leading products include ``b`` and ``b * c``.)"""
    kept = _drop_ones(sizes, strides)
    ends = set()  # the target's leading and trailing products
    for part in (target, list(reversed(target))):
        acc = ONE
        for t in part:
            acc = acc * t
            ends.add(("lead" if part is target else "trail", acc))
    for i in range(len(kept) - 1):
        (_, st), (s_n, st_n) = kept[i], kept[i + 1]
        if st == st_n * s_n:
            continue
        # as many elements before the chunk's end as some target dims hold, or after it
        # (the same thing when the counts agree, and the view raises when they don't)
        if ("lead", product(s for s, _ in kept[:i + 1])) not in ends \
                and ("trail", product(s for s, _ in kept[i + 1:])) not in ends:
            return False
    return True


def one_chunk(sizes: Sequence[Mono], strides: Sequence[Mono]) -> bool:
    """Every two neighbouring dims (size-1 dims skipped) merge for every value of the
    symbols: torch sees one chunk, and every view of as many elements succeeds, as
    ``reshape`` would, so the target's sizes need not be known (``x.view(shape)`` of a
    contiguous ``x``).  A count that differs raises for both alike."""
    kept = _drop_ones(sizes, strides)
    return all(st == st_n * s_n for (_, st), (s_n, st_n) in zip(kept, kept[1:]))


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


def _never_one(ratio: Optional[Mono]) -> bool:
    """True when ``ratio == 1`` is impossible while every symbol is at least 2.

    Sizes are positive integers.  A ratio whose symbols all have exponents of one
    sign (and a coefficient that does not compensate) is then above (below) 1: it
    can equal 1 only if some of its symbols are 1, the "unless s == 1" cases.  A
    ratio like ``dim / x.size(1)`` or ``s / 2`` may equal 1 by a coincidence the
    analysis cannot see, so it proves nothing.  A quotient is replaced by its
    bound: ``t / (t // k)`` is at least ``k``, so it is never 1 while ``k >= 2``.
    """
    if ratio is None:
        return False
    if any(isinstance(s, Cut) for s in ratio.symbols) and (_beyond_one(ratio, 1) or _beyond_one(ratio, -1)):
        return True
    low = ratio.bound(upper=False)
    if low is not None and low.coef >= 1 and all(e > 0 for _, e in low.powers) \
            and (low.powers or low.coef > 1):
        return True
    high = ratio.bound(upper=True)
    return high is not None and high.coef <= 1 and all(e < 0 for _, e in high.powers) \
        and bool(high.powers or high.coef < 1)


def _beyond_one(ratio: Mono, sign: int) -> bool:
    """``ratio`` is above 1 (``sign`` 1) or below it (-1) because of the parts cut from dims
    in it: ``ratio == (whole / cut) ** k * rest`` (``(cut / whole) ** k * rest``) with the
    rest at least (at most) 1 for every value of the symbols; a cut that is not the whole
    dim (:class:`_Whole`, tried on its own) is smaller than it.  ``time / x[:, :k].size(1)``
    is never 1."""
    rest: Optional[Mono] = ratio
    peeled = False
    for c, e in ratio.powers:
        if isinstance(c, Cut) and e * sign < 0 and rest is not None:
            part = Mono.sym(c) / c.whole
            if part is None:
                return False
            rest = rest * part ** abs(e) if sign > 0 else rest / part ** abs(e)
            peeled = True
    if not peeled or rest is None:
        return False
    b = rest.bound(upper=sign < 0)
    return b is not None and (b.coef >= 1 if sign > 0 else b.coef <= 1) \
        and all(e * sign > 0 for _, e in b.powers)


class _Whole(Condition):
    """In the search for rescues: a part cut from a dim (:class:`~.symbolic.Cut`) that is
    the whole dim (``x[:, :k]`` with ``k`` at least the dim's size)."""

    __slots__ = ("cut",)

    def __init__(self, cut: Cut) -> None:
        super().__init__(f"{cut.name} == {cut.whole!r}", ("whole", cut))
        self.cut = cut


class _Empty(Condition):
    """A part cut from a dim (:class:`~.symbolic.Cut`) that is empty (``x[:, :k]`` with ``k``
    0, ``x[:, 1:]`` of a dim of 1): a view of no elements never raises for its strides."""

    __slots__ = ()

    def __init__(self, cut: Cut) -> None:
        super().__init__(f"{cut.name} == 0", ("empty", cut))


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
        mismatches = {}
        for k in range(a, b - 1):
            st_k, (s_n, st_n) = kept[k][1], kept[k + 1]
            if st_k != st_n * s_n:
                mismatches[k] = st_k / (st_n * s_n)
        if not mismatches:
            continue
        if _split_impossible(src, tgt, (a, b), (c, d), [k for k, r in mismatches.items() if _never_one(r)]):
            bad.append(a)
        else:
            return UNKNOWN, groups
    return (ILLEGAL if bad else LEGAL), groups


def _split_impossible(src: Sequence[Mono], tgt: Sequence[Mono], s_span, t_span, certain: Sequence[int]) -> bool:
    """Can the view not end a target dim at every boundary ``k`` of ``certain`` (source dims
    ``k`` and ``k + 1`` that never merge, for every value of the symbols other than 1)?
    The view works only if it does: a target dim whose elements straddle such a boundary
    merges the two dims.  A boundary is a target dim's end only where the source's leading
    product up to it equals a leading product of the target's; this is impossible where
    the ratio is never 1, or where the boundaries outnumber the target's (the source's
    leading products grow strictly: every size is at least 2)."""
    (a, b), (c, d) = s_span, t_span
    if not certain:
        return False
    for k in certain:
        if all(_never_one(product(src[a:k + 1]) / product(tgt[c:j])) for j in range(c + 1, d)):
            return True
    return len(certain) > d - c - 1 and all(_above_one(s) for s in src[a:b])


def _above_one(m: Mono) -> bool:
    """``m`` is at least 2 whenever its symbols are."""
    low = m.bound(upper=False)
    return low is not None and low.coef >= 1 and all(e > 0 for _, e in low.powers) \
        and bool(low.powers or low.coef > 1)


def _forced_exact(sizes: Sequence[Mono], target: Sequence[Mono]) -> FrozenSet[Sym]:
    """The quotients that must divide exactly for the element counts to agree.

    A view without ``-1`` succeeds only if they agree.  When their ratio is 1 once the
    quotients left in it are taken as exact, and those can only move it one way,
    agreement forces each of them to be exact: ``view(b, t // 2, 2, c)`` of
    ``(b, t, c)`` is ``view(b, t / 2, 2, c)`` wherever it does not raise.  With a
    ``-1`` nothing forces that (``t // k`` may leave a remainder the ``-1``
    absorbs), so quotients stay atoms there.
    """
    if not any(m.has_quotient for m in chain(sizes, target)):
        return frozenset()
    ratio = product(target) / product(sizes)
    if ratio is None or ratio.is_one:
        return frozenset()
    if ONE not in (ratio.bound(upper=True), ratio.bound(upper=False)):
        return frozenset()
    return frozenset(a for a in ratio.symbols if isinstance(a, Quotient))


def _exact(monos: Sequence[Mono], forced: FrozenSet[Sym]) -> List[Mono]:
    return [m.exact(forced) for m in monos]  # type: ignore[misc]


def resolve_target(sizes: Sequence[Mono], target: Sequence[Optional[Mono]]) -> Optional[List[Mono]]:
    """Replace the one ``None`` (``-1``) in target by the size it stands for; quotients
    in a target without one are exact when the element counts force it."""
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
    else:
        return _exact(out, _forced_exact(sizes, out))  # type: ignore[arg-type]
    return out  # type: ignore[return-value]


# Views proven illegal name the sizes that would have to be 1; past this many
# unknowns, the search for them is not worth its cost and the view stays undecided.
MAX_RESCUE_SYMBOLS = 8


def _impossible(monos: Sequence[Mono]) -> bool:
    """Some size is below 1 (or not an integer) whenever the symbols left are at least 2:
    no tensor has it, or the view raises (a zero from ``1 // k``)."""
    for m in monos:
        high = m.bound(upper=True)
        if high is None:
            continue
        if not high.powers and (high.coef < 1 or Fraction(high.coef).denominator != 1):
            return True
        if high.powers and high.coef <= 1 and all(e < 0 for _, e in high.powers):
            return True
    return False


def _rescues(sizes: Sequence[Mono], strides: Sequence[Mono], resolved: Sequence[Mono]):
    """The minimal sets of symbols whose being 1 lets the view succeed, or None when
    that is not established.

    Every subset of the symbols is set to 1 in turn (the others are then at least 2):
    the view is proven to raise for each subset that contains none of the returned
    sets, so "raises unless one of them holds" is a proof, not a guess.
    """
    symbols: List[Sym] = list(chain_atoms(*sizes, *strides, *resolved))
    # a cut may also be the whole dim (last: its whole is substituted with the others set)
    symbols += [_Whole(c) for c in symbols if isinstance(c, Cut)
                and set(c.whole.atoms()) <= set(symbols) and c not in set(c.whole.atoms())]
    if len(symbols) > MAX_RESCUE_SYMBOLS:
        return None
    found: List[Tuple[Sym, ...]] = []
    # each subset is its prefix (one symbol fewer, a subset of the round before) with one
    # more symbol set to 1: kept per round, each subset costs one substitution, not one per symbol
    before: Dict[Tuple[Sym, ...], Optional[List[Mono]]] = {(): list(chain(sizes, strides, resolved))}
    n, r = len(sizes), len(sizes) + len(strides)
    for size in range(1, len(symbols) + 1):
        this: Dict[Tuple[Sym, ...], Optional[List[Mono]]] = {}
        for subset in combinations(symbols, size):
            if any(set(r) <= set(subset) for r in found):
                continue
            prefix = before.get(subset[:-1])
            monos = this[subset] = None if prefix is None else _subst_ones(prefix, subset[-1:], subset[:-1])
            if monos is None or _impossible(monos[:n] + monos[r:]):
                continue
            if _check(monos[:n], monos[n:r], monos[r:])[0] != ILLEGAL:
                found.append(subset)
        before = this
    return found


def _subst_ones(monos: List[Mono], syms: Sequence[Sym], before: Sequence[Sym] = ()) -> Optional[List[Mono]]:
    """``monos`` with every symbol of ``syms`` set to 1 (a :class:`_Whole`: its cut set to
    the whole dim, itself with ``before``'s substitutions made); None on a division by zero."""
    for sym in syms:
        if isinstance(sym, _Whole):
            whole: Optional[List[Mono]] = [sym.cut.whole]
            for i, b in enumerate(before):
                whole = None if whole is None else _subst_ones(whole, (b,), before[:i])
            if whole is None:
                return None
            out = [m.subst_one(sym.cut, whole[0]) for m in monos]
        else:
            out = [m.subst_one(sym) for m in monos]
        if any(m is None for m in out):
            return None
        monos = cast(List[Mono], out)
    return monos


def view_verdict(
    sizes: Sequence[Mono], strides: Sequence[Mono], target: Sequence[Optional[Mono]]
) -> Tuple[str, List[Tuple[Sym, ...]]]:
    """Whether ``view(target)`` succeeds; for ILLEGAL, the sets of symbols whose being 1
    would save it (the view raises unless every symbol of one of the sets is 1)."""
    if has_zero(sizes) or has_zero(target):
        return LEGAL, []  # no elements: torch checks the count, never the strides
    if one_chunk(sizes, strides):
        return LEGAL, []  # every shape of as many elements, whatever the target's sizes
    resolved = resolve_target(sizes, target)
    if resolved is None:
        return UNKNOWN, []
    if None not in target:
        sizes, strides = _exact_source(sizes, strides, resolved)
    verdict, _ = _check(sizes, strides, resolved)
    if verdict == UNKNOWN and aligned_legal(sizes, strides, resolved):
        return LEGAL, []
    if verdict != ILLEGAL:
        return verdict, []
    if any(isinstance(a, Quotient) for m in sizes for a in m.symbols):
        return UNKNOWN, []  # a source size like t // k may be 1 without any symbol being 1
    rescues = _rescues(sizes, strides, resolved)
    if rescues is None:
        return UNKNOWN, []
    # "unless k == 1 and x has no more dims" is reported as "unless k == 1": a weaker
    # condition, so the claim stays true; a view legal with no more dims is not reported
    known = [tuple(s for s in r if not isinstance(s, Rest)) for r in rescues]
    if not all(known):
        return UNKNOWN, []
    # a cut may hold no element (other sizes are at least 1): then no view raises
    known += [(_Empty(c),) for c in dict.fromkeys(a for m in sizes for a in m.atoms() if isinstance(a, Cut))]
    return ILLEGAL, [r for r in dict.fromkeys(known) if not any(set(o) < set(r) for o in known)]


def _exact_source(sizes: Sequence[Mono], strides: Sequence[Mono], target: Sequence[Mono]):
    """The source's sizes and strides with the quotients the element counts force exact."""
    forced = _forced_exact(sizes, target)
    return (_exact(sizes, forced), _exact(strides, forced)) if forced else (sizes, strides)


def view_result(sizes: Sequence[Mono], strides: Sequence[Mono], target: Sequence[Mono]):
    """Strides of a legal view of ``target`` as resolved (None when they cannot be derived)."""
    if has_zero(sizes) or has_zero(target):
        return _empty_view_strides(sizes, strides, target)
    sizes, strides = _exact_source(sizes, strides, target)
    kept = _drop_ones(sizes, strides)
    verdict, groups = _check(sizes, strides, target)
    if verdict != LEGAL:
        return None
    tgt_nonone = [k for k, t in enumerate(target) if not t.is_one]
    new_strides: List[Optional[Mono]] = [None] * len(target)
    for (_a, b), (c, d) in groups:
        base = kept[b - 1][1]  # innermost source stride of the group
        acc = base
        for k in range(d - 1, c - 1, -1):
            idx = tgt_nonone[k]
            new_strides[idx] = acc
            acc = acc * target[idx]
    for k, _t in enumerate(target):
        if new_strides[k] is None:
            nxt = next((new_strides[j] * target[j] for j in range(k + 1, len(target)) if new_strides[j] is not None), ONE)  # type: ignore[operator]
            new_strides[k] = nxt
    return tuple(new_strides)


def _empty_view_strides(sizes: Sequence[Mono], strides: Sequence[Mono], target: Sequence[Mono]):
    """Strides of a view of a tensor with no elements (torch's ``computeStride``): the
    source's when the shape is the same, else contiguous strides counting a 0 as 1."""
    if not has_zero(sizes) or not has_zero(target):
        return None  # the element counts differ: the view raises (as reshape does)
    if tuple(sizes) == tuple(target):
        return tuple(strides)
    return contiguous_strides(target)
