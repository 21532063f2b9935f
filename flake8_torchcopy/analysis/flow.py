"""The walk of a module: its scopes, functions deferred, and rounds over parameter seeds.

:class:`FlowWalker` walks the module body, then each function body (deferred, so
imports placed below a function still resolve) from the bindings its scope can see,
skipping functions whose text no hook can match; the statements of each scope are
:class:`~.statements.StatementWalker`'s, expressions :class:`~.exprs.Evaluator`'s,
which passes each node to the hooks a :class:`~.visitor.Visitor` gives for its class,
with a :class:`~.context.Context` whose reports go to a :class:`~.sink.Sink`.
:class:`ModuleWalk` walks again, in rounds, the functions whose parameters their calls
in the module tell more about (:mod:`.callsites`).
"""
from __future__ import annotations

import ast
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from . import dispatch, modulefacts, nncontainers, nodeindex, returns, starimports
from .callsites import BLOCK_FIELDS, MAX_ROUNDS, NO_CALLSITES, parameter_seeds
from .closedness import closed_functions
from .localnames import local_names
from .context import Context
from .caught import called_where_caught, catches_type_error, handler_catches
from .modulescan import may_replace_attribute, may_script, may_set_default_device, module_bindings, module_rebound
from .sink import NO_SINK, Sink
from .statements import Deferred, FunctionNode, StatementWalker
from .torchstores import may_store_dynamically
from .triggers import Word, WordsIn, alias_groups, found, returning_groups
from .values import ANNOTATED, MODULE_GLOBAL, NOT_VALUE, TENSOR, UNKNOWN, UNKNOWN_VALUE, Env, Value
from .visitor import Visitor

Seeds = Dict[int, Dict[str, Value]]  # id(def) -> parameter -> its value on entry
_BLOCKS: Dict[type, Tuple[str, ...]] = {}  # a statement class -> its statement lists
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_NOT_WALKED: Env = {}  # the bindings of a def that is not walked (never read)


class ModuleWalk:
    """The walk of a module, in rounds: :meth:`first_round` walks it once; then, where
    closed functions get values from their calls into their parameters (:mod:`.callsites`),
    :meth:`more_rounds` walks again, up to ``MAX_ROUNDS - 1`` times, only the functions
    whose parameters the previous round learnt something new about.  ``visitor``'s hooks
    are called with the nodes and report to ``sink``; what to make of the rounds' reports
    is the sink owner's (:attr:`rests_on_public_calls`)."""

    def __init__(self, source: str, tree: ast.AST, visitor: Visitor, options, sink: Sink,
                 path: Optional[str] = None, words: Optional[Mapping[Word, bool]] = None,
                 groups: Optional[List[Tuple[Word, ...]]] = None) -> None:
        self.walker = walker = FlowWalker(source, tree, visitor, options, sink, words, groups)
        walker.path = path  # its imports of its own package are followed (.project)
        # no trigger group in the module's text: no function may match, none is closed that matters
        walker.sites = closed_functions(tree, walker.idx, walker.may_match, public=options.public_helpers,
                                        others=_others(path, options),
                                        layouts=[g[1:] for g in walker.word_groups if g[:1] == ("view(",)]) \
            if walker.word_groups else NO_CALLSITES

    @classmethod
    def of(cls, source: str, tree: ast.AST, visitor: Visitor, options, sink: Sink,
           path: Optional[str] = None, words: Optional[Mapping[Word, bool]] = None) -> Optional["ModuleWalk"]:
        """The walk of the module, or None where no hook can match anywhere in it: no group
        of trigger words is in its text (:meth:`FlowWalker.trigger_groups`), so neither its
        functions nor its top level can (module-level aliases are groups too)."""
        groups = FlowWalker.trigger_groups(source, tree, visitor.function_triggers, words)
        if not groups:
            return None
        return cls(source, tree, visitor, options, sink, path, words, groups)

    def first_round(self) -> None:
        self.walker.run()

    def more_rounds(self) -> None:
        walker = self.walker
        for _ in range(MAX_ROUNDS - 1 if walker.sites.calls or walker.sites.extra else 0):
            new = parameter_seeds(walker.sites, walker.passed)
            changed = [f for f in set(new) | set(walker.seeds)
                       if _seed_key(new.get(f)) != _seed_key(walker.seeds.get(f))]
            if not changed:
                break
            walker.seeds = new
            walker.rewalk(changed)

    @property
    def rests_on_public_calls(self) -> bool:
        """Did the later rounds seed a public function's parameters from its calls here (its
        callers in other modules are not seen), or any parameter's layout (.paramlayouts)?
        A report the rounds changed rests on them."""
        public, seeds = {id(c.node) for c in self.walker.sites.functions() if c.public}, self.walker.seeds
        return bool(public & set(seeds)) or any(v.sizes for s in seeds.values() for v in s.values())


def release() -> None:
    """Drop what the analysis keeps of the module it walked last (its tree, the facts and
    names found in it), once that module's findings are out: kept until the next module
    asks, a tree is walked by every full collection of the process meanwhile."""
    modulefacts.forget()
    returns.forget()
    nncontainers.forget()


def _others(path: Optional[str], options):
    """What the other modules of the linted file's project pass its module-level
    functions (:mod:`.projectcallers`), where the file is in a package on disk."""
    from .project import project_for
    if getattr(project_for(path), "package", None) is None:
        return None  # no project, or a directory of scripts (other modules' calls not looked for)
    from .projectcallers import other_calls
    return lambda funcs: other_calls(path, funcs, options)  # type: ignore[arg-type]


def _may_declare(word: str, source: str) -> bool:
    """Can the text hold a ``global``/``nonlocal`` statement: the word at a line's start,
    or after a ``;`` or ``:`` outside a comment, followed by a name or a backslash?"""
    pos = source.find(word)
    while pos >= 0:
        after = source[pos + len(word):pos + len(word) + 2]
        if after[:1] in (" ", "\t", "\\"):
            line_start = source.rfind("\n", 0, pos) + 1
            head = source[line_start:pos].rstrip(" \t")
            if not head or (head[-1] in ";:" and "#" not in head):
                return True
        pos = source.find(word, pos + len(word))
    return False


def _declared(tree: ast.AST, source: str) -> Tuple[frozenset, frozenset]:
    """Names some ``global`` and some ``nonlocal`` statement of the module declares,
    wherever it stands (a one-line ``def``, after ``if x:``, across a backslash): a call of
    the function that declares them may rebind them.  The tree is walked (once, for both)
    only when the text may hold such a statement (the words alone are common in comments)."""
    words = (_may_declare("global", source), _may_declare("nonlocal", source))
    if not any(words):
        return frozenset(), frozenset()
    found: Dict[type, set] = {ast.Global: set(), ast.Nonlocal: set()}
    stack = list(tree.body)  # type: ignore[attr-defined]
    while stack:  # statements only: global/nonlocal are statements
        node = stack.pop()
        kind = node.__class__
        if kind is ast.Global or kind is ast.Nonlocal:
            found[kind].update(node.names)
        blocks = _BLOCKS.get(kind)
        if blocks is None:
            blocks = _BLOCKS[kind] = tuple(f for f in BLOCK_FIELDS if f in kind._fields)
        for name in blocks:
            stack.extend(getattr(node, name, None) or ())
    return (frozenset(found[ast.Global]) if words[0] else frozenset(),
            frozenset(found[ast.Nonlocal]) if words[1] else frozenset())


def _seed_key(params: Optional[Dict[str, Value]]):
    return {(p, v.kind, v.mixed, v.permuted_by, v.caveat, v.nnmod, v.strides) for p, v in (params or {}).items()}


class FlowWalker(StatementWalker):
    def __init__(self, source: str, tree: ast.AST, visitor: Visitor, options, sink: Sink = NO_SINK,
                 words: Optional[Mapping[Word, bool]] = None,
                 groups: Optional[List[Tuple[Word, ...]]] = None) -> None:
        super().__init__(source, visitor.hooks, words)  # the engine's words, of the same text
        self.sink = sink
        self.word_groups = groups if groups is not None else \
            self.trigger_groups(source, tree, visitor.function_triggers, words)
        self.tree = tree
        self.options = options
        self.ctx = Context(self)
        self.in_jit = False
        self.deferred: List[Deferred] = []
        self.held: Optional[List[tuple]] = None  # reports a loop holds back (.loops)
        self.loops: List[Dict[str, List[Env]]] = []
        self.stmt_range = (0, 0)
        self.method_class: Dict[int, ast.ClassDef] = {}
        self.in_module_body = False
        self._default_device: Optional[bool] = None
        self._caught: Dict[tuple, frozenset] = {}  # (type errors?, assertions?) -> functions_caught
        self._scripts: Optional[bool] = None
        self._replaced: Dict[str, bool] = {}
        self._stmt_handlers = nodeindex.Handlers(type(self), "s_")
        self.seeds: Seeds = {}
        self.walked: Dict[int, Deferred] = {}  # id(def) -> what it was walked with
        self.raised: List[Env] = []  # per enclosing `try` body: the states a handler may start from
        self.globals_, self.nonlocals = _declared(tree, source)
        self.dynamic_stores = may_store_dynamically(source, tree)
        self._rebound: Optional[frozenset] = None
        self.catching: List[int] = []  # per enclosing try body / with: handled errors (caught.caught_bits)
        self._may_match: Dict[int, bool] = {}
        if self.word_groups:
            self.gate_classes()
        self.closure_func: Optional[FunctionNode] = None  # the function whose body is walked
        self._local_names: Dict[int, Tuple[frozenset, frozenset]] = {}

    # ------------------------------------------------------------------ driver
    def run(self) -> None:
        self.in_module_body = True
        # a function may rebind a module-level name when called (global, exec, globals())
        self.volatile = self.globals_
        if self.dynamic_stores:
            self.volatile = self.rebound
        self.block(self.tree.body)  # type: ignore[attr-defined]
        self.in_module_body = False
        self.walk_deferred()

    def walk_deferred(self) -> None:
        while self.deferred:
            func, outer, jit = self.deferred.pop(0)
            self.walked[id(func)] = (func, outer, jit)
            self.function(func, outer, jit)

    def rewalk(self, funcs: Sequence[int]) -> None:
        """Walk these functions (``id()`` of their defs) again, with the parameter seeds
        now known: their findings, and what their calls pass, are replaced."""
        for key in funcs:
            if key not in self.walked:
                continue  # never walked: nothing in it can match, and it calls nothing tracked
            func, outer, jit = self.walked[key]
            first, last = func.lineno, func.end_lineno or func.lineno
            self.sink.forget(first, last)
            for c in self.sites.calls.values():
                for call in c.calls:
                    if first <= call.lineno <= last:
                        self.passed.pop(id(call), None)
            self.deferred.append((func, outer, jit))
            self.walk_deferred()

    def add(self, code: str, node: ast.AST, message: str, fix: object) -> None:
        """A report (through :meth:`.Context.report`): to the sink, with the node's span in
        characters."""
        if not self.reporting:
            return
        line = node.lineno  # type: ignore[attr-defined]
        col = self.idx.char_col(line, node.col_offset)  # type: ignore[attr-defined]
        end_line = node.end_lineno  # type: ignore[attr-defined]
        end_col = self.idx.char_col(end_line, node.end_col_offset)  # type: ignore[attr-defined]
        self.emit((code, message, (line, col, end_line, end_col), fix, self.stmt_range))

    def emit(self, report: tuple) -> None:
        """To the sink, or held while a loop's reporting pass may yet be walked again (.loops)."""
        if self.held is not None:
            self.held.append(report)
        else:
            self.sink.report(*report)

    @property
    def rebound(self) -> frozenset:
        """Module names a function can't trust (with exec, globals()[...]: any but an
        import).  Asked only where a function is walked, or the module stores dynamically."""
        if self._rebound is None:
            self._rebound = module_rebound(self.tree, self.globals_, ":=" in self.source,
                                           dynamic=self.dynamic_stores, seen=module_bindings(self))
        return self._rebound

    def _star_rebinds(self, node: ast.ImportFrom) -> Optional[Dict[str, Optional[str]]]:
        """What a star import of the module binds, for :attr:`rebound` (None: not known)."""
        found = starimports.walker_stars(self, node)
        return None if found is None else starimports.rebinds(found)

    def functions_caught(self, type_error: bool = False, assertion: bool = False) -> frozenset:
        """Functions of the module that may run in a try that may catch a RuntimeError (TypeError; AssertionError)."""
        if (type_error, assertion) not in self._caught:
            self._caught[(type_error, assertion)] = called_where_caught(
                self.tree, catches_type_error if type_error else handler_catches(self, assertion))
        return self._caught[(type_error, assertion)]

    @property
    def scripts(self) -> bool:
        """May the module compile its functions with TorchScript by a call?  Asked only for a fix."""
        if self._scripts is None:
            self._scripts = may_script(self.source)
        return self._scripts

    @property
    def default_device(self) -> bool:
        """May the module set a default device?  Asked only when a fix is being made."""
        if self._default_device is None:
            self._default_device = may_set_default_device(self.source, self.tree, self._star_rebinds)
        return self._default_device

    @property
    def replaces_torch_tensor(self) -> bool:
        """May the module replace ``torch.tensor`` (``torch.tensor = f``, ``setattr``)?"""
        return self.may_replace("tensor")

    def may_replace(self, name: str) -> bool:
        """May the module replace an attribute ``name`` of torch?  Asked only for a fix."""
        known = self._replaced.get(name)
        if known is None:
            known = self._replaced[name] = may_replace_attribute(self.source, self.tree, name)
        return known

    @staticmethod
    def trigger_groups(source: str, tree: ast.AST, triggers: Sequence[Sequence[Word]],
                       words: Optional[Mapping[Word, bool]] = None) -> List[Tuple[Word, ...]]:
        """Word groups of which one must be in a function's text for any hook to match there:
        the visitor's ``triggers``, and for names bound to another at the top level
        (``from torch import tensor as T``, ``T = torch.tensor``) the groups with the alias in
        place of the words it may stand for (:func:`.triggers.alias_groups`), so an aliased call still gets its
        function analysed.  ``words`` (:class:`.triggers.WordsIn` of ``source``), where given,
        answers whether the text holds a word (the engine's file check asked many already).
        """
        groups = [tuple(g) for g in triggers]
        groups.extend(alias_groups(tree, groups, source))
        present = WordsIn(source) if words is None else words
        # a function's text is part of the module's: a group not all there matches nowhere;
        # the words a module word stands for are not asked of each function
        return [tuple(t for t in g if not getattr(t, "in_module", False))
                for g in groups if all(present[t] for t in g)] + returning_groups(tree, groups, source, present)

    def may_match(self, node: ast.AST) -> bool:
        """Cheap text check: can any hook match inside this function?  Asked once per function."""
        known = self._may_match.get(id(node))
        if known is None:
            known = self._may_match[id(node)] = self._text_may_match(node)
        return known

    def _text_may_match(self, node: ast.AST) -> bool:
        if not self.word_groups:
            return False
        text = self.idx.line_text(node)
        for group in self.word_groups:  # loops, not any(all(...)): asked for every def
            for word in group:
                if not (word in text if word.__class__ is str else found(word, text)):
                    break
            else:
                return True
        return False

    def gate_classes(self) -> None:
        """Rule out at once the methods of the module's classes (those outside functions)
        whose text holds no group: a method's text is some of its class's lines, so where
        the class's text holds none, no method's does (one check for all of them)."""
        stack: List[ast.AST] = list(self.tree.body)  # type: ignore[attr-defined]
        while stack:
            node = stack.pop()
            if node.__class__ is ast.ClassDef:
                body = node.body
                if sum(b.__class__ in _DEFS for b in body) > 1 and not self._text_may_match(node):
                    for b in body:
                        if b.__class__ in _DEFS:
                            self._may_match[id(b)] = False
                stack.extend(b for b in body if b.__class__ is ast.ClassDef)
            elif node.__class__ not in _DEFS:
                for name in ("body", "orelse", "finalbody", "handlers"):
                    stack.extend(getattr(node, name, None) or ())

    def def_outer(self, func: FunctionNode) -> Env:
        """What a def met now is walked with: the bindings it sees, or nothing where it
        will not be walked (no hook can match in it, it calls no closed function)."""
        if self.may_match(func) or id(func) in self.sites.callers:
            return self.scope_outer()
        return _NOT_WALKED

    # -------------------------------------------------------------- functions
    def function(self, func: FunctionNode, outer: Env, jit: bool) -> None:
        if not self.may_match(func) and id(func) not in self.sites.callers:
            return  # nothing in its text can match: its body (and nested defs) cost nothing
        own = self.local_names(func)[0]  # local in all of func: never the outer name (late binding)
        self.outer = {k: v for k, v in outer.items() if k not in own} if not own.isdisjoint(outer) else outer
        self.env = {}
        self.closure_func = func
        self.in_jit = jit
        self.method_of = self.method_class.get(id(func))
        self.self_value = None
        args = func.args
        params = args.posonlyargs + args.args + args.kwonlyargs
        seeds = self.seeds.get(id(func)) or dispatch.seeds_of(self, func)  # or a registered type's
        for a in params:
            self.env[a.arg] = seeds.get(a.arg) or self.param_value(a.annotation)
        for star in (args.vararg, args.kwarg):
            if star is not None:
                self.env[star.arg] = NOT_VALUE
        if self.method_of is not None and params and not any(
                isinstance(d, ast.Name) and d.id == "staticmethod" for d in func.decorator_list):
            self.self_value = self.env[params[0].arg] = Value(UNKNOWN)
        self.loops = []
        self.raised = []
        self.volatile = self.nonlocals if self.nonlocals and "nonlocal" in self.idx.line_text(func) else frozenset()
        self.block(func.body)

    def param_value(self, annotation: Optional[ast.AST]) -> Value:
        if annotation is not None and self.is_tensor_annotation(annotation):
            return Value(ANNOTATED)
        return Value(UNKNOWN)

    def scope_outer(self) -> Env:
        """Bindings a nested scope can see: imports and local definitions only."""
        out = {k: v for k, v in self.outer.items()}
        # a nested scope reads the function's names when it runs: only those bound once
        once = self.bound_once(self.closure_func) if self.closure_func is not None else None
        for k, v in self.env.items():
            if (v.qualname is not None or v.local_def) and (once is None or k in once):
                out[k] = v
            else:
                out.pop(k, None)
        if self.in_module_body:  # rebound later, or by a star import: unknown when called
            if not self.loops:  # a global bound once to a tensor: what a call reads (or NameError)
                out.update((k, Value(TENSOR, caveat=v.caveat or MODULE_GLOBAL, permuted_by=v.permuted_by))
                           for k, v in self.env.items() if v.kind == TENSOR)
            for k in self.rebound:
                out.pop(k, None)
        elif self.closure_func is not None:  # a closure: the enclosing function's tensors
            # (not in a loop: a def made there may be called after a later pass rebinds)
            tensors = [] if self.loops else [(k, v) for k, v in self.env.items() if v.kind == TENSOR]
            for k, v in tensors:
                if k in (once or ()):
                    out[k] = Value(TENSOR, caveat=v.caveat, permuted_by=v.permuted_by)  # never taken for contiguous
            for k in self.local_names(self.closure_func)[0]:  # bound later too: no builtin
                out.setdefault(k, UNKNOWN_VALUE)
        return out

    def bound_once(self, func: FunctionNode) -> frozenset:
        """Names ``func`` binds by exactly one statement, none a parameter, none declared
        ``global``/``nonlocal`` in it or in a scope nested in it, and bound nowhere else in
        its text (stores in nested scopes count too).  A nested function that reads such a
        name, whenever it is called, sees what that one binding bound (or raises
        ``NameError``): a tensor if that binding is one.  Only the kind passes, not the
        layout (in-place ops may change it by the time of the call)."""
        return self.local_names(func)[1]

    def local_names(self, func: FunctionNode) -> Tuple[frozenset, frozenset]:
        """:func:`.localnames.local_names` of ``func``, kept across rounds."""
        known = self._local_names.get(id(func))
        if known is None:
            known = self._local_names[id(func)] = local_names(func)
        return known
