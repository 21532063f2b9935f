"""Layouts of TensorIterator ops (elementwise ops, comparisons, ``where``: the output's
strides from the inputs', per ATen's rule in :func:`.layout.tensor_iterator`) and of
``masked_fill`` (a contiguous copy of the broadcast), for :mod:`.methodlayouts`,
:mod:`.torchsem` and :mod:`.sizes`."""
from __future__ import annotations

from typing import FrozenSet, List, Optional, Sequence, Tuple

from . import layout as L
from .symbolic import Condition, Rest
from .values import NOT, Value


def _operand_layout(v: Value):
    """(sizes, strides) of a tensor input, an untraced one assumed contiguous as elsewhere;
    None when not known."""
    if v.sizes is None:
        return None
    if v.strides is not None:
        return v.sizes, v.strides
    if v.permuted_by is None:
        return v.sizes, L.contiguous_strides(v.sizes)
    return None


def permuted_origin(values: Sequence[Value]) -> Optional[str]:
    """The permutation one of the values (or an item of one) was made by, if any."""
    for v in values:
        if v.permuted_by:
            return v.permuted_by
        held = list(v.elems or ()) + [x for x in (v.item, v.mapped) if x is not None]
        for e in held:
            if e.permuted_by:
                return e.permuted_by
    return None


def elementwise_layout(kind: str, inputs: Sequence[Value], label: str,
                       keep_rank: bool = False) -> Value:
    """The result of a TensorIterator op of ``inputs`` (the receiver among them; Python
    numbers are left out): its strides by :func:`layout.elementwise`, else unknown and
    never assumed contiguous when an input was permuted.  ``keep_rank``: an input whose
    sizes are not known (a scale in a name) is taken to broadcast into the others, as the
    binary operators do."""
    tensors = [v for v in inputs if v.kind != NOT]
    if not tensors:
        return Value(kind)
    taint = permuted_origin(tensors)
    layouts = [_operand_layout(v) for v in tensors]
    known = [lay for lay in layouts if lay is not None]
    mark = taint or (label if any(st != L.contiguous_strides(sz) for sz, st in known) else None)
    assumes = frozenset().union(*(v.assumes for v in tensors))
    if len(known) == len(layouts):
        sizes = L.broadcast(*(sz for sz, _ in known))
        if sizes is None:
            return _first_decides(kind, known, taint, assumes) or Value(kind, permuted_by=mark)
        strides = L.elementwise(known)
        if strides is None:
            decided = L.tensor_iterator(known)
            if decided is None:
                by_first = L.first_input_decides(known[0], [sz for sz, _ in known[1:]])
                if by_first is None:
                    return Value(kind, sizes=sizes, permuted_by=mark)
                decided = by_first, frozenset()
            strides, assumed = decided
            assumes = assumes | assumed
        return Value(kind, sizes=sizes, strides=strides, permuted_by=taint, assumes=assumes)
    sized = [v.sizes for v in tensors if v.sizes is not None]
    if len(sized) == len(tensors) and layouts[0] is not None:
        # some strides not known (an expand_as): decided when the first input decides
        decided = L.tensor_iterator([lay if lay is not None else (sz, None)
                                     for sz, lay in zip(sized, layouts)])
        if decided is not None:
            return Value(kind, sizes=L.broadcast(*sized), strides=decided[0], permuted_by=taint,
                         assumes=assumes | decided[1])
        by_first = L.first_input_decides(layouts[0], sized[1:])
        if by_first is not None:
            return Value(kind, sizes=sized[0], strides=by_first, permuted_by=taint, assumes=assumes)
        if L.broadcast(*sized) is None and layouts[0] is not None:
            found = _first_decides(kind, [layouts[0]] + [(sz, None) for sz in sized[1:]], taint, assumes)
            if found is not None:
                return found
    bounded = _ranks_bounded(tensors[1:], layouts[0])
    if bounded is not None:  # pred.eq(target.unsqueeze(0)): no input of more dims than pred
        by_first = L.first_input_decides(layouts[0], bounded[0])
        if by_first is not None:
            return Value(kind, sizes=layouts[0][0], strides=by_first, permuted_by=taint,
                         assumes=assumes | bounded[1])
    opened = tensors[0].open_layout
    if len(tensors) == 1 and opened is not None and opened[1] is not None:
        # a tensor of unknown rank: dense, its strides carry over (numbers are no input)
        if L.is_dense(opened[0], opened[1]):
            return Value(kind, permuted_by=taint, open_layout=opened)
        return Value(kind, permuted_by=mark)
    if opened is not None and all(v.sizes is None and v.open_layout is not None for v in tensors):
        # of unknown rank, all of the same sizes (x.eq(y.expand_as(x))): the first decides
        same = L.first_input_decides(opened, [v.open_layout[0] for v in tensors[1:]  # type: ignore[index]
                                               ], closed=False)
        if same is not None:
            return Value(kind, permuted_by=taint, open_layout=(opened[0], same), assumes=assumes)
    first = tensors[0]
    sizes = None
    if keep_rank and first.sizes is not None and all(
            v.sizes is None or L.broadcast(first.sizes, v.sizes) == first.sizes for v in tensors):
        sizes = first.sizes
    return Value(kind, sizes=sizes, permuted_by=mark)


def _first_decides(kind: str, operands, taint, assumes) -> Optional[Value]:
    """Where the inputs' broadcast is not known: the first's sizes, if no other input has
    more dims (:func:`.layout.broadcast_into_first`), and its strides, if they decide."""
    sizes = L.broadcast_into_first([sz for sz, _ in operands])
    decided = None if sizes is None else L.tensor_iterator([operands[0]] + [(sizes, None)] * (len(operands) - 1))
    return None if decided is None else Value(kind, sizes=sizes, strides=decided[0], permuted_by=taint,
                                              assumes=assumes | decided[1])


def masked_fill_layout(kind: str, x: Value, mask: Value) -> Value:
    """``x.masked_fill(mask, v)`` is no TensorIterator op: it clones the broadcast of x and
    mask with ``MemoryFormat::Contiguous``, whatever their layouts.  A mask whose sizes are
    not known is taken to broadcast into x (a masked_fill_ would require it)."""
    sizes = x.sizes
    if sizes is not None and mask.sizes is not None:
        sizes = L.broadcast(sizes, mask.sizes)
    if sizes is None:
        return Value(kind)  # contiguous, of sizes not known
    return Value(kind, sizes=sizes, strides=L.contiguous_strides(sizes))


def _ranks_bounded(others: Sequence[Value], first) -> Optional[Tuple[List[L.Sizes], FrozenSet[Condition]]]:
    """Where the first input's layout is known and some other input is ``u.unsqueeze(0)`` or
    ``u[None]`` of a ``u`` of unknown rank (the rest of :func:`.methodlayouts.unsqueezed`),
    every other of known sizes or such: the sizes to check against the first's (``u``'s
    dims left out: of no more dims than the first, each broadcasts into it or the op
    raises), and the condition that ``u`` has more dims, which the claim then rests on."""
    if first is None or not others:
        return None
    rank = len(first[0])
    sizes: List[L.Sizes] = []
    conditions = set()
    for v in others:
        opened = v.open_layout
        key = _unsqueezed_key(opened[0][-1]) if v.sizes is None and opened is not None else None
        if key is not None:
            ones = len(opened[0]) - 1  # type: ignore[index]
            if ones > rank:
                return None
            sizes.append(tuple(opened[0][:-1]))  # type: ignore[index]
            conditions.add(Condition(f"{key[2]}.dim() > {rank - ones}"))
        elif v.sizes is not None:
            sizes.append(v.sizes)
        else:
            return None
    return (sizes, frozenset(conditions)) if conditions else None


def _unsqueezed_key(m):
    """The key of the :class:`Rest` ``m`` is, when :func:`.methodlayouts.unsqueezed` made it."""
    atoms = list(m.atoms())
    if len(atoms) != 1 or not isinstance(atoms[0], Rest) or m != type(m).sym(atoms[0]):
        return None
    key = atoms[0].key[1]
    return key if isinstance(key, tuple) and key[:1] == ("unsqueezed",) else None

