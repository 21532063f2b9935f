"""The one traversal: walks a module's ``ast`` once, tracking what each name holds.

For every scope (module, class body, function) it follows statements in order,
joins the states of ``if``/``try``/loop branches, narrows names on
``isinstance(x, torch.Tensor)`` / ``torch.is_tensor(x)`` (both branches and after
early exits), resolves names through imports, and evaluates each expression to a
:class:`~.values.Value`.  Rules are called on the node types they registered for,
with a :class:`Context` that answers their questions.  Function bodies are walked
after the module body, so imports placed below a function still resolve.
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..finding import Finding, Fix
from ..source import SourceIndex
from . import layout as L
from . import torchapi as api
from .symbolic import ONE, Mono, Sym
from .values import (ANNOTATED, NOT, NOT_VALUE, TENSOR, UNKNOWN, UNKNOWN_VALUE, Value,
                     join, join_kind)

Env = Dict[str, Value]

_DEFAULT_DEVICE_RE = re.compile(r"set_default_device|\bwith\b[^\n:]*\bdevice\(")
_NON_TENSOR_TYPES = frozenset(
    "int float bool str bytes list tuple dict set frozenset complex range slice type".split()
)
_NON_TENSOR_QUALNAMES = frozenset(
    {"numpy.ndarray", "numpy.generic", "numpy.number", "numbers.Number", "numbers.Real",
     "numbers.Integral", "collections.abc.Sequence", "collections.abc.Mapping", "typing.Sequence",
     "torch.Size", "torch.dtype", "torch.device", "torch.nn.Module"}
)
_TENSOR_TYPES = frozenset({"torch.Tensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter"})
# Methods whose effect on sizes and strides is tracked even when the receiver's
# tensor-ness is unknown (a view with sizes is torch's; the kind stays unknown).
_LAYOUT_METHODS = frozenset(
    "transpose swapaxes swapdims permute t movedim moveaxis view reshape contiguous expand "
    "unsqueeze".split()
)
_JIT_DECORATORS = frozenset({"torch.jit.script", "torch.jit.script_method", "torch.jit.export"})


def _is_tensorish(v: Value) -> bool:
    return v.kind in (TENSOR, ANNOTATED)


def _const_int(node: ast.AST) -> Optional[int]:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int):
        return -node.operand.value
    return None


def _dim_size(label: str, tensor: Value, dim: int) -> Mono:
    """The unknown size of dim ``dim`` of ``tensor``: the same symbol wherever it is asked
    for (``b, n = x.shape``, ``x.size(1)``, ``x.shape[1]``), named ``label`` in messages."""
    return Mono.sym(Sym(label, ("dim", tensor.serial, dim)))


class Context:
    """What a rule may ask about the file and the node it is checking."""

    def __init__(self, walker: "FlowWalker") -> None:
        self._w = walker
        self.source = walker.source
        self.options = walker.options

    # --- values -------------------------------------------------------------
    def value(self, node: ast.AST) -> Value:
        return self._w.cache.get(id(node)) or UNKNOWN_VALUE

    def qualname(self, node: ast.AST) -> Optional[str]:
        return self.value(node).qualname

    def tensor_kind(self, node: ast.AST) -> Optional[str]:
        """``"tensor"`` when the data flow proves a tensor, ``"annotated"`` when only a
        trusted annotation does, None otherwise."""
        kind = self.value(node).kind
        if kind == TENSOR:
            return TENSOR
        if kind == ANNOTATED and self.options.trust_annotations:
            return ANNOTATED
        return None

    def is_not_tensor(self, node: ast.AST) -> bool:
        return self.value(node).kind == NOT

    @property
    def fix_blocker(self) -> Optional[str]:
        """Why a fix that relies on ``torch.tensor`` semantics is not exact here, if it isn't."""
        if self._w.in_jit:
            return "inside TorchScript"
        if self._w.default_device:
            return "the module sets a default device"
        return None

    def torch_name(self) -> Optional[str]:
        """A name bound to the ``torch`` module here, for fixes that need ``torch.<fn>``."""
        if self._w.lookup("torch").qualname == "torch":
            return "torch"
        for name, v in list(self._w.env.items()) + list(self._w.outer.items()):
            if v.qualname == "torch":
                return name
        return None

    # --- text ---------------------------------------------------------------
    def start(self, node: ast.AST) -> int:
        return self._w.idx.start(node)

    def end(self, node: ast.AST) -> int:
        return self._w.idx.end(node)

    def text(self, node: ast.AST) -> str:
        return self._w.idx.text(node)

    def atom_text(self, node: ast.AST) -> str:
        """The node's text, parenthesized unless it binds tighter than ``.attr``."""
        text = self.text(node)
        if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.List,
                             ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.Constant)):
            if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex)):
                return f"({text})"
            if isinstance(node, ast.Tuple) and not text.startswith("("):
                return f"({text})"
            return text
        return f"({text})"

    def name_span(self, attr: ast.Attribute) -> Tuple[int, int]:
        """Offsets of the attribute name in ``value.name``."""
        end = self.end(attr)
        return end - len(attr.attr), end

    def args_span(self, call: ast.Call) -> Tuple[int, int]:
        """Offsets of ``(...)`` of a call (from the end of the callee to the end of the call)."""
        return self.end(call.func), self.end(call)

    # --- reporting ----------------------------------------------------------
    def report(self, code: str, node: ast.AST, message: str, fix: Optional[Fix] = None) -> None:
        self._w.add(code, node, message, fix)


class FlowWalker:
    def __init__(self, source: str, tree: ast.AST, rules: Sequence, options) -> None:
        self.source = source
        self.triggers = self.trigger_groups(source, tree, rules)
        self.tree = tree
        self.options = options
        self.idx = SourceIndex(source)
        self.dispatch: Dict[type, List] = {}
        for rule in rules:
            for t in rule.node_types:
                self.dispatch.setdefault(t, []).append(rule)
        self.ctx = Context(self)
        self.findings: Dict[Tuple[int, int, str], Finding] = {}
        self.cache: Dict[int, Value] = {}
        self.env: Env = {}
        self.outer: Env = {}
        self.reporting = True
        self.in_jit = False
        self.deferred: List[Tuple[ast.AST, Env, bool]] = []
        self.loops: List[Dict[str, List[Env]]] = []
        self.evidence: List[str] = []
        self.conditional = 0  # >0 inside code a statement may not run (IfExp arms, `and`/`or`, lambdas)
        self.stmt_range = (0, 0)
        self._default_device: Optional[bool] = None
        self._stmt_handlers: Dict[type, Optional[Callable]] = {}
        self._expr_handlers: Dict[type, Optional[Callable]] = {}

    # ------------------------------------------------------------------ driver
    def run(self) -> List[Finding]:
        self.block(self.tree.body)  # type: ignore[attr-defined]
        while self.deferred:
            func, outer, jit = self.deferred.pop(0)
            self.function(func, outer, jit)
        return list(self.findings.values())

    def add(self, code: str, node: ast.AST, message: str, fix: Optional[Fix]) -> None:
        if not self.reporting:
            return
        line = node.lineno  # type: ignore[attr-defined]
        col = self.idx.char_col(line, node.col_offset)  # type: ignore[attr-defined]
        end_line = node.end_lineno  # type: ignore[attr-defined]
        end_col = self.idx.char_col(end_line, node.end_col_offset)  # type: ignore[attr-defined]
        key = (line, col, code)
        self.findings[key] = Finding(code, message, line, col, end_line, end_col, fix,
                                     stmt_lines=self.stmt_range)

    @property
    def default_device(self) -> bool:
        """Does the module set a default device?  Asked only when a fix is being made."""
        if self._default_device is None:
            self._default_device = ("device" in self.source
                                    and bool(_DEFAULT_DEVICE_RE.search(self.source)))
        return self._default_device

    def lookup(self, name: str) -> Value:
        v = self.env.get(name)
        if v is None:
            v = self.outer.get(name)
        return v if v is not None else UNKNOWN_VALUE

    @staticmethod
    def trigger_groups(source: str, tree: ast.AST, rules: Sequence) -> List[Tuple[str, ...]]:
        """Word groups of which one must be in a function's text for any rule to match there.

        Names imported under an alias (``from torch import tensor as T``) are added as
        groups of their own, so an aliased call still gets its function analysed.
        """
        groups = [tuple(g) for r in rules for g in (r.function_triggers or r.triggers)]
        if " as " in source:
            for node in tree.body:  # type: ignore[attr-defined]
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    groups.extend((a.asname,) for a in node.names if a.asname)
        return groups

    def may_match(self, node: ast.AST) -> bool:
        """Cheap text check: can any rule match inside this function?"""
        starts = self.idx._starts
        first = node.lineno - 1  # type: ignore[attr-defined]
        last = node.end_lineno  # type: ignore[attr-defined]
        text = self.source[starts[first]:starts[last] if last < len(starts) else len(self.source)]
        return any(all(t in text for t in g) for g in self.triggers)

    # -------------------------------------------------------------- functions
    def function(self, func, outer: Env, jit: bool) -> None:
        if not self.may_match(func):
            return  # nothing in its text can match: its body (and nested defs) cost nothing
        self.outer = outer
        self.env = {}
        self.in_jit = jit
        args = func.args
        params = args.posonlyargs + args.args + args.kwonlyargs
        for a in params:
            self.env[a.arg] = self.param_value(a.annotation)
        for a in (args.vararg, args.kwarg):
            if a is not None:
                self.env[a.arg] = NOT_VALUE
        self.loops = []
        self.block(func.body)

    def param_value(self, annotation: Optional[ast.AST]) -> Value:
        if annotation is not None and self.is_tensor_annotation(annotation):
            return Value(ANNOTATED)
        return Value(UNKNOWN)

    def is_tensor_annotation(self, ann: ast.AST) -> bool:
        if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
            try:
                ann = ast.parse(ann.value, mode="eval").body
            except SyntaxError:
                return False
        return self.static_qualname(ann) in _TENSOR_TYPES

    def static_qualname(self, node: ast.AST) -> Optional[str]:
        """Qualified name of a dotted name without evaluating (for annotations, types)."""
        if isinstance(node, ast.Name):
            return self.lookup(node.id).qualname
        if isinstance(node, ast.Attribute):
            base = self.static_qualname(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def scope_outer(self) -> Env:
        """Bindings a nested scope can see: imports and local definitions only."""
        out = {k: v for k, v in self.outer.items()}
        for k, v in self.env.items():
            if v.qualname is not None or v.local_def:
                out[k] = v
            else:
                out.pop(k, None)
        return out

    def _handler(self, table: Dict[type, Optional[Callable]], prefix: str, cls: type):
        """The ``s_``/``e_`` method for a node class, looked up once per class."""
        try:
            return table[cls]
        except KeyError:
            handler = table[cls] = getattr(self, prefix + cls.__name__, None)
            return handler

    # ------------------------------------------------------------- statements
    def block(self, stmts: Sequence[ast.stmt]) -> bool:
        for s in stmts:
            if self.stmt(s):
                return True
        return False

    def stmt(self, s: ast.stmt) -> bool:
        self.stmt_range = (s.lineno, s.end_lineno or s.lineno)
        handler = self._handler(self._stmt_handlers, "s_", type(s))
        if handler is None:
            self._children(s)
            return False
        result = handler(s)
        if self.evidence:
            for name in self.evidence:
                v = self.env.get(name)
                if v is not None and v.kind in (UNKNOWN, ANNOTATED):
                    self.env[name] = v.with_(kind=TENSOR)
            self.evidence = []
        return bool(result)

    def header(self, s: ast.stmt, node: ast.AST) -> None:
        self.stmt_range = (s.lineno, node.end_lineno or s.lineno)  # type: ignore[attr-defined]

    def s_Expr(self, s):
        self.ev(s.value)

    def s_Assign(self, s):
        v = self.ev(s.value)
        for t in s.targets:
            self.bind(t, v, s.value)

    def s_AnnAssign(self, s):
        if s.value is None:
            return
        v = self.ev(s.value)
        if v.kind == UNKNOWN and self.is_tensor_annotation(s.annotation):
            v = v.with_(kind=ANNOTATED)
        self.bind(s.target, v, s.value)

    def s_AugAssign(self, s):
        rhs = self.ev(s.value)
        if isinstance(s.target, ast.Name):
            cur = self.lookup(s.target.id)
            self.env[s.target.id] = self.binop(s.op, cur, rhs, inplace=True, nodes=(s.target, s.value))
        else:
            self.ev_target(s.target)

    def s_Import(self, s):
        for a in s.names:
            if a.asname:
                self.env[a.asname] = Value(qualname=a.name)
            else:
                top = a.name.split(".")[0]
                self.env[top] = Value(qualname=top)

    def s_ImportFrom(self, s):
        for a in s.names:
            name = a.asname or a.name
            if s.level or a.name == "*":
                if a.name != "*":
                    self.env[name] = Value(local_def=True)
                continue
            self.env[name] = Value(qualname=f"{s.module}.{a.name}")

    def s_FunctionDef(self, s):
        jit = self.in_jit
        for d in s.decorator_list:
            self.ev(d)
            target = d.func if isinstance(d, ast.Call) else d
            if self.static_qualname(target) in _JIT_DECORATORS:
                jit = True
        for d in s.args.defaults + [d for d in s.args.kw_defaults if d is not None]:
            self.ev(d)
        self.env[s.name] = Value(local_def=True)
        self.deferred.append((s, self.scope_outer(), jit))

    s_AsyncFunctionDef = s_FunctionDef

    def s_ClassDef(self, s):
        for n in s.decorator_list + s.bases + [k.value for k in s.keywords]:
            self.ev(n)
        saved_env, saved_outer, saved_loops = self.env, self.outer, self.loops
        self.outer = self.scope_outer()
        self.env, self.loops = {}, []
        self.block(s.body)
        # methods see the module scope, not the class body
        for i, (func, outer, jit) in enumerate(self.deferred):
            if outer is not None and any(func is b for b in s.body):
                self.deferred[i] = (func, self.outer, jit)
        self.env, self.outer, self.loops = saved_env, saved_outer, saved_loops
        torch_base = any((self.static_qualname(b) or "").startswith("torch") for b in s.bases)
        self.env[s.name] = Value(local_def=True, is_class=not torch_base)

    def s_Return(self, s):
        if s.value is not None:
            self.ev(s.value)
        return True

    def s_Raise(self, s):
        for n in (s.exc, s.cause):
            if n is not None:
                self.ev(n)
        return True

    def s_Break(self, s):
        if self.loops:
            self.loops[-1]["breaks"].append(dict(self.env))
        return True

    def s_Continue(self, s):
        if self.loops:
            self.loops[-1]["continues"].append(dict(self.env))
        return True

    def s_Delete(self, s):
        for t in s.targets:
            if isinstance(t, ast.Name):
                self.env[t.id] = UNKNOWN_VALUE
            else:
                self.ev_target(t)

    def s_Global(self, s):
        for n in s.names:
            self.env[n] = UNKNOWN_VALUE

    s_Nonlocal = s_Global

    def s_Assert(self, s):
        self.ev(s.test)
        if s.msg is not None:
            self.ev(s.msg)
        yes, _ = self.narrow(s.test)
        self.apply(self.env, yes)

    def s_If(self, s):
        self.header(s, s.test)
        self.ev(s.test)
        yes, no = self.narrow(s.test)
        entry = self.env
        self.env = self.apply(dict(entry), yes)
        t_end = self.block(s.body)
        env_t = self.env
        self.env = self.apply(dict(entry), no)
        f_end = self.block(s.orelse)
        env_f = self.env
        return self.merge([(env_t, t_end), (env_f, f_end)])

    def s_With(self, s):
        self.header(s, s.items[-1].context_expr)
        for item in s.items:
            self.ev(item.context_expr)
            if item.optional_vars is not None:
                self.bind(item.optional_vars, UNKNOWN_VALUE, None)
        return self.block(s.body)

    s_AsyncWith = s_With

    def s_For(self, s):
        self.header(s, s.iter)
        it = self.ev(s.iter)
        elem = self.element_of(it)
        return self.loop(s, lambda: self.bind(s.target, elem, None))

    s_AsyncFor = s_For

    def s_While(self, s):
        self.header(s, s.test)
        self.ev(s.test)
        return self.loop(s, lambda: self.apply(self.env, self.narrow(s.test)[0]))

    def loop(self, s, enter: Callable[[], object]) -> bool:
        entry = dict(self.env)
        # first pass, silent: what the body changes flows back to its start
        saved = self.reporting
        self.reporting = False
        self.loops.append({"breaks": [], "continues": []})
        enter()
        end1 = self.block(s.body)
        ctl = self.loops.pop()
        self.reporting = saved
        head = self.join_envs([entry] + ([] if end1 else [self.env]) + ctl["continues"])
        # second pass, reporting, from the joined state
        self.env = dict(head)
        self.loops.append({"breaks": [], "continues": []})
        enter()
        end2 = self.block(s.body)
        ctl = self.loops.pop()
        after = self.join_envs([head] + ([] if end2 else [self.env]) + ctl["continues"])
        self.env = dict(after)
        if s.orelse:
            else_end = self.block(s.orelse)
            exits = ([] if else_end else [self.env]) + ctl["breaks"]
        else:
            exits = [after] + ctl["breaks"]
        if not exits:
            return True
        self.env = self.join_envs(exits)
        return False

    def s_Try(self, s):
        entry = dict(self.env)
        body_end = self.block(s.body)
        body_env = self.env
        handler_entry = self.join_envs([entry, body_env])
        ends: List[Tuple[Env, bool]] = []
        for h in s.handlers:
            self.env = dict(handler_entry)
            if h.type is not None:
                self.ev(h.type)
            if h.name:
                self.env[h.name] = NOT_VALUE
            ends.append((self.env, self.block(h.body)))
        self.env = body_env
        if not body_end and s.orelse:
            body_end = self.block(s.orelse)
        ends.insert(0, (self.env, body_end))
        terminated = self.merge(ends)
        if s.finalbody:
            if terminated:
                self.env = handler_entry
            terminated = self.block(s.finalbody) or terminated
        return terminated

    s_TryStar = s_Try

    def s_Match(self, s):
        self.ev(s.subject)
        entry = self.env
        ends = []
        for case in s.cases:
            self.env = dict(entry)
            for node in ast.walk(case.pattern):
                for attr in ("name", "rest"):
                    name = getattr(node, attr, None)
                    if isinstance(name, str):
                        self.env[name] = UNKNOWN_VALUE
            if case.guard is not None:
                self.ev(case.guard)
            ends.append((self.env, self.block(case.body)))
        ends.append((entry, False))
        return self.merge(ends)

    # ------------------------------------------------------------- env helpers
    @staticmethod
    def join_envs(envs: Sequence[Env]) -> Env:
        if not envs:
            return {}
        out = dict(envs[0])
        for e in envs[1:]:
            for k, v in e.items():
                cur = out.get(k)
                out[k] = v if cur is None else join(cur, v)
        return out

    def merge(self, ends: Sequence[Tuple[Env, bool]]) -> bool:
        live = [e for e, term in ends if not term]
        if not live:
            self.env = ends[0][0]
            return True
        self.env = self.join_envs(live)
        return False

    def apply(self, env: Env, updates: Dict[str, str]) -> Env:
        for name, kind in updates.items():
            cur = env.get(name) or self.outer.get(name) or UNKNOWN_VALUE
            if cur.qualname is not None:
                continue
            env[name] = cur.with_(kind=kind) if kind != UNKNOWN else Value(UNKNOWN)
        return env

    # --------------------------------------------------------------- narrowing
    def narrow(self, test: ast.AST) -> Tuple[Dict[str, str], Dict[str, str]]:
        """Kinds that hold for names when ``test`` is true, and when it is false."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            yes, no = self.narrow(test.operand)
            return no, yes
        if isinstance(test, ast.BoolOp):
            parts = [self.narrow(v) for v in test.values]
            if isinstance(test.op, ast.And):
                yes: Dict[str, str] = {}
                for y, _ in parts:
                    yes.update(y)
                return yes, (parts[0][1] if len(parts) == 1 else {})
            no: Dict[str, str] = {}
            for _, n in parts:
                no.update(n)
            return {}, no
        if isinstance(test, ast.Call) and len(test.args) == 2 and not test.keywords:
            is_isinstance = isinstance(test.func, ast.Name) and test.func.id == "isinstance" \
                and "isinstance" not in self.env
            if is_isinstance and isinstance(test.args[0], ast.Name):
                return self.narrow_isinstance(test.args[0].id, test.args[1])
        if isinstance(test, ast.Call) and len(test.args) == 1 and isinstance(test.args[0], ast.Name):
            if self.static_qualname(test.func) == "torch.is_tensor":
                name = test.args[0].id
                return {name: TENSOR}, {name: NOT}
        if (isinstance(test, ast.Compare) and len(test.ops) == 1
                and isinstance(test.ops[0], (ast.Is, ast.Eq))
                and isinstance(test.left, ast.Call) and isinstance(test.left.func, ast.Name)
                and test.left.func.id == "type" and len(test.left.args) == 1
                and isinstance(test.left.args[0], ast.Name)):
            yes, _ = self.narrow_isinstance(test.left.args[0].id, test.comparators[0])
            return yes, {}
        if (isinstance(test, ast.Compare) and len(test.ops) == 1
                and isinstance(test.left, ast.Name)
                and isinstance(test.comparators[0], ast.Constant)
                and test.comparators[0].value is None):
            name = test.left.id
            if isinstance(test.ops[0], ast.Is):
                return {name: NOT}, {}
            if isinstance(test.ops[0], ast.IsNot):
                return {}, {name: NOT}
        return {}, {}

    def narrow_isinstance(self, name: str, types: ast.AST):
        elts = types.elts if isinstance(types, ast.Tuple) else [types]
        verdicts = []
        for t in elts:
            if isinstance(t, ast.Name) and t.id in _NON_TENSOR_TYPES and t.id not in self.env:
                verdicts.append(NOT)
                continue
            q = self.static_qualname(t)
            if q in _TENSOR_TYPES:
                verdicts.append(TENSOR)
            elif q in _NON_TENSOR_QUALNAMES:
                verdicts.append(NOT)
            else:
                verdicts.append(UNKNOWN)
        if all(v == TENSOR for v in verdicts):
            return {name: TENSOR}, {name: NOT}
        if TENSOR in verdicts:
            return {name: UNKNOWN}, {name: NOT}
        if all(v == NOT for v in verdicts):
            return {name: NOT}, {}
        return {}, {}

    # ----------------------------------------------------------------- binding
    def bind(self, target: ast.AST, v: Value, value_node: Optional[ast.AST]) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = v
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            names = target.elts
            if any(isinstance(e, ast.Starred) for e in names):
                for e in names:
                    self.bind(e.value if isinstance(e, ast.Starred) else e, UNKNOWN_VALUE, None)
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
        monos = []
        for n in names:
            named = isinstance(n, ast.Name) and n.id.strip("_")
            label = n.id if named else f"{base.id}.size({len(monos)})"  # type: ignore[union-attr]
            monos.append(_dim_size(label, tv, len(monos)))
        sizes = tuple(monos)
        strides = L.contiguous_strides(sizes) if tv.permuted_by is None else None
        self.env[base.id] = tv.with_(sizes=sizes, strides=strides)
        return tuple(Value(NOT, mono=m) for m in monos)

    def element_of(self, v: Value) -> Value:
        if _is_tensorish(v):
            if v.sizes:
                return self.index_layout(v, 1)
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
        self.cache[id(node)] = v
        rules = self.dispatch.get(cls)
        if rules and self.reporting:
            for rule in rules:
                rule.check(node, self.ctx)
        return v

    def e_Name(self, node):
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

    e_Dict = e_Set

    def e_Slice(self, node):
        self._children(node)
        return NOT_VALUE

    def e_Starred(self, node):
        self.ev(node.value)
        return UNKNOWN_VALUE

    def e_NamedExpr(self, node):
        v = self.ev(node.value)
        self.bind(node.target, v, node.value)
        return v

    def e_Lambda(self, node):
        for d in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.ev(d)
        saved = self.env
        self.env = dict(saved)
        self.conditional += 1
        a = node.args
        for p in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
            self.env[p.arg] = Value(UNKNOWN)
        self.ev(node.body)
        self.conditional -= 1
        self.env = saved
        return Value(UNKNOWN, local_def=True)

    def comprehension(self, node, parts: Sequence[ast.AST]) -> None:
        saved = self.env
        self.env = dict(saved)
        self.conditional += 1
        for gen in node.generators:
            it = self.ev(gen.iter)
            self.bind(gen.target, self.element_of(it), None)
            for cond in gen.ifs:
                self.ev(cond)
                self.apply(self.env, self.narrow(cond)[0])
        for p in parts:
            self.ev(p)
        self.conditional -= 1
        self.env = saved

    def e_ListComp(self, node):
        self.comprehension(node, [node.elt])
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
        yes, no = self.narrow(node.test)
        saved = self.env
        self.conditional += 1
        self.env = self.apply(dict(saved), yes)
        a = self.ev(node.body)
        self.env = self.apply(dict(saved), no)
        b = self.ev(node.orelse)
        self.conditional -= 1
        self.env = saved
        return join(a, b)

    def e_BoolOp(self, node):
        saved = self.env
        self.env = dict(saved)
        vals = []
        for k, v in enumerate(node.values):
            self.conditional += k > 0
            vals.append(self.ev(v))
            self.conditional -= k > 0
            yes, no = self.narrow(v)
            self.apply(self.env, yes if isinstance(node.op, ast.And) else no)
        self.env = saved
        out = vals[0]
        for v in vals[1:]:
            out = join(out, v)
        return out

    def e_Compare(self, node):
        vals = [self.ev(node.left)] + [self.ev(c) for c in node.comparators]
        if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
            return NOT_VALUE
        if any(v.kind == TENSOR for v in vals):
            return Value(TENSOR)
        if all(v.kind == NOT for v in vals):
            return NOT_VALUE
        return UNKNOWN_VALUE

    def e_UnaryOp(self, node):
        v = self.ev(node.operand)
        if isinstance(node.op, ast.Not):
            return NOT_VALUE
        if _is_tensorish(v):
            return v.with_(mono=None)
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
        if isinstance(op, ast.MatMult):
            kinds = (left.kind, right.kind)
            kind = TENSOR if TENSOR in kinds else ANNOTATED if ANNOTATED in kinds else UNKNOWN
            sizes = self.matmul_sizes(left, right) if NOT not in kinds else None
            if kind == UNKNOWN and sizes is None:
                return UNKNOWN_VALUE
            return Value(kind, sizes=sizes, strides=L.contiguous_strides(sizes) if sizes else None)
        lt, rt = _is_tensorish(left), _is_tensorish(right)
        if lt or rt:
            kind = TENSOR if TENSOR in (left.kind, right.kind) else ANNOTATED
            t, other = (left, right) if lt else (right, left)
            taint = left.permuted_by or right.permuted_by
            if lt and rt:
                if left.sizes is not None and left.sizes == right.sizes:
                    same = left.strides == right.strides and left.strides is not None \
                        and L.is_dense(left.sizes, left.strides)
                    return Value(kind, sizes=left.sizes, strides=left.strides if same else None,
                                 permuted_by=taint)
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
        if left.kind == NOT and right.kind == NOT:
            return Value(NOT, mono=mono)
        if mono is not None and not isinstance(op, ast.Div):
            # sizes held in names of unknown kind (parameters): keep the algebra
            return Value(UNKNOWN, mono=mono)
        return UNKNOWN_VALUE

    def matmul_sizes(self, a: Value, b: Value):
        if not a.sizes or not b.sizes or len(a.sizes) < 2 or len(b.sizes) < 2:
            return None
        ba, bb = a.sizes[:-2], b.sizes[:-2]
        if ba and bb and ba != bb:
            return None
        batch = ba if len(ba) >= len(bb) else bb
        return tuple(batch) + (a.sizes[-2], b.sizes[-1])

    def e_Attribute(self, node):
        base = self.ev(node.value)
        attr = node.attr
        if base.qualname is not None:
            q = f"{base.qualname}.{attr}"
            if base.qualname == "torch" and attr in api.NON_TENSOR_TORCH_ATTRIBUTES:
                return Value(NOT, qualname=q)
            return Value(qualname=q)
        if attr in api.NON_TENSOR_ATTRIBUTES:
            if attr == "shape" and base.sizes is not None:
                return Value(NOT, elems=tuple(Value(NOT, mono=s) for s in base.sizes))
            return NOT_VALUE
        if _is_tensorish(base) and attr in api.TENSOR_ATTRIBUTES:
            return self.attribute_layout(base, attr)
        if base.kind == UNKNOWN and base.sizes is not None and attr in ("T", "mT", "mH", "H"):
            return self.attribute_layout(base, attr)
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            return Value(UNKNOWN, mono=Mono.sym(Sym(f"{node.value.id}.{attr}", "attr")))
        return UNKNOWN_VALUE

    def attribute_layout(self, base: Value, attr: str) -> Value:
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
        return Value(base.kind, sizes=res[0], strides=res[1], permuted_by="." + attr)

    def e_Subscript(self, node):
        base = self.ev(node.value)
        idx = self.ev(node.slice)
        if base.elems is not None:
            i = _const_int(node.slice)
            if i is not None and -len(base.elems) <= i < len(base.elems):
                return base.elems[i]
            return UNKNOWN_VALUE
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
            i = _const_int(node.slice)
            owner = self.cache.get(id(node.value.value))
            if i is not None and owner is not None and owner.kind != NOT:
                label = f"{self.idx.text(node.value.value)}.size({i})"
                return Value(NOT, mono=_dim_size(label, owner, i))
            return NOT_VALUE
        if _is_tensorish(base) or base.kind == UNKNOWN and base.sizes is not None:
            return self.subscript_layout(base, node.slice, idx)
        return UNKNOWN_VALUE

    def subscript_layout(self, base: Value, sl: ast.AST, idx: Value) -> Value:
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
            v = self.cache.get(id(it))
            if _const_int(it) is not None or (v is not None and v.kind == NOT and self.mono_of(it, v) is not None):
                k += 1
                continue
            return Value(base.kind)
        out_s.extend(sizes[k:])
        out_st.extend(strides[k:])
        return Value(base.kind, sizes=tuple(out_s), strides=tuple(out_st),
                     permuted_by=base.permuted_by)

    def index_layout(self, base: Value, n: int) -> Value:
        if base.sizes is None or base.strides is None or len(base.sizes) < n:
            return Value(base.kind)
        return Value(base.kind, sizes=base.sizes[n:], strides=base.strides[n:],
                     permuted_by=base.permuted_by)

    def e_Await(self, node):
        self.ev(node.value)
        return UNKNOWN_VALUE

    # ------------------------------------------------------------------- calls
    def e_Call(self, node):
        func = self.ev(node.func)
        args = [self.ev(a) for a in node.args]
        for k in node.keywords:
            self.ev(k.value)
        if func.qualname is not None:
            return self.call_qualname(node, func.qualname, args)
        if isinstance(node.func, ast.Attribute):
            recv = self.cache.get(id(node.func.value)) or UNKNOWN_VALUE
            return self.call_method(node, recv, node.func.attr, args)
        if func.is_class:
            return NOT_VALUE
        if isinstance(node.func, ast.Name) and func is not None and not func.local_def \
                and node.func.id not in self.env and node.func.id not in self.outer:
            name = node.func.id
            if name == "int" and len(args) == 1 and self.mono_of(node.args[0], args[0]) is not None:
                return Value(NOT, mono=self.mono_of(node.args[0], args[0]))
            if name in api.NON_TENSOR_BUILTINS:
                return NOT_VALUE
        return UNKNOWN_VALUE

    def call_qualname(self, node, q: str, args: List[Value]) -> Value:
        if q.startswith("numpy.") or q.startswith("math."):
            return NOT_VALUE
        if not q.startswith("torch."):
            return UNKNOWN_VALUE
        name = q[6:]
        if name in api.NON_TENSOR_TORCH_FUNCTIONS or name.startswith("cuda.") or q in _NON_TENSOR_QUALNAMES:
            return NOT_VALUE
        if name in ("nn.Parameter", "nn.parameter.Parameter", "nn.Buffer"):
            return Value(TENSOR)
        if name == "nn.functional.unfold":
            return self.unfold_layout(node, args)
        if name.startswith("nn.functional."):
            return Value(TENSOR) if name[14:] in api.FUNCTIONAL_TENSOR_FUNCTIONS else UNKNOWN_VALUE
        if name in api.TENSOR_FUNCTIONS:
            return self.torch_function_layout(node, name, args)
        return UNKNOWN_VALUE

    def torch_function_layout(self, node, name: str, args: List[Value]) -> Value:
        if name in api.SIZE_FACTORIES:
            sizes = self.size_args(node.args)
            if sizes is not None and all(s is not None for s in sizes):
                return Value(TENSOR, sizes=tuple(sizes), strides=L.contiguous_strides(sizes))  # type: ignore[arg-type]
            return Value(TENSOR)
        if name in ("matmul", "mm", "bmm") and len(args) == 2:
            return self.binop(ast.MatMult(), args[0], args[1])
        if name in ("transpose", "swapaxes", "swapdims", "permute", "movedim", "moveaxis", "t") \
                and args and _is_tensorish(args[0]):
            return self.method_layout(node, args[0], name, node.args[1:], node.args[0])
        if name.endswith("_like") and args and args[0].sizes is not None and len(node.args) == 1 \
                and not node.keywords:
            a = args[0]
            dense = a.strides is not None and L.is_dense(a.sizes, a.strides)
            return Value(TENSOR, sizes=a.sizes, strides=a.strides if dense else None,
                         permuted_by=a.permuted_by if dense else None)
        return Value(TENSOR)

    def unfold_layout(self, node: ast.Call, args: List[Value]) -> Value:
        """``F.unfold(x [N, C, H, W], kernel_size)`` is ``[N, C * kh * kw, L]``, contiguous."""
        x = args[0] if args else None
        kernel = node.args[1] if len(node.args) > 1 else next(
            (k.value for k in node.keywords if k.arg == "kernel_size"), None)
        if x is None or x.sizes is None or len(x.sizes) != 4 or kernel is None:
            return Value(TENSOR)
        elts = kernel.elts if isinstance(kernel, (ast.Tuple, ast.List)) else [kernel, kernel]
        ks = [self.mono_of(e, self.cache.get(id(e)) or UNKNOWN_VALUE) for e in elts]
        if len(ks) != 2 or None in ks or x.sizes[1] is None:
            return Value(TENSOR)
        blocks = Mono.sym(Sym(f"{self.idx.text(node.func)}(...).size(2)", ("unfold", id(node))))
        sizes = (x.sizes[0], x.sizes[1] * ks[0] * ks[1], blocks)  # type: ignore[operator]
        if sizes[0] is None:
            return Value(TENSOR)
        return Value(TENSOR, sizes=sizes, strides=L.contiguous_strides(sizes))

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
            c = _const_int(a)
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

    def call_method(self, node, recv: Value, m: str, args: List[Value]) -> Value:
        if m in api.TENSOR_ONLY_METHODS and isinstance(node.func.value, ast.Name) \
                and recv.kind in (UNKNOWN, ANNOTATED) and recv.qualname is None:
            if not self.conditional:  # evidence only from calls that certainly ran
                self.evidence.append(node.func.value.id)
            if recv.kind == UNKNOWN:
                recv = recv.with_(kind=TENSOR)
        elif m in api.TENSOR_ONLY_METHODS and recv.kind == UNKNOWN and recv.qualname is None \
                and not recv.local_def:
            recv = recv.with_(kind=TENSOR)
        if m == "to" and recv.kind == UNKNOWN and recv.qualname is None and self.to_non_float(node):
            recv = recv.with_(kind=TENSOR)
        if m in api.NON_TENSOR_METHODS:
            if m == "size" and _is_tensorish(recv) or m == "size" and recv.kind == UNKNOWN:
                return self.size_call(node, recv)
            return NOT_VALUE
        if not _is_tensorish(recv):
            if recv.kind == UNKNOWN and recv.qualname is None and not recv.local_def \
                    and (m in _LAYOUT_METHODS or recv.sizes is not None and m in api.TENSOR_METHODS):
                return self.method_layout(node, recv, m, node.args, node.func.value)
            return UNKNOWN_VALUE
        if m == "unbind":
            dim = _const_int(node.args[0]) if node.args else 0
            if recv.sizes is not None and dim is not None:
                res = L.movedim(recv.sizes, recv.strides, dim, 0) if recv.strides else None
                if res is not None:
                    moved = Value(recv.kind, sizes=res[0], strides=res[1], permuted_by=recv.permuted_by)
                    each = self.index_layout(moved, 1)
                    n = res[0][0]
                    count = int(n.coef) if not n.powers and n.coef.denominator == 1 else None
                    if count is not None and 0 < count <= 16:
                        return Value(NOT, elems=(each,) * count)
            return UNKNOWN_VALUE
        if m in ("min", "max") and not node.args and not node.keywords:
            return Value(recv.kind)
        if m not in api.TENSOR_METHODS:
            return UNKNOWN_VALUE
        return self.method_layout(node, recv, m, node.args, node.func.value)

    def to_non_float(self, node: ast.Call) -> bool:
        """``.to(torch.int32)`` / ``.to(dtype=torch.long)``: only a tensor accepts that."""
        cands = list(node.args[:1]) + [k.value for k in node.keywords if k.arg == "dtype"]
        for c in cands:
            q = self.static_qualname(c)
            if q is not None and q.startswith("torch.") and q[6:] in api.NON_FLOAT_DTYPES:
                return True
        return False

    def size_call(self, node, recv: Value) -> Value:
        if node.args:
            i = _const_int(node.args[0])
            if i is not None and recv.sizes is not None:
                d = L.normalize_dim(i, len(recv.sizes))
                if d is not None and recv.sizes[d] is not None:
                    return Value(NOT, mono=recv.sizes[d])
            if i is not None:
                label = f"{self.idx.text(node.func.value)}.size({i})"
                return Value(NOT, mono=_dim_size(label, recv, i))
            return NOT_VALUE
        if recv.sizes is not None:
            return Value(NOT, elems=tuple(Value(NOT, mono=s) for s in recv.sizes))
        return NOT_VALUE

    def method_layout(self, node, recv: Value, m: str, arg_nodes: Sequence[ast.AST],
                      recv_node: ast.AST) -> Value:
        kind = recv.kind
        sizes, strides = recv.sizes, recv.strides
        taint = recv.permuted_by
        if sizes is not None and strides is None and taint is None:
            strides = L.contiguous_strides(sizes)  # untouched tensors are assumed contiguous
        plain = Value(kind, permuted_by=taint)
        ints = [_const_int(a) for a in arg_nodes]
        label = "." + m + "(" + ", ".join(self.idx.text(a) for a in arg_nodes) + ")"
        if m in ("transpose", "swapaxes", "swapdims", "movedim", "moveaxis", "permute", "t",
                 "transpose_", "t_"):
            rank = None
            if m in ("t", "t_"):
                rank = 2
            elif m == "permute":
                seq = arg_nodes[0].elts if len(arg_nodes) == 1 and isinstance(arg_nodes[0], (ast.Tuple, ast.List)) else arg_nodes
                rank = len(seq) if all(_const_int(a) is not None for a in seq) else None
            if rank and sizes is None and taint is None:
                text = self.idx.text(recv_node)
                sizes = tuple(_dim_size(f"{text}.size({i})", recv, i) for i in range(rank))
                strides = L.contiguous_strides(sizes)
            if sizes is None or strides is None or None in ints and m != "permute":
                return Value(kind, permuted_by=label)
            res = None
            if m in ("t", "t_"):
                res = L.swap(sizes, strides, 0, 1) if len(sizes) == 2 else (sizes, strides)
            elif m in ("permute",):
                order = ints
                if len(arg_nodes) == 1 and isinstance(arg_nodes[0], (ast.Tuple, ast.List)):
                    order = [_const_int(a) for a in arg_nodes[0].elts]
                if None not in order:
                    res = L.permute(sizes, strides, order)  # type: ignore[arg-type]
            elif m in ("movedim", "moveaxis") and len(ints) == 2:
                res = L.movedim(sizes, strides, ints[0], ints[1])  # type: ignore[arg-type]
            elif len(ints) == 2:
                res = L.swap(sizes, strides, ints[0], ints[1])  # type: ignore[arg-type]
            if res is None:
                return Value(kind, permuted_by=label)
            return Value(kind, sizes=res[0], strides=res[1], permuted_by=label)
        if m == "contiguous":
            if sizes is not None:
                return Value(kind, sizes=sizes, strides=L.contiguous_strides(sizes))
            return plain
        if m in ("expand",):
            target = self.size_args(arg_nodes)
            if sizes is None or strides is None or target is None:
                return Value(kind, permuted_by=label)
            res = L.expand(sizes, strides, target)
            if res is None:
                return Value(kind, permuted_by=label)
            return Value(kind, sizes=res[0], strides=res[1], permuted_by=label)
        if m in ("view", "reshape"):
            if any(isinstance(k, ast.keyword) and k.arg == "dtype" for k in node.keywords):
                return plain
            target = self.size_args(arg_nodes)
            if target is None or not arg_nodes:
                return plain
            if sizes is None:
                if None in target:
                    return plain
                new = tuple(target)  # type: ignore[arg-type]
                return Value(kind, sizes=new, permuted_by=taint)
            resolved = L.resolve_target(sizes, target)
            if resolved is None:
                return plain
            if strides is not None:
                st = L.view_result(sizes, strides, resolved)
                if st is not None:
                    permuted = recv.permuted_by if st != L.contiguous_strides(resolved) else None
                    return Value(kind, sizes=tuple(resolved), strides=st, permuted_by=permuted)
                if m == "reshape" and L.view_verdict(sizes, strides, target)[0] == L.ILLEGAL:
                    return Value(kind, sizes=tuple(resolved), strides=L.contiguous_strides(resolved))
            return Value(kind, sizes=tuple(resolved), permuted_by=taint)
        if m == "unsqueeze" and len(ints) == 1 and ints[0] is not None and sizes is not None \
                and strides is not None:
            d = ints[0] if ints[0] >= 0 else ints[0] + len(sizes) + 1
            if 0 <= d <= len(sizes):
                st = strides[d] * sizes[d] if d < len(sizes) else ONE
                return Value(kind, sizes=sizes[:d] + (ONE,) + sizes[d:],
                             strides=strides[:d] + (st,) + strides[d:], permuted_by=recv.permuted_by)
            return plain
        if m in api.LAYOUT_PRESERVING_METHODS:
            if m in ("to", "type_as", "clone") and any(k.arg == "memory_format" for k in node.keywords):
                fmt = next(k.value for k in node.keywords if k.arg == "memory_format")
                if self.static_qualname(fmt) == "torch.contiguous_format" and sizes is not None:
                    return Value(kind, sizes=sizes, strides=L.contiguous_strides(sizes))
                return Value(kind, sizes=sizes, permuted_by=taint)
            if sizes is not None and strides is not None and not L.is_dense(sizes, strides) \
                    and m not in ("detach", "detach_", "requires_grad_"):
                return Value(kind, sizes=sizes, permuted_by=taint)  # copies come out dense
            return Value(kind, sizes=sizes, strides=strides, permuted_by=recv.permuted_by)
        if m in api.SHAPE_PRESERVING_METHODS:
            return Value(kind, sizes=sizes, permuted_by=taint)
        if m in ("matmul", "mm", "bmm") and len(node.args) == 1:
            other = self.cache.get(id(node.args[0])) or UNKNOWN_VALUE
            return self.binop(ast.MatMult(), recv, other)
        if m in ("new_zeros", "new_ones", "new_empty"):
            target = self.size_args(arg_nodes)
            if target is not None and None not in target:
                return Value(TENSOR, sizes=tuple(target), strides=L.contiguous_strides(target))  # type: ignore[arg-type]
            return Value(TENSOR)
        return plain
