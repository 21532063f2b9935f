"""Size arithmetic: the sizes (monomials) that names and expressions stand for.

:class:`SizeArithmetic` is the part of the expression evaluator (:class:`~.exprs.Evaluator`)
that computes sizes: the size a name or constant stands for (:meth:`~SizeArithmetic.mono_of`),
binary operators on sizes and tensors (products and quotients of sizes, elementwise and
``@`` layouts), ``int(a / b)`` and ``math.floor``/``ceil``, the sizes a
``view``/``reshape``/``expand`` call names (:meth:`~SizeArithmetic.size_args`), and the
sizes learnt from ``b, n, c = x.shape``.
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple, cast

from . import escapes, listfill, numpyish
from . import layout as L
from . import torchsem as sem
from .elementwise import elementwise_layout
from .methodlayouts import const_int, dim_size
from .symbolic import Mono, Sym, rounded
from .torchsem import is_tensorish
from .values import ANNOTATED, NOT, TENSOR, UNKNOWN, UNKNOWN_VALUE, Env, Value, _serial

if TYPE_CHECKING:  # pragma: no cover
    from ..source import SourceIndex


class SizeArithmetic:
    """The sizes expressions stand for, and the values of binary operators."""

    # the evaluator's (:class:`~.exprs.Evaluator` sets them)
    env: Env
    cache: Dict[int, Value]
    idx: SourceIndex

    if TYPE_CHECKING:
        def lookup(self, name: str) -> Value: ...

    def asked_dim(self, label: str, owner: Value, i: int, recv: Optional[ast.AST]) -> Mono:
        """The size of dim ``i`` of ``owner`` (``x.shape[i]``, ``x.size(i)``; ``recv``: the
        ``x``), whose sizes are not known.  A dim named from the end (``x.shape[-1]``) is
        remembered: once x's rank is known (:meth:`closed_dims`), it is the dim it then
        names.  For that, x gets a value of its own first (a copy with a new serial, the
        name rebound to it): the value of an unknown call is one shared object, and a
        rebinding of x (``x = layer(x)``) must not inherit the sizes read before it.  The
        same is done on any read of a name bound to that shared value."""
        dims: Dict[int, Dict[int, Mono]] = self.__dict__.setdefault("_asked_dims", {})
        if owner.serial not in dims and owner.sizes is None and owner.open_layout is None \
                and (i < 0 or owner is UNKNOWN_VALUE) and isinstance(recv, ast.Name) \
                and self.env.get(recv.id) is owner:
            owner = owner.with_()
            owner.serial = next(_serial)
            self.env[recv.id] = owner
            dims[owner.serial] = {}
        m = dim_size(label, owner, i)
        if owner.serial in dims:
            dims[owner.serial].setdefault(i, m)
        return m

    def closed_dims(self, text: str, owner: Value, rank: int, exact: bool) -> Tuple[Mono, ...]:
        """The sizes of ``owner`` (``text``) taken to have ``rank`` dims; with ``exact``,
        where that is known (a permute names every dim), a dim asked for from the end
        before is that size, unless the same dim was also asked for from the start (two
        names, kept apart)."""
        opened = owner.open_layout  # torch.tensor(pairs): (n, 2, rest); rank 2 leaves no rest
        if opened is not None and len(opened[0]) <= rank + 1 and owner.permuted_by is None \
                and None not in opened[0] and opened[1] is not None \
                and tuple(opened[1]) == tuple(L.contiguous_strides(cast(Sequence[Mono], opened[0]))):
            known = tuple(cast(Sequence[Mono], opened[0]))
            if len(known) >= rank:  # the rest no dim, or one (u[None] taken as 2-d: 1, u's size)
                return known[:rank]
            return known[:-1] + tuple(dim_size(f"{text}.size({i})", owner, i) for i in range(len(known) - 1, rank))
        asked: Dict[int, Mono] = self.__dict__.get("_asked_dims", {}).get(owner.serial, {}) \
            if exact else {}
        out = []
        for i in range(rank):
            tail = asked.get(i - rank)
            own = tail is None or i in asked
            out.append(dim_size(f"{text}.size({i})", owner, i) if own else cast(Mono, tail))
        return tuple(out)

    def learn_shape(self, value_node: ast.AST,
                    names: Sequence[ast.expr]) -> Optional[Tuple[Value, ...]]:
        """``b, n, c = x.shape`` / ``x.size()``: x has rank 3 and sizes named b, n, c.
        ``c, h, w = x.shape[1:]``: rank 4; ``h, w = x.shape[-2:]`` / ``x.shape[:2]``: the
        last (first) two sizes, the rank left open."""
        if isinstance(value_node, ast.Subscript) and isinstance(value_node.slice, ast.Slice):
            return self._learn_shape_slice(value_node, names)
        base = None
        if isinstance(value_node, ast.Attribute) and value_node.attr == "shape":
            base = value_node.value
        elif (isinstance(value_node, ast.Call) and isinstance(value_node.func, ast.Attribute)
              and value_node.func.attr == "size" and not value_node.args and not value_node.keywords):
            base = value_node.func.value
        if not isinstance(base, ast.Name):
            return None
        tv = self.lookup(base.id)
        if tv.kind == NOT or tv.qualname is not None:
            return None
        if tv.open_layout is not None and tv.open_layout[1] is not None \
                and len(names) == len(tv.open_layout[0]) - 1:
            # (an open layout is made of known sizes: its last one stands for the rest)
            sizes, strides = L.close_rank(tv.open_layout[0], tv.open_layout[1])
            self.env[base.id] = tv.with_(sizes=sizes, strides=strides)
            return tuple(Value(NOT, mono=m) for m in sizes)
        asked: Dict[int, Mono] = {} if tv.sizes is not None \
            else self.__dict__.get("_asked_dims", {}).get(tv.serial, {})
        monos: List[Mono] = []
        for n in names:
            k = len(monos)
            label = n.id if isinstance(n, ast.Name) and n.id.strip("_") else f"{base.id}.size({k})"
            tail = asked.get(k - len(names))
            monos.append(tail if tail is not None and k not in asked else dim_size(label, tv, k))
        dims = tuple(monos)
        self.env[base.id] = tv.with_(sizes=dims,
                                     strides=L.contiguous_strides(dims) if tv.permuted_by is None else None)
        return tuple(Value(NOT, mono=m) for m in monos)

    def _learn_shape_slice(self, value_node: ast.Subscript,
                           names: Sequence[ast.expr]) -> Optional[Tuple[Value, ...]]:
        """``names = x.shape[a:]`` (rank ``a + len(names)``), ``x.shape[-k:]`` or ``x.shape[:k]``
        with ``k == len(names)`` (the rank left open)."""
        shape, sl = value_node.value, cast(ast.Slice, value_node.slice)
        if not (isinstance(shape, ast.Attribute) and shape.attr == "shape"
                and isinstance(shape.value, ast.Name)) or sl.step is not None:
            return None
        lower = 0 if sl.lower is None else const_int(sl.lower)
        upper = None if sl.upper is None else const_int(sl.upper)
        if lower is None or (sl.upper is not None and upper is None):
            return None
        tv = self.lookup(shape.value.id)
        if tv.kind == NOT or tv.qualname is not None or tv.open_layout is not None:
            return None
        k = len(names)
        if tv.sizes is not None:
            part = tv.sizes[lower:upper]
            return tuple(Value(NOT, mono=m) for m in part) if len(part) == k else None
        if lower >= 0 and upper is None:  # the rank is lower + k: as if every dim were named
            unnamed = [ast.Name(id="_", ctx=ast.Store()) for _ in range(lower)]
            learnt = self.learn_shape(shape, unnamed + list(names))
            return None if learnt is None else learnt[lower:]
        if lower == -k and upper is None:
            dims = range(-k, 0)
        elif lower == 0 and upper == k:
            dims = range(k)
        else:
            return None
        return tuple(Value(NOT, mono=self.asked_dim(
            n.id if isinstance(n, ast.Name) and n.id.strip("_") else f"{shape.value.id}.size({d})",
            self.lookup(shape.value.id), d, shape.value))
            for n, d in zip(names, dims))

    def mono_of(self, node: Optional[ast.AST], v: Value) -> Optional[Mono]:
        """The size a value stands for; a name of unknown value is a symbol (made lazily)."""
        if v.mono is not None:
            return v.mono
        if isinstance(node, ast.Name) and v.kind != TENSOR and v.qualname is None \
                and not v.local_def and v.sizes is None:
            return Mono.sym(Sym(node.id, "free" if v is UNKNOWN_VALUE else v.serial))
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return Mono.const(node.value)
        if isinstance(node, ast.Attribute) and v is UNKNOWN_VALUE and _of_self(node.value):
            return Mono.sym(Sym(self.idx.text(node), "attr"))  # self.config.patch_size
        return None

    def binop(self, op, left: Value, right: Value, inplace: bool = False,
              nodes: Tuple[Optional[ast.AST], Optional[ast.AST]] = (None, None)) -> Value:
        if inplace and type(nodes[0]) is ast.Name and nodes[1] is not None and type(nodes[1]) is not ast.Name:
            escapes.note(self, nodes[0], nodes[1])  # xs += [t]: a later call may reach t
        if isinstance(op, ast.Mult) and not inplace and (type(nodes[0]) is ast.List or type(nodes[1]) is ast.List):
            made = listfill.repeated(self, nodes, left, right)  # [None] * n
            if made is not None:
                return made
        if (left.array is not None or right.array is not None) and not inplace:
            arr = numpyish.binop(op, left, right, nodes)
            if arr is not None:
                return arr
        if isinstance(op, ast.MatMult):
            kinds = (left.kind, right.kind)
            kind = TENSOR if TENSOR in kinds else ANNOTATED if ANNOTATED in kinds else UNKNOWN
            sizes = sem.matmul_sizes(left, right) if NOT not in kinds else None
            if kind == UNKNOWN and sizes is None:
                return UNKNOWN_VALUE
            return Value(kind, sizes=sizes, strides=L.contiguous_strides(sizes) if sizes else None)
        lt, rt = is_tensorish(left), is_tensorish(right)
        if lt or rt:
            kind = TENSOR if TENSOR in (left.kind, right.kind) else ANNOTATED
            t, other = (left, right) if lt else (right, left)
            other_node = nodes[1] if lt else nodes[0]
            if other.kind == NOT and (other.elems is not None or other.item is not None) or isinstance(
                    other_node, ast.Constant) and isinstance(other_node.value, (str, bytes)):
                return UNKNOWN_VALUE  # a sequence: `[0] * t` repeats it (t an int), else it raises
            taint = left.permuted_by or right.permuted_by
            if lt and rt:
                if left.sizes is not None and right.sizes is not None:
                    return elementwise_layout(kind, [left, right], " " + type(op).__name__)
                return Value(kind, permuted_by=taint)
            if other.kind == NOT and t.sizes is not None:
                # the output of an elementwise op follows a dense input's dim order;
                # a non-dense input gives a dense output we don't model
                # (strides are known only where every size is)
                dense = t.strides is not None and L.is_dense(cast(Sequence[Mono], t.sizes), t.strides)
                if inplace or dense:
                    return Value(kind, sizes=t.sizes, strides=t.strides,
                                 permuted_by=t.permuted_by)
                return Value(kind, sizes=t.sizes, permuted_by=taint)
            if other.kind == UNKNOWN and other.sizes is None and t.sizes is not None:
                # a scale held in a name or attribute: sizes kept, strides unknown
                return Value(kind, sizes=t.sizes, permuted_by=taint)
            return Value(kind, permuted_by=taint)
        lm = self.mono_of(nodes[0], left) if isinstance(op, (ast.Mult, ast.FloorDiv, ast.Div)) else None
        rm = self.mono_of(nodes[1], right) if lm is not None else None
        mono = None
        if lm is not None and rm is not None:
            mono = lm * rm if isinstance(op, ast.Mult) else lm / rm
            if mono is not None and isinstance(op, ast.FloorDiv):
                mono = rounded(mono)
        if isinstance(op, ast.Add) and (left.elems is not None or right.elems is not None):
            return Value(NOT, item=UNKNOWN_VALUE)  # x.size()[:-1] + (h, d): a sequence, no size
        if left.kind == NOT and right.kind == NOT:
            return Value(NOT, mono=mono)
        if mono is not None and not isinstance(op, ast.Div):
            # sizes held in names of unknown kind (parameters): keep the algebra
            return Value(UNKNOWN, mono=mono)
        taint = left.permuted_by or right.permuted_by
        if (left.mixed or right.mixed) and isinstance(op, _SOME_KEPT) \
                and self._number(*((right, nodes[1]) if left.mixed else (left, nodes[0]))):
            # a tensor on some paths and no tensor on the others, by a number: so is the
            # result (``f(a) / len(b)``)
            return Value(UNKNOWN, mixed=True, permuted_by=taint)
        if taint:  # maybe a tensor computed from a permuted one: never assumed contiguous
            return Value(UNKNOWN, permuted_by=taint)
        return UNKNOWN_VALUE

    def _number(self, v: Value, node: Optional[ast.AST]) -> bool:
        """Is ``node`` a Python number on every path: an int or float literal, or a size
        (``len(b)``, ``x.size(0)``)?"""
        if isinstance(node, ast.Constant) and type(node.value) is float:
            return True
        return node is not None and listfill._an_int(self, node, names=False)

    def rounded_call(self, node: ast.Call, ceil: bool) -> Value:
        """``int(a / b)``, ``math.floor(a / b)``, ``math.ceil(a / b)``: an int, a size when
        ``a`` and ``b`` are."""
        ratio = self.ratio_of(node.args[0])
        return Value(NOT, mono=None if ratio is None else rounded(ratio, ceil))

    def ratio_of(self, node: ast.AST) -> Optional[Mono]:
        """The size ``node`` stands for, where ``a / b`` of sizes is their exact ratio (the
        argument of ``int(a / b)``, ``math.floor(a / b)``, ``math.ceil(a / b)``)."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            num = self.ratio_of(node.left)
            den = self.ratio_of(node.right) if num is not None else None
            return None if den is None else num / den  # type: ignore[operator]
        v = self.cache.get(id(node))
        return None if v is None or is_tensorish(v) else self.mono_of(node, v)

    def size_args(self, arg_nodes: Sequence[ast.AST]) -> Optional[List[Optional[Mono]]]:
        """Sizes passed as ``*sizes`` or as one tuple/list/``x.shape``; None for ``-1``."""
        if len(arg_nodes) == 1 and not isinstance(arg_nodes[0], ast.Starred):
            only = arg_nodes[0]
            v = self.cache.get(id(only))
            if isinstance(only, (ast.Tuple, ast.List)):
                arg_nodes = only.elts
            elif v is not None and v.elems is not None:
                return [None if (e.mono is not None and e.mono == Mono.const(-1)) else e.mono
                        for e in v.elems]
        out: List[Optional[Mono]] = []
        for a in arg_nodes:
            if isinstance(a, ast.Starred):
                return None
            c = const_int(a)
            if c == -1:
                out.append(None)
                continue
            v = self.cache.get(id(a))
            if v is not None and v.kind == NOT and v.item is not None:
                return None  # a sequence (``x.size()[:-1] + (h, d)``), not a size
            m = self.mono_of(a, v) if v is not None and v.kind != TENSOR else None
            if m is None:
                if v is not None and (v.kind in (TENSOR, ANNOTATED) or v.elems is not None):
                    return None
                label = self.idx.text(a)
                out.append(Mono.sym(Sym(label, ("expr", ast.dump(a)))))
                continue
            out.append(m)
        return out


def _of_self(node: ast.AST) -> bool:
    """``self.config`` (or ``cls.a.b``): an attribute chain on the instance or class."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


#: arithmetic that gives a tensor of a tensor and a Python number (checked with torch:
#: tests/test_some_path_returns.py)
_SOME_KEPT = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
