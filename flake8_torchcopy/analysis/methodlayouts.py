"""Tensor methods' layouts: how each method changes its receiver's sizes and strides.

One table, ``METHOD_LAYOUT`` (``{method: handler}``), whose handlers read one method call
(:class:`Call`: the receiver's value and the argument nodes, constant ints read by
:func:`const_int`, unknown sizes named by :func:`dim_size`) and return a
:class:`~.values.Value`; TensorIterator ops among them are laid out by
:func:`.elementwise.elementwise_layout`.  What torch calls, attributes and indexing yield is
:mod:`.torchsem`'s, which dispatches methods here (:func:`method_layout`).
"""
from __future__ import annotations

import ast
from typing import Callable, Dict, List, Optional, Sequence

from . import layout as L
from . import torchapi as api
from . import viewlegality as VL
from .elementwise import elementwise_layout, masked_fill_layout
from .symbolic import ONE, Condition, Mono, Rest, Sym
from .values import TENSOR, UNKNOWN_VALUE, Value


def const_int(node: ast.AST) -> Optional[int]:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int):
        return -node.operand.value
    return None


def dim_size(label: str, tensor: Value, dim: int) -> Mono:
    """The unknown size of dim ``dim`` of ``tensor``: the same symbol wherever it is asked
    for (``b, n = x.shape``, ``x.size(1)``, ``x.shape[1]``), named ``label`` in messages."""
    return Mono.sym(Sym(label, ("dim", tensor.serial, dim)))


def rest_size(label: str, tensor: Value, start: int) -> Mono:
    """The product of the sizes of ``tensor``'s dims from ``start`` on, of a tensor whose
    rank is not known: 1 when it has exactly ``start`` dims."""
    return Mono.sym(Rest(f"math.prod({label}.shape[{start}:])", ("rest", tensor.serial, start)))


class Call:
    """One method call being evaluated: its receiver's value and argument nodes."""

    __slots__ = ("ev", "node", "recv", "m", "args", "recv_node", "sizes", "strides", "taint",
                 "plain", "ints", "label")

    def __init__(self, ev, node, recv: Value, m: str, arg_nodes: Sequence[ast.AST],
                 recv_node: ast.AST) -> None:
        self.ev, self.node, self.recv, self.m = ev, node, recv, m
        self.args, self.recv_node = arg_nodes, recv_node
        self.sizes, self.strides, self.taint = recv.sizes, recv.strides, recv.permuted_by
        if self.sizes is not None and self.strides is None and self.taint is None:
            self.strides = L.contiguous_strides(self.sizes)  # untouched tensors are assumed contiguous
        self.plain = Value(recv.kind, permuted_by=self.taint)
        self.ints = [const_int(a) for a in arg_nodes]
        self.label = "." + m + "(" + ", ".join(ev.idx.text(a) for a in arg_nodes) + ")"


def _permute(c: Call) -> Value:
    kind, sizes, strides, ints, m, arg_nodes = c.recv.kind, c.sizes, c.strides, c.ints, c.m, c.args
    rank = 2 if m in ("t", "t_") else None
    if m == "permute":
        seq = arg_nodes[0].elts if len(arg_nodes) == 1 and isinstance(arg_nodes[0], (ast.Tuple, ast.List)) else arg_nodes
        rank = len(seq) if all(const_int(a) is not None for a in seq) else None
    assumes = c.recv.assumes
    if rank and sizes is None and c.taint is None:
        text = c.ev.idx.text(c.recv_node)
        sizes = c.ev.closed_dims(text, c.recv, rank, exact=m == "permute")
        strides = L.contiguous_strides(sizes)
        opened = c.recv.open_layout  # two known dims and the rest (torch.tensor(rows)): 2-d or more
        if m in ("t", "t_") and (opened is None or len(opened[0]) < 3):  # t() of 0-d/1-d returns it
            assumes = assumes | {Condition(f"{text}.dim() < 2")}
    a, b = ints if len(ints) == 2 else (None, None)  # the two dims of a swap or move
    if sizes is None and c.taint is None and m not in ("t", "t_", "permute") and a is not None \
            and b is not None and min(a, b) >= 0:
        return _open_rank_swap(c, a, b)
    if sizes is None or strides is None or None in ints and m != "permute":
        return Value(kind, permuted_by=c.label)
    res = None
    if m in ("t", "t_"):
        res = L.swap(sizes, strides, 0, 1) if len(sizes) == 2 else (sizes, strides)
    elif m in ("permute",):
        order = ints
        if len(arg_nodes) == 1 and isinstance(arg_nodes[0], (ast.Tuple, ast.List)):
            order = [const_int(a) for a in arg_nodes[0].elts]
        dims = [d for d in order if d is not None]
        res = L.permute(sizes, strides, dims) if len(dims) == len(order) else None
    elif a is not None and b is not None:
        res = L.movedim(sizes, strides, a, b) if m in ("movedim", "moveaxis") else L.swap(sizes, strides, a, b)
    if res is None:
        return Value(kind, permuted_by=c.label)
    return Value(kind, sizes=res[0], strides=res[1], permuted_by=c.label, assumes=assumes)


def _open_rank_swap(c: Call, a: int, b: int) -> Value:
    """``x.transpose(1, 2)`` (or ``movedim``) of a tensor of unknown rank: it has at
    least three dims, and the ones after them stay put, contiguous among themselves."""
    n = max(a, b) + 1
    text = c.ev.idx.text(c.recv_node)
    sizes = tuple(dim_size(f"{text}.size({i})", c.recv, i) for i in range(n)) \
        + (rest_size(text, c.recv, n),)
    strides = L.contiguous_strides(sizes)
    res = L.movedim(sizes, strides, a, b) if c.m in ("movedim", "moveaxis") else L.swap(sizes, strides, a, b)
    return Value(c.recv.kind, permuted_by=c.label, open_layout=res)


def _contiguous(c: Call) -> Value:
    fmt = _memory_format(c)
    if fmt not in (None, "contiguous_format"):
        return _formatted(c, fmt)  # the receiver itself when it is already in that format
    if c.sizes is not None:
        return Value(c.recv.kind, sizes=c.sizes, strides=L.contiguous_strides(c.sizes))
    if c.recv.open_layout is not None:  # the dims past those known stay contiguous among themselves
        sizes = c.recv.open_layout[0]
        return Value(c.recv.kind, open_layout=(sizes, L.contiguous_strides(sizes)))
    return Value(c.recv.kind)  # contiguous, whatever it was made from


def _memory_format(c: Call) -> Optional[str]:
    """The ``memory_format=`` keyword: torch's name for it (``"channels_last"``), ``""`` when
    it is not a name the analysis knows, None when there is none."""
    fmt = next((k.value for k in c.node.keywords if k.arg == "memory_format"), None)
    if fmt is None:
        return None
    q = c.ev.static_qualname(fmt)
    return q[6:] if q is not None and q.startswith("torch.") else ""


def _formatted(c: Call, fmt: str) -> Value:
    """A tensor of the receiver's sizes laid out in memory format ``fmt`` (``clone`` and
    ``contiguous`` with ``memory_format=``): contiguous, or channels-last (4 dims, the
    channels fastest; 5 dims for ``channels_last_3d``); else strides not known."""
    sizes = c.sizes
    order = None
    if sizes is not None and fmt == "contiguous_format":
        return Value(c.recv.kind, sizes=sizes, strides=L.contiguous_strides(sizes))
    if sizes is not None and (fmt, len(sizes)) in (("channels_last", 4), ("channels_last_3d", 5)):
        order = [0] + list(range(2, len(sizes))) + [1]  # n, (d,) h, w, c: the memory order
    if order is None or sizes is None:
        return Value(c.recv.kind, sizes=sizes, permuted_by=c.label)
    mem = L.contiguous_strides([sizes[d] for d in order])
    strides = tuple(mem[order.index(d)] for d in range(len(sizes)))
    return Value(c.recv.kind, sizes=sizes, strides=strides, permuted_by=c.label)


def _expand(c: Call) -> Value:
    target = c.ev.size_args(c.args)
    if c.sizes is None or c.strides is None or target is None:
        return Value(c.recv.kind, permuted_by=c.label)
    res = L.expand(c.sizes, c.strides, target)
    if res is None:
        return Value(c.recv.kind, permuted_by=c.label)
    return Value(c.recv.kind, sizes=res[0], strides=res[1], permuted_by=c.label,
                 assumes=c.recv.assumes)


def _expand_as(c: Call) -> Value:
    """``x.expand_as(y)`` has ``y``'s sizes (or raises); its strides are known when ``x``'s
    sizes are and each dim keeps its size or grows from a literal 1."""
    if len(c.args) != 1 or c.node.keywords:
        return Value(c.recv.kind, permuted_by=c.label)
    other = c.ev.cache.get(id(c.args[0])) or UNKNOWN_VALUE
    if other.sizes is None and other.open_layout is not None:  # y of unknown rank: its sizes, strides not known
        return Value(c.recv.kind, permuted_by=c.label, open_layout=(other.open_layout[0], None))
    if other.sizes is None or None in other.sizes:
        return Value(c.recv.kind, permuted_by=c.label)
    res = L.expand(c.sizes, c.strides, other.sizes) \
        if c.sizes is not None and c.strides is not None else None
    if res is None:  # the sizes are y's; the strides, not known, are never taken as contiguous
        return Value(c.recv.kind, sizes=other.sizes, permuted_by=c.label)
    return Value(c.recv.kind, sizes=res[0], strides=res[1], permuted_by=c.label,
                 assumes=c.recv.assumes)


def reversed_rest(opened) -> bool:
    """Does the open layout's rest stand for dims in reverse order (``x.T``'s, :mod:`.attributes`)?
    A view may be judged on it (one that raises there raises), but the layout of a view
    of it that splits the rest would not be the real one's: none is derived."""
    atoms = list(opened[0][-1].atoms())
    key = atoms[0].key[1] if len(atoms) == 1 and isinstance(atoms[0], Rest) else None
    return isinstance(key, tuple) and key[:1] == ("rest-head",)


def _view(c: Call) -> Value:
    kind, sizes, strides = c.recv.kind, c.sizes, c.strides
    if sizes is None and c.recv.open_layout is not None and not reversed_rest(c.recv.open_layout):
        sizes, strides = c.recv.open_layout
    if any(isinstance(k, ast.keyword) and k.arg == "dtype" for k in c.node.keywords):
        return c.plain
    target = c.ev.size_args(c.args)
    if target is None or not c.args:
        return c.plain
    if sizes is None:  # the -1 (one at most) stands for a size of its own
        if target.count(None) > 1:
            return c.plain
        new = tuple(Mono.sym(Sym(f"{c.ev.idx.text(c.node)}.size({i})", ("view", id(c.node), i)))
                    if t is None else t for i, t in enumerate(target))
        return Value(kind, sizes=new, permuted_by=c.taint)
    resolved = VL.resolve_target(sizes, target)
    if resolved is None:
        return c.plain
    if strides is not None:
        st = VL.view_result(sizes, strides, resolved)
        if st is not None:
            permuted = c.recv.permuted_by if st != L.contiguous_strides(resolved) else None
            return Value(kind, sizes=tuple(resolved), strides=st, permuted_by=permuted,
                         assumes=c.recv.assumes)
        if c.m == "reshape" and VL.view_verdict(sizes, strides, target)[0] == VL.ILLEGAL:
            return Value(kind, sizes=tuple(resolved), strides=L.contiguous_strides(resolved))
    return Value(kind, sizes=tuple(resolved), permuted_by=c.taint)


def _unsqueeze(c: Call) -> Value:
    sizes, strides = c.sizes, c.strides  # x.unsqueeze(d), torch.unsqueeze(x, dim=d)...
    ints = c.ints + [const_int(k.value) for k in c.node.keywords if k.arg == "dim"]
    if len(ints) != 1 or ints[0] is None or len(ints) - len(c.ints) != len(c.node.keywords):
        return c.plain
    if ints[0] == 0 and sizes is None and c.recv.open_layout is None and c.taint is None:
        return unsqueezed(c.recv, c.ev.idx.text(c.recv_node), c.node, 1)
    if sizes is None or strides is None:
        return c.plain
    d = ints[0] if ints[0] >= 0 else ints[0] + len(sizes) + 1
    if 0 <= d <= len(sizes):
        st = strides[d] * sizes[d] if d < len(sizes) else ONE
        return Value(c.recv.kind, sizes=sizes[:d] + (ONE,) + sizes[d:],
                     strides=strides[:d] + (st,) + strides[d:], permuted_by=c.recv.permuted_by,
                     assumes=c.recv.assumes)
    return c.plain


def _dim_arg(c: Call, i: int) -> Optional[int]:
    """The dim ``c``'s ``i``-th argument (or ``dim=``) names, made non-negative; None where
    it is not a literal in range or other keywords are given."""
    found = c.ints[i] if len(c.ints) > i else None
    if found is None and len(c.ints) <= i:
        found = next((const_int(k.value) for k in c.node.keywords if k.arg == "dim"), None)
    if found is None or c.sizes is None or not -len(c.sizes) <= found < len(c.sizes):
        return None
    return found % len(c.sizes)


def _narrow(c: Call) -> Value:
    """``x.narrow(d, start, length)``: ``x``'s strides, ``length`` in dim ``d`` (literal, positive)."""
    d = _dim_arg(c, 0)
    if d is None or c.strides is None or len(c.ints) != 3 or c.node.keywords or c.ints[2] is None or c.ints[2] <= 0:
        return c.plain
    return Value(c.recv.kind, sizes=c.sizes[:d] + (Mono.const(c.ints[2]),) + c.sizes[d + 1:],  # type: ignore[index]
                 strides=c.strides, permuted_by=c.taint, assumes=c.recv.assumes)


def _select(c: Call) -> Value:
    """``x.select(d, i)``: ``x``'s sizes and strides without dim ``d``."""
    d = _dim_arg(c, 0)
    if d is None or c.strides is None or len(c.args) != 2 or c.node.keywords:
        return c.plain
    return Value(c.recv.kind, sizes=c.sizes[:d] + c.sizes[d + 1:], strides=c.strides[:d] + c.strides[d + 1:],  # type: ignore[index]
                 permuted_by=c.taint, assumes=c.recv.assumes)


def unsqueezed(recv: Value, text: str, node: ast.AST, ones: int) -> Value:
    """``u.unsqueeze(0)`` / ``u[None]`` (``ones`` new dims) of an untraced ``u`` of unknown rank,
    taken as contiguous: an open layout of those dims of size 1, then ``u``'s (a
    :class:`Rest` that :func:`.elementwise._ranks_bounded` reads)."""
    rest = Mono.sym(Rest(f"math.prod({text}.shape)", ("unsqueezed", id(node), text)))
    return Value(recv.kind, open_layout=((ONE,) * ones + (rest,), (rest,) * ones + (ONE,)),
                 assumes=recv.assumes)


def _layout_preserving(c: Call) -> Value:
    """The methods ``api.LAYOUT_PRESERVING_METHODS`` lists: aliases and in-place ops (the
    receiver's layout, dense or not), copies with ``preserve_format`` (a dense receiver's
    strides), ``masked_fill`` (a contiguous copy) and TensorIterator ops
    (:func:`elementwise_layout`)."""
    kind, sizes, strides, m = c.recv.kind, c.sizes, c.strides, c.m
    fmt = _memory_format(c)
    if m == "clone" and fmt not in (None, "preserve_format"):
        return _formatted(c, fmt)  # a fresh tensor in that format
    if m in ("to", "type_as") and fmt not in (None, "preserve_format"):
        # returns the receiver itself when dtype and device are already right, and then
        # x.transpose(1, 2).to(memory_format=torch.contiguous_format) keeps its strides
        if fmt == "contiguous_format" and sizes is not None and strides is not None \
                and strides == L.contiguous_strides(sizes):
            return Value(kind, sizes=sizes, strides=strides, assumes=c.recv.assumes)
        return Value(kind, sizes=sizes, permuted_by=c.taint or c.label)
    if m in _ALIASES or m.endswith("_"):  # the receiver itself, or a view of all of it
        return Value(kind, sizes=sizes, strides=strides, permuted_by=c.recv.permuted_by,
                     open_layout=c.recv.open_layout, assumes=c.recv.assumes)
    if m == "masked_fill":
        return masked_fill_layout(kind, c.recv, _arg_value(c.ev, c.node, 0, "mask"))
    if m in _COPIES:
        return elementwise_layout(kind, [c.recv], c.label)
    if any(k.arg == "out" for k in c.node.keywords):
        return Value(kind, sizes=sizes, permuted_by=c.taint or c.label)
    return elementwise_layout(kind, [c.recv] + _operand_values(c.ev, c.node, c.args), c.label,
                              keep_rank=True)


def _where(c: Call) -> Value:
    """``x.where(cond, y)`` is ``torch.where(cond, x, y)``: a TensorIterator op of the three."""
    if len(c.args) != 2 or c.node.keywords:
        return c.plain
    cond, other = (c.ev.cache.get(id(a)) or UNKNOWN_VALUE for a in c.args)
    return elementwise_layout(c.recv.kind, [cond, c.recv, other], c.label)


# How the methods ``api.LAYOUT_PRESERVING_METHODS`` lists lay out their result, besides
# in-place ones (named ``..._``): aliases, and copies that keep a dense input's strides
# (``preserve_format``; arguments are dtypes, devices or tensors to take them from).
_ALIASES = frozenset("detach detach_ requires_grad_".split())


_COPIES = frozenset(
    "clone to cuda cpu float double half bfloat16 int long short bool byte char type_as".split())


# TensorIterator ops of the receiver and their tensor arguments, as methods (comparisons,
# binary ops, unary functions: eq, maximum, fmod, atan2, isnan, erf...): the torch functions
# torchapi.TENSOR_ITERATOR_FUNCTIONS derives from torch's pointwise tag that are methods too.
_ELEMENTWISE_METHODS = frozenset(m for m in api.TENSOR_ITERATOR_FUNCTIONS if m in api.TENSOR_METHODS)


# Keyword arguments of elementwise ops that are never tensors.
_SCALAR_KEYWORDS = frozenset(
    "alpha rounding_mode decimals nan posinf neginf approximate inplace value".split())


def _arg_value(ev, node: ast.Call, i: int, name: str) -> Value:
    """The value of argument ``i`` of a method call (or of keyword ``name``)."""
    if len(node.args) > i:
        return ev.cache.get(id(node.args[i])) or UNKNOWN_VALUE
    kw = next((k.value for k in node.keywords if k.arg == name), None)
    return UNKNOWN_VALUE if kw is None else ev.cache.get(id(kw)) or UNKNOWN_VALUE


def _operand_values(ev, node: ast.Call, arg_nodes: Sequence[ast.AST]) -> List[Value]:
    """The values of the arguments that may be tensor inputs of an elementwise op: the
    positional ones and keyword ones other than options that are never tensors."""
    nodes = list(arg_nodes) + [k.value for k in node.keywords if k.arg not in _SCALAR_KEYWORDS]
    return [UNKNOWN_VALUE if isinstance(a, ast.Starred) else ev.cache.get(id(a)) or UNKNOWN_VALUE
            for a in nodes]


def _shape_preserving(c: Call) -> Value:
    return Value(c.recv.kind, sizes=c.sizes, permuted_by=c.taint)


def _matmul(c: Call) -> Value:
    if len(c.node.args) != 1:
        return c.plain
    other = c.ev.cache.get(id(c.node.args[0])) or UNKNOWN_VALUE
    return c.ev.binop(ast.MatMult(), c.recv, other)


def _new_factory(c: Call) -> Value:
    target = c.ev.size_args(c.args)
    if target is not None and None not in target:
        return Value(TENSOR, sizes=tuple(target), strides=L.contiguous_strides(target))
    return Value(TENSOR)


METHOD_LAYOUT: Dict[str, Callable[[Call], Value]] = {
    **{m: _layout_preserving for m in api.LAYOUT_PRESERVING_METHODS},
    **{m: _shape_preserving for m in api.SHAPE_PRESERVING_METHODS},
    **{m: _permute for m in api.PERMUTE_METHODS | {"transpose_", "t_"}},
    # TensorIterator ops of the receiver and their tensor arguments (comparisons and friends)
    **{m: _layout_preserving for m in _ELEMENTWISE_METHODS},
    "contiguous": _contiguous,
    "expand": _expand,
    "expand_as": _expand_as,
    "view": _view,
    "reshape": _view,
    "unsqueeze": _unsqueeze,
    "narrow": _narrow,
    "select": _select,
    "where": _where,
    "masked_fill": _layout_preserving,  # a contiguous copy, whichever table lists it
    "matmul": _matmul, "mm": _matmul, "bmm": _matmul,
    "new_zeros": _new_factory, "new_ones": _new_factory, "new_empty": _new_factory,
}


def method_layout(ev, node, recv: Value, m: str, arg_nodes: Sequence[ast.AST],
                  recv_node: ast.AST) -> Value:
    """The value of ``recv.m(*arg_nodes)`` (or ``torch.m(recv, ...)``): sizes and strides."""
    handler = METHOD_LAYOUT.get(m)
    call = Call(ev, node, recv, m, arg_nodes, recv_node)
    return handler(call) if handler is not None else call.plain
