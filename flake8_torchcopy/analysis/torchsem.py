"""PyTorch semantics: what torch calls, tensor methods, attributes and indexing yield.

Each function takes the expression evaluator ``ev`` (for the values of argument
nodes, sizes named in arguments and source text) and returns a
:class:`~.values.Value`.  How each method changes sizes and strides is one table,
``METHOD_LAYOUT`` (``{method: handler}``).  This module does not import the walker.
"""
from __future__ import annotations

import ast
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence

from . import layout as L
from . import pipelines, yields
from . import torchapi as api
from .symbolic import ONE, Mono, Rest, Sym
from .values import ANNOTATED, NOT, NOT_VALUE, TENSOR, UNKNOWN, UNKNOWN_VALUE, Value

NON_TENSOR_QUALNAMES = frozenset(
    {"numpy.ndarray", "numpy.generic", "numpy.number", "numbers.Number", "numbers.Real",
     "numbers.Integral", "collections.abc.Sequence", "collections.abc.Mapping", "typing.Sequence",
     "torch.Size", "torch.dtype", "torch.device", "torch.nn.Module"}
)

TENSOR_TYPES = frozenset({"torch.Tensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter"})
# Calls that always make a tensor, by qualified name.
TENSOR_CONSTRUCTORS = frozenset(
    {"torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer"}
    | {"torch." + f for f in api.TENSOR_FUNCTIONS}
)
# Methods whose effect on sizes and strides is tracked even when the receiver's
# tensor-ness is unknown (a view with sizes is torch's; the kind stays unknown).
_LAYOUT_METHODS = api.PERMUTE_METHODS | frozenset("view reshape contiguous expand expand_as unsqueeze".split())


def is_tensorish(v: Value) -> bool:
    return v.kind in (TENSOR, ANNOTATED)


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


def known_size(v: Value, i: int) -> Optional[Mono]:
    """The size of dim ``i`` of ``v`` when its layout (or the known part of it) has it."""
    if v.sizes is not None:
        d = L.normalize_dim(i, len(v.sizes))
        return None if d is None else v.sizes[d]
    if v.open_layout is not None and 0 <= i < len(v.open_layout[0]) - 1:
        return v.open_layout[0][i]
    return None


def matmul_sizes(a: Value, b: Value):
    if not a.sizes or not b.sizes or len(a.sizes) < 2 or len(b.sizes) < 2:
        return None
    ba, bb = a.sizes[:-2], b.sizes[:-2]
    if ba and bb and ba != bb:
        return None
    batch = ba if len(ba) >= len(bb) else bb
    return tuple(batch) + (a.sizes[-2], b.sizes[-1])


def attribute_layout(base: Value, attr: str) -> Value:
    if attr in ("data",):
        return base.with_(mono=None)
    if attr in ("real", "imag"):
        return Value(base.kind, sizes=base.sizes)
    sizes, strides = base.sizes, base.strides
    if sizes is None or strides is None:
        return Value(base.kind, permuted_by="." + attr)
    rank = len(sizes)
    if attr == "T":
        res = L.permute(sizes, strides, list(range(rank - 1, -1, -1)))
    elif attr in ("mT", "mH"):
        res = L.swap(sizes, strides, -2, -1) if rank >= 2 else None
    else:  # H
        res = L.swap(sizes, strides, 0, 1) if rank == 2 else (sizes, strides)
    if res is None:
        return Value(base.kind)
    return Value(base.kind, sizes=res[0], strides=res[1], permuted_by="." + attr,
                 assumes=base.assumes)


def subscript_layout(ev, node: ast.Subscript, base: Value, sl: ast.AST, idx: Value) -> Value:
    if base.sizes is None or base.strides is None:
        return Value(base.kind)
    items = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
    sizes, strides = list(base.sizes), list(base.strides)
    ellipses = [i for i, it in enumerate(items)
                if isinstance(it, ast.Constant) and it.value is Ellipsis]
    if len(ellipses) > 1:
        return Value(base.kind)
    if ellipses:  # ``...`` stands for as many full slices as the other items leave
        used = sum(1 for it in items if not (isinstance(it, ast.Constant)
                                             and (it.value is None or it.value is Ellipsis)))
        full = ast.Slice(lower=None, upper=None, step=None)
        i = ellipses[0]
        items[i:i + 1] = [full] * max(0, len(sizes) - used)
    out_s, out_st = [], []
    k = 0
    for it in items:
        if isinstance(it, ast.Constant) and it.value is None:
            out_s.append(ONE)
            out_st.append(ONE)
            continue
        if k >= len(sizes):
            return Value(base.kind)
        if isinstance(it, ast.Slice) and it.lower is None and it.upper is None and it.step is None:
            out_s.append(sizes[k])
            out_st.append(strides[k])
            k += 1
            continue
        v = ev.cache.get(id(it))
        if const_int(it) is not None or (v is not None and v.kind == NOT and ev.mono_of(it, v) is not None):
            k += 1
            continue
        step = _slice_step(it)
        if step is None or not isinstance(it, ast.Slice):
            return Value(base.kind)
        # a part of the dim: a size of its own (at most the dim's), the stride times the step;
        # a literal span of one step (``[:1]``, ``[2:3]``) holds one element, or none
        lower = 0 if it.lower is None else const_int(it.lower)
        upper = None if it.upper is None else const_int(it.upper)
        if lower is not None and upper is not None and 0 <= lower < upper <= lower + step:
            out_s.append(ONE)
        else:
            label = f"{ev.idx.text(node)}.size({len(out_s)})"
            out_s.append(Mono.sym(Sym(label, ("slice", id(node), len(out_s)))))
        out_st.append(strides[k] * Mono.const(step))
        k += 1
    out_s.extend(sizes[k:])
    out_st.extend(strides[k:])
    return Value(base.kind, sizes=tuple(out_s), strides=tuple(out_st),
                 permuted_by=base.permuted_by, assumes=base.assumes)


def _slice_step(it: ast.AST) -> Optional[int]:
    """The step of a slice ``a:b`` / ``a:b:c`` with a literal positive step (1 when none);
    None for anything else (an index, a tensor, a negative step)."""
    if not isinstance(it, ast.Slice):
        return None
    if it.step is None:
        return 1
    step = const_int(it.step)
    return step if step is not None and step > 0 else None


def index_layout(base: Value, n: int) -> Value:
    if base.sizes is None or base.strides is None or len(base.sizes) < n:
        return Value(base.kind)
    return Value(base.kind, sizes=base.sizes[n:], strides=base.strides[n:],
                 permuted_by=base.permuted_by, assumes=base.assumes)


def call_qualname(ev, node, q: str, args: List[Value]) -> Value:
    known = pipelines.call(q, node, lambda a: ev.cache.get(id(a)) or UNKNOWN_VALUE)
    if known is not None:
        return known
    if q.startswith("numpy.") or q.startswith("math."):
        return NOT_VALUE
    if not q.startswith("torch."):
        return UNKNOWN_VALUE
    name = q[6:]
    if name in api.NON_TENSOR_TORCH_FUNCTIONS or name.startswith("cuda.") or q in NON_TENSOR_QUALNAMES:
        return NOT_VALUE
    if name in ("nn.Parameter", "nn.parameter.Parameter", "nn.Buffer"):
        return Value(TENSOR)
    if name == "nn.functional.unfold":
        return unfold_layout(ev, node, args)
    if name.startswith("nn.functional."):
        if name[14:] not in api.FUNCTIONAL_TENSOR_FUNCTIONS:
            return _untraced(args)
        if name[14:] in _FUNCTIONAL_POINTWISE and args and not isinstance(node.args[0], ast.Starred):
            return elementwise_layout(TENSOR, args[:1], "." + name[14:])  # the rest are numbers
        return Value(TENSOR, permuted_by=permuted_origin(args))
    if name in yields.TORCH_FUNCTIONS and args and yields.tensor_pieces(args[0]) is not None:
        return yields.tensor_pieces(args[0])  # type: ignore[return-value]
    if name == "where" and len(node.args) == 3 and not node.keywords \
            and not any(isinstance(a, ast.Starred) for a in node.args):
        return elementwise_layout(TENSOR, args, ".where")  # torch.where(cond, x, y): a tensor
    if name in api.TENSOR_FUNCTIONS:
        return torch_function_layout(ev, node, name, args)
    return _untraced(args)


def _untraced(args: List[Value]) -> Value:
    """What a torch function the analysis does not follow returns: unknown, and never taken
    for contiguous when it was computed from a permuted tensor."""
    taint = permuted_origin(args)
    return Value(UNKNOWN, permuted_by=taint) if taint else UNKNOWN_VALUE


def torch_function_layout(ev, node, name: str, args: List[Value]) -> Value:
    if name in api.SIZE_FACTORIES:
        sizes = ev.size_args(node.args)
        if sizes is not None and all(s is not None for s in sizes):
            return Value(TENSOR, sizes=tuple(sizes), strides=L.contiguous_strides(sizes))
        return Value(TENSOR)
    if name in ("matmul", "mm", "bmm") and len(args) == 2:
        return ev.binop(ast.MatMult(), args[0], args[1])
    if name in api.PERMUTE_METHODS \
            and args and is_tensorish(args[0]):
        return method_layout(ev, node, args[0], name, node.args[1:], node.args[0])
    if name.endswith("_like") and args and args[0].sizes is not None and len(node.args) == 1 \
            and not node.keywords:
        a = args[0]
        dense = a.strides is not None and L.is_dense(a.sizes, a.strides)
        return Value(TENSOR, sizes=a.sizes, strides=a.strides if dense else None,
                     permuted_by=a.permuted_by if dense else permuted_origin(args) or "." + name)
    if node.keywords and any(k.arg == "out" for k in node.keywords) or any(
            isinstance(a, ast.Starred) for a in node.args):
        return Value(TENSOR, permuted_by=permuted_origin(args))
    if name == "masked_fill" and len(args) >= 2:
        return masked_fill_layout(TENSOR, args[0], args[1])
    if name in _TORCH_POINTWISE and args:
        return elementwise_layout(TENSOR, _operand_values(ev, node, node.args), "." + name)
    # other functions: strides not followed, and not assumed contiguous after a permutation
    return Value(TENSOR, permuted_by=permuted_origin(args))


def unfold_layout(ev, node: ast.Call, args: List[Value]) -> Value:
    """``F.unfold(x [N, C, H, W], kernel_size)`` is ``[N, C * kh * kw, L]``, contiguous."""
    x = args[0] if args else None
    kernel = node.args[1] if len(node.args) > 1 else next(
        (k.value for k in node.keywords if k.arg == "kernel_size"), None)
    if x is None or x.sizes is None or len(x.sizes) != 4 or kernel is None:
        return Value(TENSOR)
    elts = kernel.elts if isinstance(kernel, (ast.Tuple, ast.List)) else [kernel, kernel]
    ks = [ev.mono_of(e, ev.cache.get(id(e)) or UNKNOWN_VALUE) for e in elts]
    if len(ks) != 2 or None in ks or x.sizes[1] is None:
        return Value(TENSOR)
    blocks = Mono.sym(Sym(f"{ev.idx.text(node.func)}(...).size(2)", ("unfold", id(node))))
    sizes = (x.sizes[0], x.sizes[1] * ks[0] * ks[1], blocks)
    if sizes[0] is None:
        return Value(TENSOR)
    return Value(TENSOR, sizes=sizes, strides=L.contiguous_strides(sizes))


def call_method(ev, node, recv: Value, m: str, args: List[Value]) -> Value:
    container = yields.method_yield(recv, m) if m in yields.YIELDS and m != "unbind" else None
    if container is not None:
        return container
    if m in api.TENSOR_ONLY_METHODS and isinstance(node.func.value, ast.Name) \
            and recv.kind in (UNKNOWN, ANNOTATED) and recv.qualname is None:
        if not ev.conditional:  # evidence only from calls that certainly ran
            ev.evidence.append(node.func.value.id)
        if recv.kind == UNKNOWN:
            recv = recv.with_(kind=TENSOR)
    elif m in api.TENSOR_ONLY_METHODS and recv.kind == UNKNOWN and recv.qualname is None \
            and not recv.local_def:
        recv = recv.with_(kind=TENSOR)
    if m == "to" and recv.kind == UNKNOWN and recv.qualname is None and to_non_float(ev, node):
        recv = recv.with_(kind=TENSOR)
    if m in api.NON_TENSOR_METHODS:
        if m == "size" and is_tensorish(recv) or m == "size" and recv.kind == UNKNOWN:
            return size_call(ev, node, recv)
        return NOT_VALUE
    if not is_tensorish(recv):
        traced = recv.sizes is not None or recv.open_layout is not None or recv.permuted_by
        if recv.kind == UNKNOWN and recv.qualname is None and not recv.local_def \
                and (m in _LAYOUT_METHODS or traced and m in api.TENSOR_METHODS):
            return method_layout(ev, node, recv, m, node.args, node.func.value)
        return UNKNOWN_VALUE
    if m == "unbind":
        dim = const_int(node.args[0]) if node.args else 0
        if recv.sizes is not None and dim is not None:
            res = L.movedim(recv.sizes, recv.strides, dim, 0) if recv.strides else None
            if res is not None:
                moved = Value(recv.kind, sizes=res[0], strides=res[1], permuted_by=recv.permuted_by,
                              assumes=recv.assumes)
                each = index_layout(moved, 1)
                n = res[0][0]
                count = int(n.coef) if not n.powers and n.coef.denominator == 1 else None
                if count is not None and 0 < count <= 16:
                    return Value(NOT, elems=(each,) * count, item=each)
        return yields.tensor_pieces(recv) or UNKNOWN_VALUE
    if m in ("min", "max") and not node.args and not node.keywords:
        return Value(recv.kind)
    if m not in api.TENSOR_METHODS:
        return UNKNOWN_VALUE
    return method_layout(ev, node, recv, m, node.args, node.func.value)


def to_non_float(ev, node: ast.Call) -> bool:
    """``.to(torch.int32)`` / ``.to(dtype=torch.long)``: only a tensor accepts that."""
    cands = list(node.args[:1]) + [k.value for k in node.keywords if k.arg == "dtype"]
    for c in cands:
        q = ev.static_qualname(c)
        if q is not None and q.startswith("torch.") and q[6:] in api.NON_FLOAT_DTYPES:
            return True
    return False


def size_call(ev, node, recv: Value) -> Value:
    if node.args:
        i = const_int(node.args[0])
        known = None if i is None else known_size(recv, i)
        if known is not None:
            return Value(NOT, mono=known)
        if i is not None:
            label = f"{ev.idx.text(node.func.value)}.size({i})"
            return Value(NOT, mono=dim_size(label, recv, i))
        return NOT_VALUE
    if recv.sizes is not None:
        return Value(NOT, elems=tuple(Value(NOT, mono=s) for s in recv.sizes))
    return NOT_VALUE


# ------------------------------------------------------------------ tuples of tensors

# Tensor methods (and ``torch.<name>`` functions) that return a tuple of tensors: how many,
# and whether they are laid out contiguous whatever the input (structured kernels that
# allocate their outputs; ``sort``'s and ``kthvalue``'s follow the input's strides).
TUPLE_METHODS = {
    "topk": (2, True), "sort": (2, False), "kthvalue": (2, False), "mode": (2, False),
    "cummax": (2, False), "cummin": (2, False), "aminmax": (2, True), "frexp": (2, False),
}
# ... only when given a dim (``x.max()`` is one tensor, ``x.max(y)`` an elementwise max)
TUPLE_METHODS_WITH_DIM = {"max": (2, True), "min": (2, True), "median": (2, False),
                          "nanmedian": (2, False)}
# torch.<name>(...) returning a tuple of tensors, besides the methods above
TUPLE_FUNCTIONS = {
    "std_mean": 2, "var_mean": 2, "linalg.qr": 2, "linalg.eigh": 2, "linalg.slogdet": 2,
    "linalg.svd": 3, "svd": 3, "linalg.eig": 2, "linalg.inv_ex": 2, "linalg.cholesky_ex": 2,
}


class TupleShape(NamedTuple):
    """A call that returns a tuple of tensors: how many, whether they are contiguous, and
    whether it is a ``torch.<name>`` function (a tensor whatever its arguments)."""

    name: str
    count: int
    contiguous: bool
    torch_function: bool


def tuple_shape(ev, node: ast.Call) -> Optional[TupleShape]:
    """The tuple of tensors ``node`` returns, when it is a call of the tables above."""
    func = node.func
    q = ev.static_qualname(func)
    if q is not None and q.startswith("torch."):
        name, first = q[6:], 1  # torch.max(x, 1): the dim comes after the tensor
    elif isinstance(func, ast.Attribute) and q is None:
        name, first = func.attr, 0
    else:
        return None
    count, contiguous = TUPLE_METHODS.get(name, (0, False))
    if not count and name in TUPLE_METHODS_WITH_DIM and _has_dim(node, first):
        count, contiguous = TUPLE_METHODS_WITH_DIM[name]
    if not count and first == 1:
        count, contiguous = TUPLE_FUNCTIONS.get(name, 0), False
    return TupleShape(name, count, contiguous, first == 1) if count else None


def tuple_result(shape: TupleShape, v: Value) -> Value:
    """The tuple: its items have the call's kind and caveat, and a layout only where the op
    allocates contiguous outputs (else never taken for contiguous when the input was
    permuted)."""
    origin = None if shape.contiguous else v.permuted_by
    item = Value(v.kind, caveat=v.caveat, permuted_by=origin)
    return Value(NOT, elems=(item,) * shape.count, item=item)


def _has_dim(node: ast.Call, first: int) -> bool:
    """A literal int dim (positional after ``first`` arguments, or ``dim=``)."""
    if any(k.arg == "dim" for k in node.keywords):
        return True
    return len(node.args) > first and const_int(node.args[first]) is not None


# ------------------------------------------------------------------ method layouts


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
    rank = None
    if m in ("t", "t_"):
        rank = 2
    elif m == "permute":
        seq = arg_nodes[0].elts if len(arg_nodes) == 1 and isinstance(arg_nodes[0], (ast.Tuple, ast.List)) else arg_nodes
        rank = len(seq) if all(const_int(a) is not None for a in seq) else None
    if rank and sizes is None and c.taint is None:
        text = c.ev.idx.text(c.recv_node)
        sizes = tuple(dim_size(f"{text}.size({i})", c.recv, i) for i in range(rank))
        strides = L.contiguous_strides(sizes)
    if sizes is None and c.taint is None and m not in ("t", "t_", "permute") and len(ints) == 2 \
            and None not in ints and min(ints) >= 0:  # type: ignore[type-var]
        return _open_rank_swap(c)
    if sizes is None or strides is None or None in ints and m != "permute":
        return Value(kind, permuted_by=c.label)
    res = None
    if m in ("t", "t_"):
        res = L.swap(sizes, strides, 0, 1) if len(sizes) == 2 else (sizes, strides)
    elif m in ("permute",):
        order = ints
        if len(arg_nodes) == 1 and isinstance(arg_nodes[0], (ast.Tuple, ast.List)):
            order = [const_int(a) for a in arg_nodes[0].elts]
        if None not in order:
            res = L.permute(sizes, strides, order)  # type: ignore[arg-type]
    elif m in ("movedim", "moveaxis") and len(ints) == 2:
        res = L.movedim(sizes, strides, ints[0], ints[1])  # type: ignore[arg-type]
    elif len(ints) == 2:
        res = L.swap(sizes, strides, ints[0], ints[1])  # type: ignore[arg-type]
    if res is None:
        return Value(kind, permuted_by=c.label)
    return Value(kind, sizes=res[0], strides=res[1], permuted_by=c.label, assumes=c.recv.assumes)


def _open_rank_swap(c: Call) -> Value:
    """``x.transpose(1, 2)`` (or ``movedim``) of a tensor of unknown rank: it has at
    least three dims, and the ones after them stay put, contiguous among themselves."""
    n = max(c.ints) + 1  # type: ignore[type-var]
    text = c.ev.idx.text(c.recv_node)
    sizes = tuple(dim_size(f"{text}.size({i})", c.recv, i) for i in range(n)) \
        + (rest_size(text, c.recv, n),)
    strides = L.contiguous_strides(sizes)
    if c.m in ("movedim", "moveaxis"):
        res = L.movedim(sizes, strides, c.ints[0], c.ints[1])  # type: ignore[arg-type]
    else:
        res = L.swap(sizes, strides, c.ints[0], c.ints[1])  # type: ignore[arg-type]
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
    if order is None:
        return Value(c.recv.kind, sizes=sizes, permuted_by=c.label)
    mem = L.contiguous_strides([sizes[d] for d in order])  # type: ignore[index]
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
    if other.sizes is None or None in other.sizes:
        return Value(c.recv.kind, permuted_by=c.label)
    res = L.expand(c.sizes, c.strides, other.sizes) \
        if c.sizes is not None and c.strides is not None else None
    if res is None:  # the sizes are y's; the strides, not known, are never taken as contiguous
        return Value(c.recv.kind, sizes=other.sizes, permuted_by=c.label)
    return Value(c.recv.kind, sizes=res[0], strides=res[1], permuted_by=c.label,
                 assumes=c.recv.assumes)


def _view(c: Call) -> Value:
    kind, sizes, strides = c.recv.kind, c.sizes, c.strides
    if sizes is None and c.recv.open_layout is not None:
        sizes, strides = c.recv.open_layout
    if any(isinstance(k, ast.keyword) and k.arg == "dtype" for k in c.node.keywords):
        return c.plain
    target = c.ev.size_args(c.args)
    if target is None or not c.args:
        return c.plain
    if sizes is None:
        if None in target:
            return c.plain
        new = tuple(target)
        return Value(kind, sizes=new, permuted_by=c.taint)
    resolved = L.resolve_target(sizes, target)
    if resolved is None:
        return c.plain
    if strides is not None:
        st = L.view_result(sizes, strides, resolved)
        if st is not None:
            permuted = c.recv.permuted_by if st != L.contiguous_strides(resolved) else None
            return Value(kind, sizes=tuple(resolved), strides=st, permuted_by=permuted,
                         assumes=c.recv.assumes)
        if c.m == "reshape" and L.view_verdict(sizes, strides, target)[0] == L.ILLEGAL:
            return Value(kind, sizes=tuple(resolved), strides=L.contiguous_strides(resolved))
    return Value(kind, sizes=tuple(resolved), permuted_by=c.taint)


def _unsqueeze(c: Call) -> Value:
    sizes, strides = c.sizes, c.strides
    if len(c.ints) != 1 or c.ints[0] is None or sizes is None or strides is None:
        return c.plain
    d = c.ints[0] if c.ints[0] >= 0 else c.ints[0] + len(sizes) + 1
    if 0 <= d <= len(sizes):
        st = strides[d] * sizes[d] if d < len(sizes) else ONE
        return Value(c.recv.kind, sizes=sizes[:d] + (ONE,) + sizes[d:],
                     strides=strides[:d] + (st,) + strides[d:], permuted_by=c.recv.permuted_by,
                     assumes=c.recv.assumes)
    return c.plain


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
# Comparisons and binary ops: TensorIterator ops of the receiver and their argument.
_COMPARISONS = frozenset(
    "eq ne lt le gt ge logical_and logical_or logical_xor maximum minimum fmod remainder".split())
# Keyword arguments of elementwise ops that are never tensors.
_SCALAR_KEYWORDS = frozenset(
    "alpha rounding_mode decimals nan posinf neginf approximate inplace value".split())
# torch.<name>(...) that are TensorIterator ops of their tensor arguments.
_TORCH_POINTWISE = api.TENSOR_ITERATOR_FUNCTIONS
# torch.nn.functional.<name>(x, ...): TensorIterator ops of x alone (their other arguments
# are numbers and flags), or x itself (in place, dropout in eval).
_FUNCTIONAL_POINTWISE = frozenset(
    """
    relu relu6 gelu silu mish elu selu celu leaky_relu hardtanh hardswish hardsigmoid sigmoid
    tanh softplus softsign logsigmoid dropout
    """.split())


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
            return Value(kind, permuted_by=mark)
        strides = L.elementwise(known)
        if strides is None:
            decided = L.tensor_iterator(known)
            if decided is None:
                return Value(kind, sizes=sizes, permuted_by=mark)
            strides, assumed = decided
            assumes = assumes | assumed
        return Value(kind, sizes=sizes, strides=strides, permuted_by=taint, assumes=assumes)
    if all(v.sizes is not None for v in tensors) and layouts[0] is not None:
        # some strides not known (an expand_as): decided when the first input decides
        decided = L.tensor_iterator([lay if lay is not None else (v.sizes, None)
                                     for v, lay in zip(tensors, layouts)])  # type: ignore[misc]
        if decided is not None:
            strides, assumed = decided
            sizes = L.broadcast(*(v.sizes for v in tensors))  # type: ignore[misc]
            return Value(kind, sizes=sizes, strides=strides, permuted_by=taint,
                         assumes=assumes | assumed)
    if len(tensors) == 1 and tensors[0].open_layout is not None:
        # a tensor of unknown rank: dense, its strides carry over (numbers are no input)
        sizes, strides = tensors[0].open_layout
        if L.is_dense(sizes, strides):
            return Value(kind, permuted_by=taint, open_layout=tensors[0].open_layout)
        return Value(kind, permuted_by=mark)
    first = tensors[0]
    sizes = None
    if keep_rank and first.sizes is not None and all(
            v.sizes is None or L.broadcast(first.sizes, v.sizes) == first.sizes for v in tensors):
        sizes = first.sizes
    return Value(kind, sizes=sizes, permuted_by=mark)


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
    **{m: _layout_preserving for m in _COMPARISONS},
    "contiguous": _contiguous,
    "expand": _expand,
    "expand_as": _expand_as,
    "view": _view,
    "reshape": _view,
    "unsqueeze": _unsqueeze,
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
