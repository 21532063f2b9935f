"""Expression evaluation: the value of each expression node, given the names' values.

:class:`Evaluator` holds the environment of the scope being walked and evaluates
expressions bottom-up, caching each node's :class:`~.values.Value` and passing the
node to the hooks a :class:`~.visitor.Visitor` gives for its class (the engine's
dispatch to the rules).  Binding (assignment targets, unpacking, ``:=`` and
comprehensions) is :mod:`.binding`'s mixin, size arithmetic :mod:`.sizes`'.  What
torch calls, methods, attributes and indexing yield is in :mod:`.torchsem`;
statements and joins are the walker's (:mod:`.flow`).
"""
from __future__ import annotations

import ast
from collections import Counter
from typing import TYPE_CHECKING, Dict, List, Mapping, Optional, Sequence, Set, cast

from ..source import SourceIndex
from . import attributes, attrnarrowing, datasets, literalrows, localdicts, locallists, numpyish, selfmethods
from . import instancemethods, nnclasses, nnmodules, nodeindex, pipelines
from . import torchapi as api
from . import torchsem as sem
from . import funclayouts, listfill, namespaces, tuples, yields
from .binding import Binding
from .narrowing import narrow
from .project import imported_call
from .projectglobals import imported_global
from .callsites import NO_CALLSITES, CallSites
from .sizes import SizeArithmetic
from .subclasses import SubclassCaveats, handed_over
from .summaries import attribute_value
from .symbolic import Mono, Sym
from .elementwise import elementwise_layout, permuted_origin
from .methodlayouts import const_int
from .modulescan import builtin, holds_view, may_retype
from .torchsem import TENSOR_TYPES, is_tensorish
from .triggers import WordsIn
from .values import ANNOTATED, NOT, NOT_VALUE, SUBCLASS, TENSOR, UNKNOWN, UNKNOWN_VALUE, Env, HeldByValue, Value, join
from .visitor import NodeHook

if TYPE_CHECKING:  # pragma: no cover
    from .context import Context

_NAMED_OR_MADE = (ast.Name, ast.Call)  # d["k"] of a name, f()["k"] of a dict a call made
# expressions whose tensor result may take the class of a tensor they are computed from
_ARRAY_INTS = frozenset({"size", "ndim", "itemsize", "nbytes"})  # Python ints of a numpy value
_DERIVED = (ast.Call, ast.BinOp, ast.UnaryOp, ast.Subscript, ast.Attribute, ast.Compare)


def _laid_out(v: Value) -> bool:
    """Something is known of the value's layout (a tensor of unknown kind, say)."""
    return v.sizes is not None or v.open_layout is not None or bool(v.permuted_by)


class Evaluator(Binding, SizeArithmetic, SubclassCaveats):
    """Values of expressions in the current scope (``env``, with ``outer`` behind it)."""

    def __init__(self, source: str, hooks: Mapping[type, Sequence[NodeHook]],
                 words: Optional[Mapping] = None) -> None:
        self.source = source
        self.has: Mapping[str, bool] = WordsIn(source) if words is None else words  # "x" in source, asked once
        self.idx = SourceIndex(source)
        self.hooks = hooks  # node class -> what to call with each node of it (the visitor's)
        self.cache: Dict[int, Value] = {}
        self.env: Env = {}
        self.outer: Env = {}
        self.ctx: Context  # what hooks are called with, set by the walker
        self.reporting = True
        self.evidence: List[str] = []
        self.conditional = 0  # >0 inside code a statement may not run (IfExp arms, `and`/`or`, lambdas)
        self.test_flags: Dict[str, frozenset] = {}  # `is_t = isinstance(x, T)`: is_t -> {x}
        self._expr_handlers = nodeindex.Handlers(type(self), "e_")  # called with the walker
        self.method_of: Optional[ast.ClassDef] = None  # the class of the method being walked
        self.self_value: Optional[Value] = None  # and its first parameter
        self.class_attrs: Dict[int, Mapping[str, bool]] = {}
        self.module_defs = HeldByValue()  # the value a module-level def bound -> def
        self.module_classes = HeldByValue()  # the value a module-level class bound -> it
        self.tensor_returns: Dict[int, Optional[Value]] = {}
        self.attr_stores: Optional[Counter] = None  # stores of each .attr in the module's text
        self.volatile: frozenset = frozenset()  # names that calls may rebind (nonlocal, global)
        self.sites: CallSites = NO_CALLSITES  # calls of closed functions, to record
        self.passed: Dict[int, Dict[str, Value]] = {}  # id(call) -> what it passes each parameter
        self.narrow_caveat = self.subclass_caveat = SUBCLASS  # what narrowing to "tensor" leaves unproven
        self.star_imported = False  # a star import may shadow builtins
        self.walrus: List[str] = []  # names `:=` bound, for scopes that restore the env
        self.path: Optional[str] = None  # the linted file: its imports of its own package are followed
        self.imported_from: Dict[int, tuple] = {}  # id(value) -> (value, level, module, name)
        self.project_imports: Set[str] = set()  # names from imports that may be of the project
        self.callee: Optional[ast.AST] = None  # the callee of the call being evaluated
        self._retypes: Optional[bool] = None  # :attr:`retypes`, scanned for when first asked

    @property
    def retypes(self) -> bool:
        """`t.__class__ = MyT`, setattr(t, "__class__", ...), `torch.Tensor.clone = f`,
        `torch.ones = f`: may any tensor be a subclass, or have methods that are not torch's?
        (The scans read the whole text: only modules where a tensor is met pay for them.)"""
        known = self._retypes
        if known is None:
            known = self._retypes = may_retype(self.source)
        return known

    def lookup(self, name: str) -> Value:
        env, outer = self.env, self.outer  # (``in`` and an index: no call)
        v = env[name] if name in env else None
        if v is None:
            v = outer[name] if name in outer else None
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

    # ------------------------------------------------------------- expressions
    def ev(self, node: ast.AST) -> Value:
        cls = type(node)
        handler = self._expr_handlers[cls]
        if handler is None:
            self._children(node)
            v = UNKNOWN_VALUE
        else:
            v = handler(self, node)
        shape = None
        if cls is ast.Call:
            call = cast(ast.Call, node)
            shape = tuples.tuple_shape(self, call)
            if shape is None:
                pass
            elif shape.torch_function:
                v = Value(TENSOR, permuted_by=v.permuted_by)  # what torch.max(x, 1) holds
            elif v.kind not in (TENSOR, ANNOTATED) and isinstance(call.func, ast.Attribute):
                # x.topk(k) of a tensor x (a shape that is not torch's is a method's)
                v = tuples.method_result(self, shape, self.cache.get(id(call.func.value)) or UNKNOWN_VALUE) or v
        if v.kind == TENSOR and v.caveat is None and cls in _DERIVED:
            v = self.derived_caveat(node, v)
        if v.kind == TENSOR and v.caveat is None and self.retypes:
            v = v.with_(caveat=SUBCLASS)
        if shape is not None and v.kind in (TENSOR, ANNOTATED):
            v = tuples.tuple_result(shape, v)  # x.topk(k), torch.max(x, 1): (values, indices)
        self.cache[id(node)] = v
        hooks = self.hooks[cls] if cls in self.hooks else None
        if hooks and self.reporting:
            for hook in hooks:
                hook(node, self.ctx)
        return v

    def e_Name(self, node):
        if node.id in self.volatile or (self.class_body == namespaces.PREPARED and node.id in self.env):
            return UNKNOWN_VALUE  # a nested function (nonlocal) or any function (global) may rebind it
        v = self.lookup(node.id)
        if node.id in self.project_imports and (read := imported_global(self, node, v)) is not None:
            return read  # a tensor global of another module of the project
        if v.mutable and (v.elems or v.item is not None) and not locallists.list_reads_safe(self, node):
            return v.with_(elems=None, item=None)  # a list that code not followed may store into
        if v.mutable:  # a list inside it may be stored into through it (xs[0][0] = v)
            return locallists.inner_lists_dropped(v, self, node)
        if v.mapped is not None and not locallists.mapping_reads_safe(self, node):
            return v.with_(mapped=None)  # a mapping that code not followed may store into
        return v

    def e_Constant(self, node):
        return NOT_VALUE

    def _children(self, node):
        for child in nodeindex.children(node):
            if isinstance(child, ast.expr):
                self.ev(child)

    def e_JoinedStr(self, node):
        self._children(node)
        return NOT_VALUE

    def e_List(self, node):
        return Value(NOT, elems=tuple(self.ev(e) for e in node.elts), mutable=type(node) is ast.List)

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
        return localdicts.literal(self, node, Value(NOT, permuted_by=origin) if origin else NOT_VALUE)

    def e_Slice(self, node):
        self._children(node)
        return NOT_VALUE

    def e_Starred(self, node):
        self.ev(node.value)
        return UNKNOWN_VALUE

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
        if attr in api.NON_TENSOR_ATTRIBUTES or base.array is not None and attr in _ARRAY_INTS:
            if attr == "shape" and base.sizes is not None:
                return Value(NOT, elems=tuple(Value(NOT, mono=s) for s in base.sizes))
            return NOT_VALUE
        laid = attributes.tensor_attribute(self, node, base)
        if laid is not None:  # x.T, x.mT, x.data
            return laid
        if self.attr_facts and (proven := attrnarrowing.fact(self, node)) is not None:
            return proven  # assert torch.is_tensor(self.mu) above
        if self.self_value is not None and isinstance(node.value, ast.Name) \
                and self.lookup(node.value.id) is self.self_value:
            known = attribute_value(self, attr)  # the class's summary
            if known is not None:
                return known
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
            if isinstance(node.slice, ast.Slice):  # f()[1:]: a tuple or list, never an item
                return Value(NOT, item=base.item) if base.kind == NOT else UNKNOWN_VALUE
            return base.item or UNKNOWN_VALUE
        if base.mapped is not None:
            return base.mapped
        got = localdicts.item(self, node, base) if type(node.value) in _NAMED_OR_MADE and base.kind == NOT else None
        if got is not None:  # d["a"] of a local dict
            return got
        if base.item is not None and (type(node.slice) is ast.Constant or base.mutable and type(node.slice)
                                      is not ast.Slice):
            return listfill.slot(self, node, base) or base.item  # xs[j]: an item by any index
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
            i = const_int(node.slice)
            owner = self.cache.get(id(node.value.value))
            if i is not None and owner is not None and owner.kind != NOT:
                known = sem.known_size(owner, i)
                if known is not None:
                    return Value(NOT, mono=known)
                label = f"{self.idx.text(node.value.value)}.size({i})"
                return Value(NOT, mono=self.asked_dim(label, owner, i, node.value.value))
            return NOT_VALUE
        if is_tensorish(base) or base.kind == UNKNOWN and (base.sizes is not None or base.open_layout is not None):
            return sem.subscript_layout(self, node, base, node.slice, idx)
        return Value(UNKNOWN, permuted_by=base.permuted_by) if base.permuted_by else UNKNOWN_VALUE

    def e_Await(self, node):
        self.ev(node.value)
        return UNKNOWN_VALUE

    # ------------------------------------------------------------------- calls
    def e_Call(self, node):
        self.callee = node.func
        func = self.ev(node.func)
        args = [self.ev(a) for a in node.args]
        for k in node.keywords:
            self.ev(k.value)
        if self.attr_facts:
            attrnarrowing.after_call(self, node)  # it may have stored into self
        closed = self.sites.calls.get(id(node))
        if closed is not None:
            self.record_call(node, closed)
        handed_over(self, node, func)  # helper(t), helper(xs) of xs = [t]: t.__class__ = C there, maybe
        if func.nnmod is not None:  # m(x) of m = nn.Linear(...)
            return nnmodules.output(self, node, func.nnmod, args)
        if self.path is not None:
            found = imported_call(self, node, func)  # a function of another module of the project, or a class
            if found is not None:
                return found
        if func.qualname in ("math.floor", "math.ceil") and len(args) == 1:
            return self.rounded_call(node, ceil=func.qualname == "math.ceil")
        if func.qualname is not None:
            if func.qualname.startswith("numpy."):
                return numpyish.call(self, node, func.qualname, args)
            if func.qualname == "torch.tensor" and args and args[0].kind == NOT and holds_view(self):
                rows = literalrows.rows_tensor(self, node, getattr(self, "tree", None))
                if rows is not None:  # torch.tensor(pairs) of a local list of [i, j] displays
                    return rows
            if func.qualname.startswith("torch.nn."):
                made = nnmodules.instance(self, node, func.qualname)
                if made is not None:
                    return made
            return sem.call_qualname(self, node, func.qualname, args)
        if isinstance(node.func, ast.Attribute):
            recv = self.cache.get(id(node.func.value)) or UNKNOWN_VALUE
            if recv.nnmod is not None and node.func.attr in nnmodules.METHODS:
                return nnmodules.method_call(self, node, recv, args)  # m.to(device), m.forward(x)
            if recv.nnmod is not None and recv.nnmod[:1] == "@":
                made = instancemethods.method_call(self, node, recv.nnmod)  # m.encode(x) of m = Encoder()
                if made is not None:
                    return made
            if recv.array is not None or node.func.attr == "numpy":
                arr = numpyish.method(recv, node, node.func.attr, self)
                if arr is not None:
                    return arr
            elif node.func.attr in ("append", "update") and localdicts.mutated(self, node):
                pass  # xs.append(x), d.update(e) of a name: what the list or the dict holds now
            elif self.self_value is not None and isinstance(node.func.value, ast.Name):
                own = selfmethods.self_method_value(self, node)  # self.m(...): the module's m
                if own is None:
                    own = localdicts.call(self, node, None)  # self.m() returning {...}
                if own is not None:
                    return own
            return sem.call_method(self, node, recv, node.func.attr, args)
        made = funclayouts.module_call(self, node, func, args)  # f(...) of a def of the module
        if made is not None:
            return made
        cls = self.module_classes.get(func)
        made = (datasets.instance(self, cls) or nnclasses.local_instance(self, cls, func)) if cls else None  # its own
        if made is not None:
            return made
        if func.is_class:
            return NOT_VALUE
        if isinstance(node.func, ast.Name) and func is not None and not func.local_def \
                and builtin(self, node.func.id):
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
        now = closed.passed(node, self.cache)
        self.passed[id(node)] = now if seen is None else {
            p: join(v, seen[p]) for p, v in now.items() if p in seen}


