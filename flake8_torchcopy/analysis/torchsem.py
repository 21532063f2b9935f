"""PyTorch semantics: what torch calls, tensor methods, attributes and indexing yield.

Each function takes the expression evaluator ``ev`` (for the values of argument
nodes, sizes named in arguments and source text) and returns a
:class:`~.values.Value`.  How each method changes sizes and strides is one table,
``METHOD_LAYOUT`` (``{method: handler}``).  This module does not import the walker.
"""
from __future__ import annotations

import ast
from typing import List, Optional

from . import argreturns, dictreads, einsum, pipelines, yields
from . import layout as L
from . import torchapi as api
from .elementwise import elementwise_layout, masked_fill_layout, permuted_origin
from .methodlayouts import _operand_values, const_int, method_layout, unsqueezed
from .modulescan import defines_method
from .pieces import PIECES, pieces_of
from .symbolic import ONE, Cut, Mono, Sym
from .torchfacts import STRIDED_RESULT_FUNCTIONS, STRIDED_RESULT_METHODS
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
_SLICING = frozenset(("unsqueeze", "narrow", "select"))  # torch.narrow(x, ...): as x.narrow(...)
_LAYOUT_METHODS = api.PERMUTE_METHODS | frozenset("view reshape contiguous expand expand_as unsqueeze".split())


def is_tensorish(v: Value) -> bool:
    return v.kind in (TENSOR, ANNOTATED)


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


def subscript_layout(ev, node: ast.Subscript, base: Value, sl: ast.AST, idx: Value) -> Value:
    if base.sizes is None and base.open_layout is not None and base.open_layout[1] is not None:
        return _open_subscript(ev, node, base, sl, idx)
    plain = Value(base.kind, permuted_by=base.permuted_by)  # a part of a permuted tensor stays marked
    ones = _leading_nones(sl)
    if ones and base.sizes is None and base.open_layout is None and base.permuted_by is None:
        return unsqueezed(base, ev.idx.text(node.value), node, ones)  # u[None] of unknown rank
    strides_in = base.strides
    if base.sizes is not None and strides_in is None and base.permuted_by is None:
        strides_in = L.contiguous_strides(base.sizes)  # untouched: contiguous, as for a method call
    if base.sizes is None or strides_in is None:
        return plain
    if base.kind not in (TENSOR, ANNOTATED) and defines_method(ev, "__getitem__"):
        return plain  # x[:, :k] of an object of the module's own class: its part, its strides
    items = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
    sizes, strides = list(base.sizes), list(strides_in)
    ellipses = [i for i, it in enumerate(items)
                if isinstance(it, ast.Constant) and it.value is Ellipsis]
    if len(ellipses) > 1:
        return plain
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
            return plain
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
            return plain
        # a part of the dim: a size of its own (at most the dim's), the stride times the step;
        # a literal span of one step (``[:1]``, ``[2:3]``) holds one element, or none
        lower = 0 if it.lower is None else const_int(it.lower)
        upper = None if it.upper is None else const_int(it.upper)
        whole = sizes[k].coef if not sizes[k].powers and isinstance(sizes[k].coef, int) else None
        if whole is not None and lower is not None and (upper is not None or it.upper is None):
            out_s.append(Mono.const(len(range(whole)[lower:upper:step])))  # Python's own slice rule
        elif lower is not None and upper is not None and 0 <= lower < upper <= lower + step:
            out_s.append(ONE)
        elif _empty_slice(it, lower, upper):
            out_s.append(Mono.const(0))  # x[:, k:k], x[:, 4:2]: no element
        else:
            label = f"{ev.idx.text(node)}.size({len(out_s)})"
            out_s.append(Mono.sym(Cut(label, ("slice", id(node), len(out_s)), sizes[k])))
        out_st.append(strides[k] * Mono.const(step))
        k += 1
    out_s.extend(sizes[k:])
    out_st.extend(strides[k:])
    return Value(base.kind, sizes=tuple(out_s), strides=tuple(out_st),
                 permuted_by=base.permuted_by, assumes=base.assumes)


def _open_subscript(ev, node: ast.Subscript, base: Value, sl: ast.AST, idx: Value) -> Value:
    """An index or slice of a tensor of unknown rank (``correct[:k]``) that reads only its
    known dims (no ``...``): those as for a tensor of known rank, the rest kept."""
    sizes, strides = base.open_layout  # type: ignore[misc]
    items = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
    if any(isinstance(it, ast.Constant) and it.value is Ellipsis for it in items) \
            or sum(not (isinstance(it, ast.Constant) and it.value is None) for it in items) >= len(sizes):
        return Value(base.kind, permuted_by=base.permuted_by)
    known = Value(base.kind, sizes=sizes, strides=strides, permuted_by=base.permuted_by,
                  assumes=base.assumes)
    part = subscript_layout(ev, node, known, sl, idx)
    if part.sizes is None:
        return Value(base.kind, permuted_by=base.permuted_by)
    return Value(base.kind, permuted_by=part.permuted_by, open_layout=(part.sizes, part.strides),
                 assumes=part.assumes)


def _empty_slice(it: ast.Slice, lower: Optional[int], upper: Optional[int]) -> bool:
    """``k:k`` (one name twice), ``4:2``, ``-1:-3``: a slice that holds no element."""
    a, b = it.lower, it.upper
    if isinstance(a, ast.Name) and isinstance(b, ast.Name):
        return a.id == b.id
    return lower is not None and upper is not None and (lower >= 0) == (upper >= 0) and upper <= lower


def _leading_nones(sl: ast.AST) -> int:
    """How many ``None`` an index of only ``None`` (``u[None]``, ``u[None, None, ...]``,
    an ``...`` last at most) holds; 0 for any other."""
    items = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
    if items and isinstance(items[-1], ast.Constant) and items[-1].value is Ellipsis:
        items = items[:-1]
    nones = all(isinstance(it, ast.Constant) and it.value is None for it in items)
    return len(items) if nones else 0


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
        return Value(base.kind, permuted_by=base.permuted_by)
    return Value(base.kind, sizes=base.sizes[n:], strides=base.strides[n:],
                 permuted_by=base.permuted_by, assumes=base.assumes)


def _patched(ev) -> bool:
    """May the module patch ``Dataset``, the loader or its collate (:mod:`.datasets`)?"""
    from .datasets import patches_unseen
    return isinstance(getattr(ev, "tree", None), ast.Module) and patches_unseen(ev)


def call_qualname(ev, node, q: str, args: List[Value]) -> Value:
    if q == einsum.ORIGIN:
        laid = einsum.einsum_layout(ev, node)
        if laid is not None:
            return laid
    v = _call_qualname(ev, node, q, args)
    return strided(v, q) if q in STRIDED_RESULT_FUNCTIONS else v


def strided(v: Value, origin: str) -> Value:
    """``v`` (or each tensor it holds) never taken for contiguous: the result of a call whose
    outputs torch lays out otherwise though its inputs are contiguous (``torchfacts``'
    ``STRIDED_RESULT_*``: LAPACK's column-major matrices, einsum...)."""
    if v.elems is not None or v.item is not None:
        return v.with_(elems=None if v.elems is None else tuple(strided(e, origin) for e in v.elems),
                       item=None if v.item is None else strided(v.item, origin))
    if v.kind == NOT:
        return v
    return v.with_(strides=None, permuted_by=v.permuted_by or origin)


def _call_qualname(ev, node, q: str, args: List[Value]) -> Value:
    value_of = None if q.startswith("torch.utils.data.") and _patched(ev) else \
        (lambda a: ev.cache.get(id(a)) or UNKNOWN_VALUE)
    known = pipelines.call(q, node, value_of)
    if known is not None:
        return known
    if q.startswith("numpy.") or q.startswith("math."):
        return NOT_VALUE
    if not q.startswith("torch."):
        return UNKNOWN_VALUE
    name = q[6:]
    if name in api.TENSOR_INPUT_FUNCTIONS and node.args and isinstance(node.args[0], ast.Name) \
            and args[0].kind in (UNKNOWN, ANNOTATED) and args[0].qualname is None and not ev.conditional:
        ev.evidence.append(node.args[0].id)  # torch.isnan(x) ran: x is a tensor (of some class)
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
    pieces = yields.tensor_pieces(args[0]) if name in yields.TORCH_FUNCTIONS and args else None
    if pieces is not None:
        if name in PIECES:  # torch.chunk(t, n, d)...: pieces strided as t
            return pieces_of(ev, node, name, args[0], pieces, node.args[1:])
        return pieces
    if name == "where" and len(node.args) == 3 and not node.keywords \
            and not any(isinstance(a, ast.Starred) for a in node.args):
        return elementwise_layout(TENSOR, args, ".where")  # torch.where(cond, x, y): a tensor
    if name in api.TENSOR_FUNCTIONS:
        return torch_function_layout(ev, node, name, args)
    shaped = argreturns.function_value(ev, node, name, args)  # torch.min(x), torch.where(cond)
    return shaped if shaped is not None else _untraced(args)


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
    if (name in api.PERMUTE_METHODS or name in _SLICING) and args and args[0].kind != NOT:
        out = method_layout(ev, node, args[0], name, node.args[1:], node.args[0])
        return out.with_(kind=TENSOR) if out.kind == UNKNOWN else out  # torch.t(x) returns a tensor
    if name.endswith("_like") and args and args[0].sizes is not None and len(node.args) == 1 \
            and not node.keywords:
        a = args[0]
        dense = a.sizes is not None and a.strides is not None and L.is_dense(a.sizes, a.strides)
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
    if m in dictreads.READS and recv.kind == NOT:
        read = dictreads.method_read(ev, node, recv, m)  # d.items() of a local dict...
        if read is not None:
            return read
    container = yields.method_yield(recv, m) if m in yields.YIELDS and m != "unbind" else None
    if container is not None:
        if m in PIECES:  # t.chunk(n, d), t.split(s, d): pieces strided as t, a part of dim d
            return pieces_of(ev, node, m, recv, container, node.args)
        return container
    only = (m in api.TENSOR_ONLY_METHODS or api.tensor_only_keyword(m, node) \
            and not defines_method(ev, m)) and api.tensor_arity(m, node)  # not x.view_as(s, d)
    if only and isinstance(node.func.value, ast.Name) \
            and recv.kind in (UNKNOWN, ANNOTATED) and recv.qualname is None:
        if not ev.conditional:  # evidence only from calls that certainly ran
            ev.evidence.append(node.func.value.id)
        if recv.kind == UNKNOWN:
            recv = recv.with_(kind=TENSOR)
    elif only and recv.kind == UNKNOWN and recv.qualname is None and not recv.local_def:
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
        if m in STRIDED_RESULT_METHODS and recv.kind == UNKNOWN:  # mask.nonzero(): column-major
            return Value(UNKNOWN, permuted_by=recv.permuted_by or "." + m)
        if m == "unbind" or not recv.permuted_by:  # x.mT.unbind(0): pieces marked as x.mT
            return (yields.tensor_pieces(recv) if m == "unbind" else None) or UNKNOWN_VALUE
        return Value(UNKNOWN, permuted_by=recv.permuted_by)  # x.mT.sort(0)[0] keeps x.mT's strides
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
    shaped = argreturns.method_value(ev, node, recv, m, args)  # x.max(), x.unique(return_counts=True)
    if shaped is not None:
        return strided(shaped, "." + m) if m in STRIDED_RESULT_METHODS else shaped
    if m not in api.TENSOR_METHODS:
        return UNKNOWN_VALUE
    if m in STRIDED_RESULT_METHODS:  # x.inverse(): column-major
        return Value(recv.kind, caveat=recv.caveat, permuted_by=recv.permuted_by or "." + m)
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
            return Value(NOT, mono=ev.asked_dim(label, recv, i, node.func.value))
        return NOT_VALUE
    if recv.sizes is not None:
        return Value(NOT, elems=tuple(Value(NOT, mono=s) for s in recv.sizes))
    return NOT_VALUE


# ------------------------------------------------------------------ method layouts

# torch.<name>(...) that are TensorIterator ops of their tensor arguments.
_TORCH_POINTWISE = api.TENSOR_ITERATOR_FUNCTIONS
# torch.nn.functional.<name>(x, ...): TensorIterator ops of x alone (their other arguments
# are numbers and flags), or x itself (in place, dropout in eval).
_FUNCTIONAL_POINTWISE = frozenset(
    "relu relu6 gelu silu mish elu selu celu leaky_relu hardtanh hardswish hardsigmoid sigmoid "
    "tanh softplus softsign logsigmoid dropout".split())


