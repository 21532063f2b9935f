"""Expression evaluation: the value of each expression node, given the names' values.

:class:`Evaluator` holds the environment of the scope being walked and evaluates
expressions bottom-up, caching each node's :class:`~.values.Value` for the rules
and calling the rules registered for the node's type.  Binding (assignment
targets, unpacking) lives here too, since ``:=`` and comprehensions bind.  What
torch calls, methods, attributes and indexing yield is in :mod:`.torchsem`;
statements and joins are the walker's (:mod:`.flow`).
"""
from __future__ import annotations

import ast
from collections import Counter
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..source import SourceIndex
from . import layout as L
from . import numpyish
from . import pipelines
from . import torchapi as api
from . import torchsem as sem
from . import yields
from .narrowing import narrow
from .project import imported_call
from .callsites import NO_CALLSITES, CallSites
from .returns import returns_tensor
from .summaries import store_counts, tensor_attributes
from .symbolic import Mono, Sym, rounded
from .methodlayouts import const_int, dim_size, elementwise_layout, permuted_origin
from .torchsem import TENSOR_TYPES, is_tensorish
from .values import ANNOTATED, NOT, NOT_VALUE, SUBCLASS, TENSOR, UNKNOWN, UNKNOWN_VALUE, Value, join

Env = Dict[str, Value]

# expressions whose tensor result may take the class of a tensor they are computed from
# torch functions whose result is a plain tensor whatever their (non-tensor) arguments
_FACTORIES = frozenset("torch." + n for n in """
    zeros ones empty full rand randn randint randperm arange range linspace logspace eye tensor
    from_numpy frombuffer empty_strided tril_indices triu_indices""".split())
# tensor methods whose other tensor operands take part in choosing the result's class
# (``__torch_function__`` sees every tensor argument)
_OPERAND_METHODS = frozenset("""
    add sub mul div true_divide floor_divide pow matmul mm bmm mv dot outer cross kron copy_ to
    type_as where masked_fill masked_fill_ masked_scatter index_add index_copy index_fill scatter
    scatter_add add_ sub_ mul_ div_ pow_ lerp lerp_ maximum minimum fmax fmin fmod remainder atan2
    eq ne lt le gt ge logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor
    addcmul addcdiv addmm addbmm baddbmm clamp clamp_ clip expand_as view_as reshape_as
    new_tensor hypot xlogy logaddexp copysign ldexp nextafter""".split())
_DERIVED = (ast.Call, ast.BinOp, ast.UnaryOp, ast.Subscript, ast.Attribute, ast.Compare)


def _laid_out(v: Value) -> bool:
    """Something is known of the value's layout (a tensor of unknown kind, say)."""
    return v.sizes is not None or v.open_layout is not None or bool(v.permuted_by)


def _of_self(node: ast.AST) -> bool:
    """``self.config`` (or ``cls.a.b``): an attribute chain on the instance or class."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


class Evaluator:
    """Values of expressions in the current scope (``env``, with ``outer`` behind it)."""

    def __init__(self, source: str, rules: Sequence) -> None:
        self.source = source
        self.idx = SourceIndex(source)
        self.dispatch: Dict[type, List] = {}
        for rule in rules:
            for t in rule.node_types:
                self.dispatch.setdefault(t, []).append(rule)
        self.cache: Dict[int, Value] = {}
        self.env: Env = {}
        self.outer: Env = {}
        self.ctx = None  # the rules' Context, set by the walker
        self.reporting = True
        self.evidence: List[str] = []
        self.conditional = 0  # >0 inside code a statement may not run (IfExp arms, `and`/`or`, lambdas)
        self._expr_handlers: Dict[type, Optional[Callable]] = {}
        self.method_of: Optional[ast.ClassDef] = None  # the class of the method being walked
        self.self_value: Optional[Value] = None  # and its first parameter
        self.class_attrs: Dict[int, Dict[str, bool]] = {}
        self.module_defs: Dict[int, ast.AST] = {}  # id of the value a module-level def bound -> def
        self.tensor_returns: Dict[int, bool] = {}
        self.attr_stores: Optional[Counter] = None  # stores of each .attr in the module's text
        self.volatile: frozenset = frozenset()  # names that calls may rebind (nonlocal, global)
        self.sites: CallSites = NO_CALLSITES  # calls of closed functions, to record
        self.passed: Dict[int, Dict[str, Value]] = {}  # id(call) -> what it passes each parameter
        self.narrow_caveat = self.subclass_caveat = SUBCLASS  # what narrowing to "tensor" leaves unproven
        self.star_imported = False  # a star import may shadow builtins
        self.walrus: List[str] = []  # names `:=` bound, for scopes that restore the env
        self.path: Optional[str] = None  # the linted file: its imports of its own package are followed
        self.imported_from: Dict[int, tuple] = {}  # id(value) -> (value, level, module, name)

    def attribute_is_tensor(self, attr: str) -> bool:
        """Is ``self.<attr>`` a tensor in the method being walked (module summary)?"""
        cls = self.method_of
        if cls is None:
            return False
        attrs = self.class_attrs.get(id(cls))
        if attrs is None:
            if "setattr(" in self.source or "__dict__" in self.source:
                attrs = {}  # attributes may be set where the text does not show it
            else:
                if self.attr_stores is None:
                    self.attr_stores = store_counts(self.source)
                attrs = tensor_attributes(cls, self.attr_stores, self.static_qualname,
                                          registers="register_" in self.idx.text(cls))
            self.class_attrs[id(cls)] = attrs
        return attrs.get(attr, False)

    def lookup(self, name: str) -> Value:
        v = self.env.get(name)
        if v is None:
            v = self.outer.get(name)
        return v if v is not None else UNKNOWN_VALUE

    def is_tensor_annotation(self, ann: ast.AST) -> bool:
        if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
            try:
                ann = ast.parse(ann.value, mode="eval").body
            except SyntaxError:
                return False
        return self.static_qualname(ann) in TENSOR_TYPES

    def static_qualname(self, node: ast.AST) -> Optional[str]:
        """Qualified name of a dotted name without evaluating (for annotations, types)."""
        if isinstance(node, ast.Name):
            return self.lookup(node.id).qualname
        if isinstance(node, ast.Attribute):
            base = self.static_qualname(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def _handler(self, table: Dict[type, Optional[Callable]], prefix: str, cls: type):
        """The ``s_``/``e_`` method for a node class, looked up once per class."""
        try:
            return table[cls]
        except KeyError:
            handler = table[cls] = getattr(self, prefix + cls.__name__, None)
            return handler

    def apply(self, env: Env, updates: Dict[str, str]) -> Env:
        for name, kind in updates.items():
            cur = env.get(name) or self.outer.get(name) or UNKNOWN_VALUE
            if cur.qualname is not None:
                continue
            if kind == UNKNOWN:
                env[name] = Value(UNKNOWN)
            elif kind == TENSOR and cur.kind != TENSOR:
                # isinstance/is_tensor prove a tensor, not which class
                env[name] = cur.with_(kind=kind, caveat=cur.caveat or self.narrow_caveat)
            else:
                env[name] = cur.with_(kind=kind)
        return env

    # ----------------------------------------------------------------- binding
    def bind(self, target: ast.AST, v: Value, value_node: Optional[ast.AST]) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = v
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            names = target.elts
            stars = [i for i, e in enumerate(names) if isinstance(e, ast.Starred)]
            if stars:
                self.bind_starred(names, stars[0], v.elems if len(stars) == 1 else None)
                return
            elems = v.elems
            if elems is None and value_node is not None:
                elems = self.learn_shape(value_node, names)
            if elems is not None and len(elems) == len(names):
                for e, ev in zip(names, elems):
                    self.bind(e, ev, None)
                return
            each = self.element_of(v)
            for e in names:
                self.bind(e, each, None)
            return
        if isinstance(target, ast.Starred):
            self.bind(target.value, UNKNOWN_VALUE, None)
            return
        self.ev_target(target)

    def bind_starred(self, names: Sequence[ast.AST], star: int,
                     elems: Optional[Tuple[Value, ...]]) -> None:
        """``a, *rest, z = v``: the names before and after the star take the items at their
        places, the starred one a list of those in between (items not known: unknown)."""
        after = len(names) - star - 1
        if elems is None or len(elems) < len(names) - 1:
            for e in names:
                self.bind(e.value if isinstance(e, ast.Starred) else e, UNKNOWN_VALUE, None)
            return
        for e, item in zip(names[:star], elems):
            self.bind(e, item, None)
        middle = elems[star:len(elems) - after]
        self.bind(names[star].value, Value(NOT, elems=tuple(middle)), None)
        for e, item in zip(names[star + 1:], elems[len(elems) - after:]):
            self.bind(e, item, None)

    def learn_shape(self, value_node: ast.AST, names: Sequence[ast.AST]):
        """``b, n, c = x.shape`` / ``x.size()``: x has rank 3 and sizes named b, n, c."""
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
        if tv.open_layout is not None and len(names) == len(tv.open_layout[0]) - 1:
            sizes, strides = L.close_rank(*tv.open_layout)
            self.env[base.id] = tv.with_(sizes=sizes, strides=strides)
            return tuple(Value(NOT, mono=m) for m in sizes)
        monos = []
        for n in names:
            named = isinstance(n, ast.Name) and n.id.strip("_")
            label = n.id if named else f"{base.id}.size({len(monos)})"
            monos.append(dim_size(label, tv, len(monos)))
        sizes = tuple(monos)
        strides = L.contiguous_strides(sizes) if tv.permuted_by is None else None
        self.env[base.id] = tv.with_(sizes=sizes, strides=strides)
        return tuple(Value(NOT, mono=m) for m in monos)

    def element_of(self, v: Value) -> Value:
        if v.item is not None:
            return v.item
        if v.array is not None:
            return numpyish.row_of(v.array)
        if is_tensorish(v):
            if v.sizes:
                return sem.index_layout(v, 1)
            return Value(v.kind)
        if v.elems:
            out = v.elems[0]
            for e in v.elems[1:]:
                out = join(out, e)
            return out
        return UNKNOWN_VALUE

    def ev_target(self, t: ast.AST) -> None:
        if isinstance(t, ast.Attribute):
            self.ev(t.value)
        elif isinstance(t, ast.Subscript):
            self.ev(t.value)
            self.ev(t.slice)
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                self.ev_target(e)
        elif isinstance(t, ast.Starred):
            self.ev_target(t.value)

    # ------------------------------------------------------------- expressions
    def ev(self, node: ast.AST) -> Value:
        cls = type(node)
        handler = self._handler(self._expr_handlers, "e_", cls)
        if handler is None:
            self._children(node)
            v = UNKNOWN_VALUE
        else:
            v = handler(node)
        shape = sem.tuple_shape(self, node) if cls is ast.Call else None
        if shape is not None and shape.torch_function:
            v = Value(TENSOR, permuted_by=v.permuted_by)  # what torch.max(x, 1) holds
        elif shape is not None and v.kind not in (TENSOR, ANNOTATED):
            recv = self.cache.get(id(node.func.value)) or UNKNOWN_VALUE  # x.topk(k) of a tensor x
            if is_tensorish(recv):
                v = Value(recv.kind, caveat=recv.caveat, permuted_by=recv.permuted_by)
        if v.kind == TENSOR and v.caveat is None and cls in _DERIVED:
            v = self.derived_caveat(node, v)
        if shape is not None and v.kind in (TENSOR, ANNOTATED):
            v = sem.tuple_result(shape, v)  # x.topk(k), torch.max(x, 1): (values, indices)
        self.cache[id(node)] = v
        rules = self.dispatch.get(cls)
        if rules and self.reporting:
            for rule in rules:
                rule.check(node, self.ctx)
        return v

    def derived_caveat(self, node: ast.AST, v: Value) -> Value:
        """A tensor computed from a value that may be a Tensor subclass (or is not known to
        be a plain tensor) may itself be one: ops on a subclass return the subclass."""
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and self.cache.get(id(func.value)) is not None \
                    and self.cache[id(func.value)].qualname is None:
                sources = [func.value]  # a method: its receiver
            else:
                sources = list(node.args) + [k.value for k in node.keywords]
                sources = [a.value if isinstance(a, ast.Starred) else a for a in sources]
                out = []
                for a in sources:  # torch.cat([a, b]): the items
                    out.extend(a.elts if isinstance(a, (ast.List, ast.Tuple)) else [a])
                sources = out
            method = isinstance(func, ast.Attribute) and bool(sources) and sources[0] is func.value
            factory = (self.cache.get(id(func)) or UNKNOWN_VALUE).qualname in _FACTORIES
            unknown_ok = method or not factory
            if method and func.attr in _OPERAND_METHODS:  # x.add(y), buf.copy_(y), z.to(ref): y decides too
                sources = sources + [a.value if isinstance(a, ast.Starred) else a
                                     for a in list(node.args) + [k.value for k in node.keywords]]
        else:
            sources = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]
            unknown_ok = True
        for c in sources:
            if c is None:
                continue
            cv = self.cache.get(id(c))
            if cv is None or cv.qualname is not None:
                continue
            if cv.caveat is not None:
                return v.with_(caveat=cv.caveat)
            if cv.kind == ANNOTATED or (unknown_ok and cv.kind == UNKNOWN and cv.mono is None
                                        and not cv.local_def):
                return v.with_(caveat=SUBCLASS)
        return v

    def e_Name(self, node):
        if node.id in self.volatile:
            return UNKNOWN_VALUE  # a nested function (nonlocal) or any function (global) may rebind it
        return self.lookup(node.id)

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

    def e_Constant(self, node):
        return NOT_VALUE

    def _children(self, node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.ev(child)

    def e_JoinedStr(self, node):
        self._children(node)
        return NOT_VALUE

    def e_List(self, node):
        return Value(NOT, elems=tuple(self.ev(e) for e in node.elts))

    e_Tuple = e_List

    def e_Set(self, node):
        self._children(node)
        return NOT_VALUE

    def e_Dict(self, node):
        """A dict: not a tensor; an item read from it is never taken for a contiguous tensor
        when a value stored in it was permuted."""
        self._children(node)
        held = [self.cache.get(id(v)) or UNKNOWN_VALUE for v in node.values]
        origin = permuted_origin(held)
        return Value(NOT, permuted_by=origin) if origin else NOT_VALUE

    def e_Slice(self, node):
        self._children(node)
        return NOT_VALUE

    def e_Starred(self, node):
        self.ev(node.value)
        return UNKNOWN_VALUE

    def e_NamedExpr(self, node):
        v = self.ev(node.value)
        self.bind(node.target, v, node.value)
        self.walrus.append(node.target.id)
        return v

    def restore(self, saved: Env, mark: int) -> None:
        """Leave a part evaluated in a copy of the env (a comprehension, a lambda, an arm of
        ``if``/``else`` or ``and``/``or``): a name ``:=`` bound there may or may not be
        bound now, so it is unknown."""
        self.env = saved
        if len(self.walrus) > mark:
            for name in self.walrus[mark:]:
                saved[name] = UNKNOWN_VALUE
            del self.walrus[mark:]

    def e_Lambda(self, node):
        for d in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.ev(d)
        saved, mark = self.env, len(self.walrus)
        self.env = dict(saved)
        self.conditional += 1
        a = node.args
        for p in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
            self.env[p.arg] = Value(UNKNOWN)
        self.ev(node.body)
        self.conditional -= 1
        self.restore(saved, mark)
        return Value(UNKNOWN, local_def=True)

    def comprehension(self, node, parts: Sequence[ast.AST]) -> None:
        saved, mark = self.env, len(self.walrus)
        self.env = dict(saved)
        self.conditional += 1
        for gen in node.generators:
            it = self.ev(gen.iter)
            self.bind(gen.target, self.element_of(it), None)
            for cond in gen.ifs:
                self.ev(cond)
                self.apply(self.env, narrow(self, cond)[0])
        for p in parts:
            self.ev(p)
        self.conditional -= 1
        self.restore(saved, mark)

    def e_ListComp(self, node):
        self.comprehension(node, [node.elt])
        elt = self.cache.get(id(node.elt))
        if isinstance(node, ast.ListComp) and elt is not None and elt.array is not None:
            return Value(NOT, item=elt)  # a list of arrays (numpyish)
        return NOT_VALUE

    e_SetComp = e_ListComp

    def e_GeneratorExp(self, node):
        self.comprehension(node, [node.elt])
        return UNKNOWN_VALUE

    def e_DictComp(self, node):
        self.comprehension(node, [node.key, node.value])
        return NOT_VALUE

    def e_IfExp(self, node):
        self.ev(node.test)
        yes, no = narrow(self, node.test)
        saved, mark = self.env, len(self.walrus)
        self.conditional += 1
        self.env = self.apply(dict(saved), yes)
        a = self.ev(node.body)
        self.env = self.apply(dict(saved), no)
        b = self.ev(node.orelse)
        self.conditional -= 1
        self.restore(saved, mark)
        return join(a, b)

    def e_BoolOp(self, node):
        saved, mark = self.env, len(self.walrus)
        self.env = dict(saved)
        vals = []
        for k, v in enumerate(node.values):
            self.conditional += k > 0
            vals.append(self.ev(v))
            self.conditional -= k > 0
            yes, no = narrow(self, v)
            self.apply(self.env, yes if isinstance(node.op, ast.And) else no)
        self.restore(saved, mark)
        out = vals[0]
        for v in vals[1:]:
            out = join(out, v)
        return out

    def e_Compare(self, node):
        vals = [self.ev(node.left)] + [self.ev(c) for c in node.comparators]
        if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
            return NOT_VALUE
        kind = TENSOR if any(v.kind == TENSOR for v in vals) else UNKNOWN
        if kind == UNKNOWN and all(v.kind == NOT for v in vals):
            return NOT_VALUE
        if len(vals) == 2 and (kind == TENSOR or any(_laid_out(v) for v in vals)):
            return elementwise_layout(kind, vals, " " + self.idx.text(node))
        origin = permuted_origin(vals)
        return Value(kind, permuted_by=origin) if origin or kind == TENSOR else UNKNOWN_VALUE

    def e_UnaryOp(self, node):
        v = self.ev(node.operand)
        if isinstance(node.op, ast.Not):
            return NOT_VALUE
        if is_tensorish(v) or _laid_out(v):  # a TensorIterator op of one input
            return elementwise_layout(v.kind, [v], " " + self.idx.text(node))
        m = self.mono_of(node.operand, v) if isinstance(node.op, ast.USub) else None
        if m is not None:
            return Value(NOT if v.kind == NOT else UNKNOWN, mono=m * Mono.const(-1))
        return Value(v.kind) if v.kind == NOT else UNKNOWN_VALUE

    def e_BinOp(self, node):
        left = self.ev(node.left)
        right = self.ev(node.right)
        return self.binop(node.op, left, right, nodes=(node.left, node.right))

    def binop(self, op, left: Value, right: Value, inplace: bool = False,
              nodes: Tuple[Optional[ast.AST], Optional[ast.AST]] = (None, None)) -> Value:
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
            taint = left.permuted_by or right.permuted_by
            if lt and rt:
                if left.sizes is not None and right.sizes is not None:
                    return elementwise_layout(kind, [left, right], " " + type(op).__name__)
                return Value(kind, permuted_by=taint)
            if other.kind == NOT and t.sizes is not None:
                # the output of an elementwise op follows a dense input's dim order;
                # a non-dense input gives a dense output we don't model
                dense = t.strides is not None and L.is_dense(t.sizes, t.strides)
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
        if left.kind == NOT and right.kind == NOT:
            return Value(NOT, mono=mono)
        if mono is not None and not isinstance(op, ast.Div):
            # sizes held in names of unknown kind (parameters): keep the algebra
            return Value(UNKNOWN, mono=mono)
        taint = left.permuted_by or right.permuted_by
        if taint:  # maybe a tensor computed from a permuted one: never assumed contiguous
            return Value(UNKNOWN, permuted_by=taint)
        return UNKNOWN_VALUE

    def e_Attribute(self, node):
        base = self.ev(node.value)
        attr = node.attr
        if base.qualname is not None:
            held = pipelines.attribute(base, attr)  # enc.input_ids of a tokenizer's output
            if held is not None:
                return held
            q = f"{base.qualname}.{attr}"
            if base.qualname == "torch" and attr in api.NON_TENSOR_TORCH_ATTRIBUTES:
                return Value(NOT, qualname=q)
            return Value(qualname=q)
        if attr in api.NON_TENSOR_ATTRIBUTES:
            if attr == "shape" and base.sizes is not None:
                return Value(NOT, elems=tuple(Value(NOT, mono=s) for s in base.sizes))
            return NOT_VALUE
        if is_tensorish(base) and attr in api.TENSOR_ATTRIBUTES:
            return sem.attribute_layout(base, attr)
        if base.kind == UNKNOWN and base.sizes is not None and attr in ("T", "mT", "mH", "H"):
            return sem.attribute_layout(base, attr)
        if self.self_value is not None and isinstance(node.value, ast.Name) \
                and self.lookup(node.value.id) is self.self_value and self.attribute_is_tensor(attr):
            return Value(TENSOR)
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            return Value(UNKNOWN, mono=Mono.sym(Sym(f"{node.value.id}.{attr}", "attr")))
        return UNKNOWN_VALUE

    def e_Subscript(self, node):
        base = self.ev(node.value)
        idx = self.ev(node.slice)
        if base.elems is not None:
            i = const_int(node.slice)
            if i is not None and -len(base.elems) <= i < len(base.elems):
                return base.elems[i]
            return base.item or UNKNOWN_VALUE
        if base.mapped is not None:
            return base.mapped
        if base.item is not None and isinstance(node.slice, ast.Constant):
            return base.item
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
            i = const_int(node.slice)
            owner = self.cache.get(id(node.value.value))
            if i is not None and owner is not None and owner.kind != NOT:
                known = sem.known_size(owner, i)
                if known is not None:
                    return Value(NOT, mono=known)
                label = f"{self.idx.text(node.value.value)}.size({i})"
                return Value(NOT, mono=dim_size(label, owner, i))
            return NOT_VALUE
        if is_tensorish(base) or base.kind == UNKNOWN and base.sizes is not None:
            return sem.subscript_layout(self, node, base, node.slice, idx)
        return Value(UNKNOWN, permuted_by=base.permuted_by) if base.permuted_by else UNKNOWN_VALUE

    def e_Await(self, node):
        self.ev(node.value)
        return UNKNOWN_VALUE

    # ------------------------------------------------------------------- calls
    def e_Call(self, node):
        func = self.ev(node.func)
        args = [self.ev(a) for a in node.args]
        for k in node.keywords:
            self.ev(k.value)
        closed = self.sites.calls.get(id(node))
        if closed is not None:
            self.record_call(node, closed)
        if self.path is not None:
            found = imported_call(self, node, func)  # a function of another module of the project
            if found is not None:
                return found
        if func.qualname in ("math.floor", "math.ceil") and len(args) == 1:
            return self.rounded_call(node, ceil=func.qualname == "math.ceil")
        if func.qualname is not None:
            if func.qualname.startswith("numpy."):
                return numpyish.call(self, node, func.qualname, args)
            return sem.call_qualname(self, node, func.qualname, args)
        if isinstance(node.func, ast.Attribute):
            recv = self.cache.get(id(node.func.value)) or UNKNOWN_VALUE
            if recv.array is not None or node.func.attr == "numpy":
                arr = numpyish.method(recv, node, node.func.attr, self)
                if arr is not None:
                    return arr
            elif node.func.attr == "append" and isinstance(node.func.value, ast.Name):
                numpyish.appended(self, node)
            return sem.call_method(self, node, recv, node.func.attr, args)
        defn = self.module_defs.get(id(func))
        if defn is not None:
            if id(defn) not in self.tensor_returns:
                self.tensor_returns[id(defn)] = returns_tensor(defn, self.static_qualname)
            if self.tensor_returns[id(defn)]:
                return Value(TENSOR)
        if func.is_class:
            return NOT_VALUE
        if isinstance(node.func, ast.Name) and func is not None and not func.local_def \
                and node.func.id not in self.env and node.func.id not in self.outer \
                and not self.star_imported:
            name = node.func.id
            if name == "int" and len(args) == 1:
                return self.rounded_call(node, ceil=False)
            container = yields.builtin_yield(name, [self.element_of(a) for a in args]) \
                if name in yields.BUILTINS and not node.keywords else None
            if container is not None:
                return container
            if name in api.NON_TENSOR_BUILTINS:
                return NOT_VALUE
            origin = permuted_origin(args)  # abs(x), max(x, y): x itself or its layout
            if origin:
                return Value(UNKNOWN, permuted_by=origin)
        return UNKNOWN_VALUE

    def record_call(self, node: ast.Call, closed) -> None:
        """What a call of a closed function passes (joined over the times it is walked:
        a loop body is walked twice).  A default the walk has not evaluated is unknown."""
        seen = self.passed.get(id(node))
        now = {p: (self.cache.get(id(a)) or UNKNOWN_VALUE)
               for p, a in closed.arguments(node).items() if a is not None}
        self.passed[id(node)] = now if seen is None else {
            p: join(v, seen[p]) for p, v in now.items() if p in seen}

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
            m = self.mono_of(a, v) if v is not None and v.kind != TENSOR else None
            if m is None:
                if v is not None and (v.kind in (TENSOR, ANNOTATED) or v.elems is not None):
                    return None
                label = self.idx.text(a)
                out.append(Mono.sym(Sym(label, ("expr", ast.dump(a)))))
                continue
            out.append(m)
        return out
