"""Statements: how one scope's statements change the names' values, following control flow.

:class:`StatementWalker` follows a scope's statements in order: it binds what
assignments, imports and definitions bind (a ``def`` is only recorded, its body walked
later by :mod:`.flow`), joins the states of ``if``/``try``/``with``/``match`` branches
and of loops (walked twice: silently, then from the joined state), narrows names on
tests (:mod:`.narrowing`) for both branches and after early exits, and tracks where a
RuntimeError may be handled.  Expressions are :class:`~.exprs.Evaluator`'s.
"""
from __future__ import annotations

import ast
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import attrnarrowing, dispatch, listfill, namespaces, nodeindex, starimports
from .binding import names_only as _names_only
from .caught import CAUGHT_ANY, caught_bits
from .exprs import Evaluator
from .loops import live_element, walk_loop
from .narrowing import after_if, case_subject, false_entry, narrow, never_true, unmatched_subject
from .optional import optional_imports
from .projectglobals import LIBRARIES
from .values import ANNOTATED, ASSERTED, NOT_VALUE, TENSOR, UNKNOWN, UNKNOWN_VALUE, Env, Value, join

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
Deferred = Tuple[FunctionNode, Env, bool]  # a def walked later, the bindings it sees, in torch.jit?

_JIT_DECORATORS = frozenset({"torch.jit.script", "torch.jit.script_method", "torch.jit.export"})

# context managers that never swallow an exception (their __exit__ returns a false value)
_NON_SWALLOWING = frozenset({
    "io.open", "warnings.catch_warnings", "tempfile.TemporaryDirectory", "tempfile.NamedTemporaryFile",
    "threading.Lock", "threading.RLock", "contextlib.nullcontext", "contextlib.redirect_stdout",
    "contextlib.redirect_stderr", "numpy.errstate"})

# builtin exception classes that are not RuntimeError or one of its bases
_OTHER_ERRORS = frozenset("""
    ArithmeticError AssertionError AttributeError BufferError EOFError ImportError IndexError
    KeyError LookupError MemoryError ModuleNotFoundError NameError OSError OverflowError
    StopIteration StopAsyncIteration SyntaxError SystemError TypeError UnboundLocalError
    UnicodeError UnicodeDecodeError UnicodeEncodeError ValueError ZeroDivisionError
    FileNotFoundError PermissionError TimeoutError ConnectionError IOError KeyboardInterrupt
    SystemExit GeneratorExit""".split())


def _exits(stmts: Sequence[ast.stmt]) -> bool:
    """Is there a return, break or continue in these statements (outside nested defs)?"""
    stack: List[ast.AST] = list(stmts)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Return, ast.Break, ast.Continue)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(nodeindex.children(node))
    return False


class StatementWalker(Evaluator):
    """The statements of a scope: bindings, branches joined, loops, ``try``/``with``."""

    # set by the module walk (:class:`~.flow.FlowWalker`)
    loops: List[Dict[str, List[Env]]]  # per enclosing loop: the states at its breaks, continues
    raised: List[Env]  # per enclosing `try` body: the states a handler may start from
    catching: List[int]  # per enclosing try body / with: may a RuntimeError (1), a TypeError (2) be handled?
    in_module_body: bool
    in_jit: bool  # inside a function torch.jit compiles
    deferred: List[Deferred]  # the defs met, their bodies walked after the scope's
    method_class: Dict[int, ast.ClassDef]  # id(def) -> the class of a method
    _stmt_handlers: Mapping[type, Optional[Callable]]  # the s_ function of each statement class
    scope_outer: Callable[[], Env]  # a method: the bindings a nested scope can see
    closure_func: Optional[ast.AST]  # the function whose body is walked (None: a class body)
    def_outer: Callable[[FunctionNode], Env]  # a method: the bindings a def met now is walked with
    current_stmt: Optional[ast.stmt] = None  # the statement being walked

    def block(self, stmts: Sequence[ast.stmt]) -> bool:
        for s in stmts:
            if self.stmt(s):
                return True
        return False

    def stmt(self, s: ast.stmt) -> bool:
        self.stmt_range = (s.lineno, s.end_lineno or s.lineno)
        self.current_stmt = s
        if self.attr_facts:
            attrnarrowing.before_statement(self, s)
        handler = self._stmt_handlers[type(s)]
        if handler is None:
            self._children(s)
            return False
        result = handler(self, s)
        if self.raised:  # inside a `try` body: a handler may start from here
            point, self.raise_point = self.raise_point, None
            self.raised[-1] = self.join_envs([self.raised[-1], self.env if point is None else point])
        if self.evidence:
            for name in self.evidence:
                v = self.env.get(name)
                if v is not None and v.kind in (UNKNOWN, ANNOTATED):
                    # a tensor-only method ran on it: a tensor, of some class
                    self.env[name] = v.with_(kind=TENSOR, caveat=v.caveat or self.subclass_caveat)
            self.evidence = []
        return bool(result)

    def header(self, s: ast.stmt, node: ast.AST) -> None:
        self.stmt_range = (s.lineno, node.end_lineno or s.lineno)  # type: ignore[attr-defined]

    def s_Expr(self, s):
        self.ev(s.value)

    raise_point: Optional[Env] = None  # set by a binding that cannot raise: the state before it

    def s_Assign(self, s):
        v = self.ev(s.value)
        if self.raised and all(_names_only(t) for t in s.targets):
            # storing names cannot raise: a handler starts before the binding, not after
            self.raise_point = dict(self.env)
        for t in s.targets:
            self.bind(t, v, s.value)

    def s_AnnAssign(self, s):
        if s.value is None:
            return
        v = self.ev(s.value)
        if self.raised and isinstance(s.target, ast.Name):
            self.raise_point = dict(self.env)
        if v.kind == UNKNOWN and self.is_tensor_annotation(s.annotation):
            v = v.with_(kind=ANNOTATED)
        self.bind(s.target, v, s.value)

    def s_AugAssign(self, s):
        rhs = self.ev(s.value)
        if isinstance(s.target, ast.Name):
            cur = self.lookup(s.target.id)
            v = self.binop(s.op, cur, rhs, inplace=True, nodes=(s.target, s.value))
            if v.kind == TENSOR and v.caveat is None and (
                    rhs.caveat or rhs.kind == ANNOTATED or rhs.kind == UNKNOWN and rhs.mono is None):
                # acc += x: x's __torch_function__ may rebind acc to its class
                v = v.with_(caveat=rhs.caveat or self.subclass_caveat)
            self.env[s.target.id] = v
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
            if a.name == "*":  # may rebind any name, torch included
                if self.in_module_body and starimports.bind(self, s):  # a module of the project: what it binds
                    continue
                self.star_imported = True
                self.env = {k: UNKNOWN_VALUE for k in self.env}
                continue
            v = self.env[name] = Value(local_def=True) if s.level else Value(qualname=f"{s.module}.{a.name}")
            self.imported_from[id(v)] = (v, s.level, s.module, a.name)  # for .project
            if s.level or s.module.partition(".")[0] not in LIBRARIES:
                self.project_imports.add(name)  # a global of the project's may be read (.projectglobals)

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
        if self.in_module_body:
            self.module_defs.put(self.env[s.name], s)
        if s.decorator_list and self.has["register"]:
            dispatch.note_def(self, s)  # a singledispatch function, or a registration on one
        self.deferred.append((s, self.def_outer(s), jit))

    s_AsyncFunctionDef = s_FunctionDef

    def s_ClassDef(self, s):
        for n in s.decorator_list + s.bases + [k.value for k in s.keywords]:
            self.ev(n)
        saved_env, saved_outer, saved_loops, saved_raised = self.env, self.outer, self.loops, self.raised
        self.outer = self.scope_outer()  # what the module (or function) lets its methods see
        in_module_body, self.in_module_body = self.in_module_body, False
        in_class, self.class_body = self.class_body, namespaces.class_body_mark(self, s)  # PREPARED: names unknown
        # a class body's names are no closures of the functions defined in it
        self.env, self.loops, self.raised, closure_func, self.closure_func = {}, [], [], self.closure_func, None
        self.block(s.body)
        body = {id(b) for b in s.body}  # methods see the module scope, not the class body
        for i, (func, outer, jit) in enumerate(self.deferred):
            if outer is not None and id(func) in body:
                self.deferred[i] = (func, self.outer, jit)
                self.method_class[id(func)] = s
        self.env, self.outer, self.loops, self.raised = saved_env, saved_outer, saved_loops, saved_raised
        self.in_module_body, self.closure_func, self.class_body = in_module_body, closure_func, in_class
        torch_base = any((self.static_qualname(b) or "").startswith("torch") for b in s.bases)
        self.env[s.name] = Value(local_def=True, is_class=not torch_base)
        if in_module_body:
            self.module_classes.put(self.env[s.name], s)

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
        self.conditional += 1  # python -O removes the assert: its calls are no evidence
        self.ev(s.test)
        if s.msg is not None:
            self.ev(s.msg)
        self.conditional -= 1
        yes, _ = narrow(self, s.test)
        self.narrow_caveat = ASSERTED  # python -O removes the assert
        self.apply(self.env, yes)
        attrnarrowing.asserted(self, s.test)  # assert torch.is_tensor(self.mu)
        self.narrow_caveat = self.subclass_caveat

    last_len_if: Optional[Tuple[ast.If, Env]] = None  # (.narrowing) `if len(v) > 0:` and its body's end

    def s_If(self, s):
        self.header(s, s.test)
        self.ev(s.test)
        yes, no = narrow(self, s.test)
        entry = self.env
        f_entry = entry if self.last_len_if is None else false_entry(self, s, entry)
        if never_true(self, s.test):  # `if TYPE_CHECKING:`, `if False:`: the body never runs
            self.env = dict(entry)
            return self.block(s.orelse)
        self.env = self.apply(dict(entry), yes)
        t_end = self.block(s.body)
        env_t = self.env
        self.env = self.apply(dict(f_entry), no)
        f_end = self.block(s.orelse)
        if yes or no or s.test.__class__ is ast.Compare:  # flags of a type test; `if len(v) > 0:`
            after_if(self, s, yes, no, env_t, t_end)
        return self.merge([(env_t, t_end), (self.env, f_end)])

    def s_With(self, s):
        self.header(s, s.items[-1].context_expr)
        for item in s.items:
            self.ev(item.context_expr)
            if item.optional_vars is not None:
                self.bind(item.optional_vars, UNKNOWN_VALUE, None)
        if all(self.never_swallows(item.context_expr) for item in s.items):
            return self.block(s.body)
        # the manager may swallow an exception (contextlib.suppress): what follows may
        # start after any statement of the body
        self.raised.append(dict(self.env))
        self.catching.append(CAUGHT_ANY)
        ended = self.block(s.body)
        self.catching.pop()
        states = self.raised.pop()
        self.env = self.join_envs([states] + ([] if ended else [self.env]))
        if self.raised:
            self.raised[-1] = self.join_envs([self.raised[-1], self.env])
        return False

    def never_swallows(self, expr: ast.AST) -> bool:
        """A context manager known not to swallow exceptions: torch's (no_grad, autocast,
        device...), ``open``, locks and the like."""
        target = expr.func if isinstance(expr, ast.Call) else expr
        q = self.static_qualname(target) or ""
        if q.startswith("torch.") or q in _NON_SWALLOWING:
            return True
        return isinstance(target, ast.Name) and target.id in ("open",) and target.id not in self.env

    s_AsyncWith = s_With

    def s_For(self, s):
        self.header(s, s.iter)
        it = self.ev(s.iter)
        elem = self.element_of(it)
        fill = listfill.fill_target(self, s)  # for i in range(len(xs)): xs[i] = v
        listfill.start(self, fill)
        ended = self.loop(s, lambda: self.bind(s.target, live_element(self, s, elem), None))
        listfill.filled(self, fill, ended)
        return ended

    s_AsyncFor = s_For

    def s_While(self, s):
        self.header(s, s.test)
        self.ev(s.test)
        return self.loop(s, lambda: self.apply(self.env, narrow(self, s.test)[0]))

    def loop(self, s, enter: Callable[[], object]) -> bool:
        return walk_loop(self, s, enter)  # to a fixpoint: .loops

    def s_Try(self, s):
        entry = dict(self.env)
        self.raised.append(entry)
        self.catching.append(caught_bits(self, s))
        body_end = self.block(s.body)
        self.catching.pop()
        body_env = self.env
        # a handler may start after any statement of the body (at any depth), not only its end;
        # not after a last `q = value`: once the value is computed, storing a name cannot raise
        handler_entry = self.raised.pop()
        if self.raised:
            self.raised[-1] = self.join_envs([self.raised[-1], handler_entry])
        ends: List[Tuple[Env, bool]] = []
        # `finally` may start after any statement of the body, a handler or `else`
        self.raised.append(dict(handler_entry))
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
        any_exit = self.join_envs([self.raised.pop()] + [e for e, _ in ends])
        terminated = self.merge(ends)
        for name, v in optional_imports(s, ends[0][0]).items():
            self.env[name] = v  # where the import failed, every use of the name fails
            self.optional_import = True
        if s.finalbody:
            normal = None if terminated else self.env
            # walked (and reported) from every state it may start in; a return, break or
            # continue in it swallows the exception, so what follows may start from there too
            self.env = dict(any_exit)
            final_end = self.block(s.finalbody)
            if _exits(s.finalbody):
                return final_end
            if normal is None:
                return True
            saved, self.reporting = self.reporting, False
            self.env = dict(normal)
            terminated = self.block(s.finalbody)
            self.reporting = saved
        return terminated

    optional_import = False  # some name is an import or None (fixes are not exact then)

    def catches_runtime_error(self, h: ast.ExceptHandler) -> bool:
        """May this handler catch a RuntimeError (a bare except, Exception, a name not
        known to be another class, a tuple with one of those)?"""
        if h.type is None:
            return True
        types = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
        for t in types:
            name = t.attr if isinstance(t, ast.Attribute) else t.id if isinstance(t, ast.Name) else None
            if name is None or not (name in _OTHER_ERRORS or name.endswith("Warning")):
                return True  # RuntimeError, a base or subclass of it, or a class we don't know
        return False

    s_TryStar = s_Try

    def s_Match(self, s):
        self.ev(s.subject)
        entry = self.env
        ends = []
        for case in s.cases:
            self.env = self.apply(dict(entry), case_subject(self, s, case))  # case list(): a list
            for node in ast.walk(case.pattern):
                for attr in ("name", "rest"):
                    name = getattr(node, attr, None)
                    if isinstance(name, str):
                        self.env[name] = UNKNOWN_VALUE
            if case.guard is not None:
                self.ev(case.guard)
            ends.append((self.env, self.block(case.body)))
        # no case matched: a class pattern narrows what the subject is not (not followed)
        ends.append((self.apply(dict(entry), unmatched_subject(s)), False))
        return self.merge(ends)

    @staticmethod
    def join_envs(envs: Sequence[Env]) -> Env:
        if not envs:
            return {}
        out = dict(envs[0])
        for e in envs[1:]:
            for k, v in e.items():  # (no call where both paths hold the same value)
                cur = out[k] if k in out else None
                out[k] = v if cur is None else cur if cur is v else join(cur, v)
        return out

    def merge(self, ends: Sequence[Tuple[Env, bool]]) -> bool:
        live = [e for e, term in ends if not term]
        if not live:
            self.env = ends[0][0]
            return True
        self.env = self.join_envs(live)
        return False

