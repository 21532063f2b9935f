"""Sizes and strides through permutes, expands and elementwise ops.

Strides are symbolic (monomials).  A tensor the analysis could not trace is
assumed contiguous; a permute, transpose or expand then gives it strides in
another order.  Whether a view of such a tensor succeeds is :mod:`.viewlegality`'s.

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

from typing import FrozenSet, List, Optional, Sequence, Tuple

from .symbolic import ONE, ZERO, Mono, Sym, chain_atoms

Sizes = Tuple[Mono, ...]
Strides = Tuple[Mono, ...]


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


def broadcast_into_first(shapes: Sequence[Sizes]) -> Optional[Sizes]:
    """The first of ``shapes``, where no other has more dims and it has no literal 1: were
    it broadcast, one of its sizes would be 1, which a claim resting on this excludes (its
    symbols are assumed at least 2), so the output has its sizes, or the op raises."""
    first = shapes[0]
    if any(s.is_one for s in first) or any(len(s) > len(first) for s in shapes[1:]):
        return None
    return tuple(first)


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


def first_input_decides(first: Tuple[Sizes, Optional[Strides]], others: Sequence[Sizes],
                        closed: bool = True) -> Optional[Strides]:
    """The strides of a TensorIterator output whose first tensor input ``first`` (sizes,
    strides) is dense, with a stride other than 0 on every dim, and of the output's sizes:
    its own strides; None where that is not certain.  ``others``: the other inputs' sizes,
    which must broadcast into ``first``'s (with ``closed`` False, ``first`` is an open
    layout, its last size standing for the dims of unknown number after the others, and
    they must be its sizes exactly).

    TensorIterator's insertion sort asks the first input first about every pair of dims:
    strides other than 0 and unequal decide at once.  In a dense layout only a size-1 dim
    can tie with another dim, and a tie, whoever breaks it, puts the two next to each
    other: the sort leaves the dims in the order of the first input's strides, ties
    adjacent, so every dim of size above 1 comes where the first input has it, and the
    output (contiguous in that order) has its strides there, for every value of the
    sizes (size-1 dims, whose strides no view reads, aside).  A CPU cast of the first
    input to the common dtype keeps a dense input's strides.  Its strides on literal
    size-1 dims would not be torch's: such a layout is left unknown.  Checked against
    torch in ``tests/test_first_input_layout.py``."""
    sizes, strides = first
    if strides is None or len(strides) != len(sizes) or has_zero(sizes) \
            or any(s.is_one for s in sizes) or any(st.coef == 0 for st in strides) \
            or not is_dense(sizes, strides):
        return None
    if closed:
        if any(len(o) > len(sizes) for o in others) or broadcast(sizes, *others) != tuple(sizes):
            return None
    elif any(tuple(o) != tuple(sizes) for o in others):
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


class _Undecided(Exception):
    """The layout of an output is not decided (at module level: a class made per call is a
    reference cycle, freed only by the garbage collector)."""


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

    def should_swap(d0: int, d1: int) -> int:
        for entry in rows:
            if entry is None:
                raise _Undecided
            row, dense = entry
            s0, s1 = row[d0], row[d1]
            if s0.coef == 0 or s1.coef == 0:
                continue
            order = _order(s0, s1)
            if order is None or order == 0 and not dense:
                raise _Undecided  # a cast (CPU, mixed dtypes) lays a non-dense input out anew
            assumed.update(chain_atoms(s0, s1))
            if order:
                return order
            shape = _order(out[d0], out[d1])
            if shape is None:
                raise _Undecided
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
    except _Undecided:
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


