"""Sizes and strides through permutes and views, and the proof of view legality.

Strides are symbolic (monomials).  A tensor the analysis could not trace is
assumed contiguous; a permute, transpose or expand then gives it strides in
another order.  ``Tensor.view`` succeeds iff every target dim is a split of one
source dim, or a merge of source dims with ``stride[i] == stride[i+1] * size[i+1]``
(size-1 dims ignored).  :func:`view_verdict` decides that symbolically and,
when the view raises, finds the sizes that would have to be 1 for it not to.

A literal 0 among the sizes makes the tensor empty: every view of an empty tensor
with as many elements succeeds (torch only checks strides when there are elements),
so no view with a 0 in its source or target is ever judged to raise.

The output of an elementwise op (TensorIterator) is laid out by a sort of the
dims over the strides of *all* its tensor inputs, the first that orders a pair of
dims deciding, ties and size-1 dims passed on to the next; broadcast inputs and
size-1 dims with odd strides change the result.  :func:`elementwise` follows it
only where that cannot matter: every tensor input has the same sizes and the same
dense strides (size-1 dims aside), and the output then has those strides.
Anything else is left unknown.  ``masked_fill`` is no TensorIterator op: it
returns a contiguous copy of the broadcast shape (:func:`broadcast`).
"""
from __future__ import annotations

from fractions import Fraction
from itertools import chain, combinations
from typing import FrozenSet, List, Optional, Sequence, Tuple

from .symbolic import ONE, ZERO, Mono, Quotient, Rest, Sym, chain_atoms, product

Sizes = Tuple[Mono, ...]
Strides = Tuple[Mono, ...]

LEGAL = "legal"
ILLEGAL = "illegal"
UNKNOWN = "unknown"


def contiguous_strides(sizes: Sequence[Mono]) -> Strides:
    """Row-major strides; a literal 0 counts as 1, as in torch (``torch.empty(2, 0)`` has
    strides ``(1, 1)``)."""
    out: List[Mono] = []
    acc = ONE
    for s in reversed(sizes):
        out.append(acc)
        acc = acc * (ONE if s.coef == 0 else s)
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


def close_rank(sizes: Sizes, strides: Strides) -> Tuple[Sizes, Strides]:
    """A layout of unknown rank (its last size a :class:`Rest`) once the rank is known to
    be that of the dims named before it (``b, t, c = y.shape``): the rest is empty."""
    rest = next(iter(sizes[-1].symbols))
    return sizes[:-1], tuple(st.subst_one(rest) for st in strides[:-1])  # type: ignore[misc]


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


def has_zero(monos: Sequence[Optional[Mono]]) -> bool:
    """A literal 0 among the sizes: the tensor has no elements."""
    return any(m is not None and m.coef == 0 for m in monos)


def broadcast(*shapes: Sequence[Mono]) -> Optional[Sizes]:
    """The broadcast of sizes (aligned on the right): per dim the sizes are equal, or all
    but one are a literal 1.  None when that cannot be told symbolically (``n`` against
    ``m``: torch raises unless they are equal or one is 1 at run time)."""
    rank = max((len(s) for s in shapes), default=0)
    out: List[Mono] = []
    for k in range(rank):
        dims = {s[len(s) - rank + k] for s in shapes if len(s) - rank + k >= 0}
        dims.discard(ONE)
        if len(dims) > 1:
            return None
        out.append(next(iter(dims)) if dims else ONE)
    return tuple(out)


def same_layout(a: Tuple[Sizes, Strides], b: Tuple[Sizes, Strides]) -> bool:
    """Equal sizes, and equal strides on every dim not of a literal size 1."""
    (sa, sta), (sb, stb) = a, b
    return sa == sb and len(sta) == len(stb) == len(sa) \
        and all(s.is_one or x == y for s, x, y in zip(sa, sta, stb))


def elementwise(operands: Sequence[Optional[Tuple[Sizes, Strides]]]) -> Optional[Strides]:
    """The strides of the output of a TensorIterator op of these tensor inputs (Python
    numbers left out; None for an input whose layout is not known), or None when they
    are not certain.

    TensorIterator sorts the dims by the inputs' strides, the first input that orders
    a pair deciding; a size-1 dim (a stride 0, a stride equal to another dim's) or a
    broadcast input hands the decision on, so the output of inputs that disagree, or
    of one input broadcast against another, depends on all of them, sometimes on the
    strides of their size-1 dims, and is left unknown.  Where every input has the same
    sizes and the same dense strides (size-1 dims aside: any strides there, whatever
    sizes turn out to be 1 at run time), every input orders every pair the same way and
    the output has those strides; with all inputs alike, fast setup gives them too.
    Checked against torch in ``tests/test_layout_rules.py``.
    """
    if not operands or any(op is None for op in operands):
        return None
    first = operands[0]
    assert first is not None
    if not all(same_layout(first, op) for op in operands[1:]):  # type: ignore[arg-type]
        return None
    sizes, strides = first
    if has_zero(sizes) or not is_dense(sizes, strides):
        return None
    return tuple(strides)


def _order(a: Mono, b: Mono) -> Optional[int]:
    """-1, 0 or 1 as ``a`` is below, equal to or above ``b`` for every value of the symbols
    at least 2; None when that depends on them (``n`` against ``m``)."""
    if a == b:
        return 0
    ratio = b / a
    if ratio is None:
        return None
    if _above_one(ratio):
        return -1
    inverse = a / b
    return 1 if inverse is not None and _above_one(inverse) else None


def _above_one(ratio: Mono) -> bool:
    low = ratio.bound(upper=False)
    return low is not None and low.coef >= 1 and all(e > 0 for _, e in low.powers) \
        and bool(low.powers or low.coef > 1)


def tensor_iterator(
    operands: Sequence[Tuple[Sizes, Optional[Strides]]],
) -> Optional[Tuple[Strides, FrozenSet[Sym]]]:
    """The strides of the output of a TensorIterator op of ``operands`` ((sizes, strides)
    in argument order, strides None where not known), decided as ATen's TensorIterator
    does for every value of the symbols at least 2, and the symbols that assumption
    rests on (the output is claimed only while none of them is 1); None when the
    strides depend on more than the analysis knows.

    The output's sizes are the broadcast of the inputs'.  Fast setup (every input of
    the output's sizes, and all contiguous, all channels-last or all dense with equal
    strides) gives those strides.  Otherwise each input's strides are taken with 0 on
    the dims it is broadcast along, and the dims are ordered by an insertion sort
    whose comparison asks the inputs in turn (a 0 stride, or an equal stride on a dim
    no larger, passes the question on); the output is contiguous in that order.
    An input whose strides are not known, or that is expanded (a stride 0 on a dim not
    of size 1), may be asked nothing: on the CPU an input of another dtype is first cast
    to the common one, which keeps a dense or strided input's dim order but gives an
    expanded one strides of its own (and breaks a non-dense input's ties).  With such
    an input the first must be dense (fast setup, whatever the others are, gives the same);
    a literal size 1 in the output leaves the result unknown (the strides of size-1
    dims are not modelled, and they can take part in the sort).  Restated and checked
    against torch in ``tests/test_layout_rules.py``.
    """
    if not operands:
        return None
    out = broadcast(*(sz for sz, _ in operands))
    if out is None or has_zero(out) or any(s.is_one for s in out):
        return None
    ndim = len(out)
    assumed = set(chain_atoms(*out))
    if ndim <= 1:
        return contiguous_strides(out), frozenset(assumed)
    known = [st is not None for _, st in operands]
    same = all(tuple(sz) == tuple(out) for sz, _ in operands)
    if all(known):
        fast = _fast_setup(out, operands) if same else None  # type: ignore[arg-type]
        if fast is not None:
            return fast, frozenset(assumed)
    elif not (known[0] and tuple(operands[0][0]) == tuple(out)
              and is_dense(out, operands[0][1])):  # type: ignore[arg-type]
        return None
    rows: List[Optional[Tuple[List[Mono], bool]]] = []
    for sizes, strides in operands:
        if strides is None:
            rows.append(None)
            continue
        if any(st.coef == 0 and not n.is_one for n, st in zip(sizes, strides)):
            rows.append(None)  # expanded: a cast to the common dtype would give it strides
            continue
        off = ndim - len(sizes)
        row = [ZERO] * ndim
        for i, (n, st) in enumerate(zip(sizes, strides)):
            row[off + i] = ZERO if n.is_one else st
        rows.append((row, is_dense(sizes, strides)))

    class Undecided(Exception):
        pass

    def should_swap(d0: int, d1: int) -> int:
        for entry in rows:
            if entry is None:
                raise Undecided
            row, dense = entry
            s0, s1 = row[d0], row[d1]
            if s0.coef == 0 or s1.coef == 0:
                continue
            order = _order(s0, s1)
            if order is None or order == 0 and not dense:
                raise Undecided  # a cast (CPU, mixed dtypes) lays a non-dense input out anew
            assumed.update(chain_atoms(s0, s1))
            if order:
                return order
            shape = _order(out[d0], out[d1])
            if shape is None:
                raise Undecided
            if shape > 0:
                return 1
        return 0

    perm = list(range(ndim - 1, -1, -1))
    try:
        for i in range(1, ndim):
            d1 = i
            for d0 in range(i - 1, -1, -1):
                cmp = should_swap(perm[d0], perm[d1])
                if cmp > 0:
                    perm[d0], perm[d1] = perm[d1], perm[d0]
                    d1 = d0
                elif cmp < 0:
                    break
    except Undecided:
        return None
    strides_out: List[Mono] = [ONE] * ndim
    acc = ONE
    for d in perm:
        strides_out[d] = acc
        acc = acc * out[d]
    return tuple(strides_out), frozenset(assumed)


def _fast_setup(out: Sizes, operands: Sequence[Tuple[Sizes, Strides]]) -> Optional[Strides]:
    """TensorIterator's fast setup for inputs all of the output's sizes (no size 1)."""
    contiguous = contiguous_strides(out)
    if all(tuple(st) == contiguous for _, st in operands):
        return contiguous
    if len(out) == 4:
        order = [0, 2, 3, 1]
        mem = contiguous_strides([out[d] for d in order])
        last = tuple(mem[order.index(d)] for d in range(4))
        if all(tuple(st) == last for _, st in operands):
            return last
    first = tuple(operands[0][1])
    if is_dense(out, first) and all(tuple(st) == first for _, st in operands):
        return first
    return None


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
    low = ratio.bound(upper=False)
    if low is not None and low.coef >= 1 and all(e > 0 for _, e in low.powers) \
            and (low.powers or low.coef > 1):
        return True
    high = ratio.bound(upper=True)
    return high is not None and high.coef <= 1 and all(e < 0 for _, e in high.powers) \
        and bool(high.powers or high.coef < 1)


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
        if not all(_never_one(r) for r in mismatches):
            return UNKNOWN, groups
        for i in range(a + 1, b):  # could a coincidence split the group finer?
            for j in range(c + 1, d):
                if not _never_one(product(src[a:i]) / product(tgt[c:j])):
                    return UNKNOWN, groups
        bad.append(a)
    return (ILLEGAL if bad else LEGAL), groups


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
MAX_RESCUE_SYMBOLS = 10


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
    symbols = list(chain_atoms(*sizes, *strides, *resolved))
    if len(symbols) > MAX_RESCUE_SYMBOLS:
        return None
    found: List[Tuple[Sym, ...]] = []
    for size in range(1, len(symbols) + 1):
        for subset in combinations(symbols, size):
            if any(set(r) <= set(subset) for r in found):
                continue
            monos: Optional[List[Mono]] = list(chain(sizes, strides, resolved))
            for sym in subset:
                monos = [m.subst_one(sym) for m in monos]  # type: ignore[union-attr]
                if None in monos:
                    break
            n, r = len(sizes), len(sizes) + len(strides)
            if None in monos or _impossible(monos[:n] + monos[r:]):  # type: ignore[index]
                continue
            if _check(monos[:n], monos[n:r], monos[r:])[0] != ILLEGAL:  # type: ignore[index]
                found.append(subset)
    return found


def view_verdict(
    sizes: Sequence[Mono], strides: Sequence[Mono], target: Sequence[Optional[Mono]]
) -> Tuple[str, List[Tuple[Sym, ...]]]:
    """Whether ``view(target)`` succeeds; for ILLEGAL, the sets of symbols whose being 1
    would save it (the view raises unless every symbol of one of the sets is 1)."""
    if has_zero(sizes) or has_zero(target):
        return LEGAL, []  # no elements: torch checks the count, never the strides
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
