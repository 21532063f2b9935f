"""A module of the project as the cross-module summaries see it, and its live trees.

:func:`module_of` parses a module file once per version (kept with the file's version,
:mod:`.projectdisk`) into a :class:`Module`: its bindings, the names its ``from`` imports,
``import`` statements and ``def`` statements bind at module level, and the functions that
may return a tensor (its candidates).  The tree is not kept with it (a process holding many
trees pays for them in every garbage collection): a function is decided when first asked
about (:func:`.projectdecide.tensor_def`), on a live tree (:func:`live`) -- the one just
parsed, or parsed again from the kept text -- that stays only until the lint of the file
that asked is over (:func:`release_trees`).
"""
from __future__ import annotations

import ast
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from . import projectdecide as decisions
from .projectdisk import UNPARSED, Version, version
from .projecttext import structure_returns
from .returns import ModuleNames, bound_once, returns_tensor
from .returnwalker import Shape, summarised, walker_of


class Module:
    """A module file of the project, parsed: what it binds, and its candidate functions
    (``def`` at module level, bound once, undecorated, ending in a ``return``, no
    generator, mentioning ``torch`` or ``Tensor``); what was decided about them."""

    def __init__(self, path: str, key: Version, source: str, tree: ast.Module) -> None:
        self.path = path
        self.key = key
        self.source = source
        self.names = ModuleNames(tree, source)
        defs: Dict[str, ast.FunctionDef] = {}
        self.def_names: Set[str] = set()
        self.class_names: Set[str] = set()  # "Net()" is asked of them (.nnclasses), not a candidate
        self.from_imports: Dict[str, Tuple[int, Optional[str], str]] = {}  # name -> (level, module, name)
        self.imports: Dict[str, str] = {}  # name -> qualname, for `import x` / `import x.y as z`
        for node in module_statements(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.def_names.add(node.name)
                if isinstance(node, ast.FunctionDef):
                    defs[node.name] = node
            elif isinstance(node, ast.ClassDef):
                self.class_names.add(node.name)
            elif isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name != "*":
                        self.from_imports[a.asname or a.name] = (node.level, node.module, a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    bound = a.asname or a.name.split(".")[0]
                    self.imports[bound] = a.name if a.asname else a.name.split(".")[0]
        # name -> (first, last line) of the assignment of the top level binding it alone (.projectglobals)
        self.top_assigns: Dict[str, Tuple[int, int]] = {}
        for node in tree.body:
            target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                else node.target if isinstance(node, ast.AnnAssign) and node.value is not None else None
            if isinstance(target, ast.Name):
                self.top_assigns[target.id] = (node.lineno, node.end_lineno or node.lineno)
        # the functions worth deciding (the cheap tests, on the tree at hand): the others are no
        self.candidates: Set[str] = set()
        lines: Optional[List[str]] = None
        for name, func in defs.items():
            if func.decorator_list or not isinstance(func.body[-1], ast.Return) or not bound_once(name, self.names):
                continue
            if lines is None:
                lines = source.splitlines()
            text = "\n".join(lines[func.lineno - 1:func.end_lineno])
            if ("torch" in text or "Tensor" in text) and ("yield" not in text or structure_returns(func)):
                self.candidates.add(name)
        # name -> (answer, {path: version} of the modules the answer read, height of its chain)
        self.decided: Dict[str, Tuple[Shape, decisions.Reads, int]] = {}

    def decide(self, name: str) -> Shape:
        """Does every return of the candidate ``name`` make a tensor (True), or a tuple
        display with tensors at fixed positions (:data:`~.returnwalker.Shape`)?  (Called by
        :func:`.projectdecide.tensor_def`, in this module's frame.)"""
        tree = live(self)
        if name.endswith("()"):
            return self.decide_forward(tree, name[:-2])
        if name.endswith("()!"):  # are the methods of its instances followed (.instancemethods)?
            from .nnclasses import followed_class
            found = tree.classes.get(name[:-3])
            return found is not None and followed_class(found, tree.classes, self.qualname_in(None), self.source,
                                                      lambda n: bound_once(n, self.names))
        if "()." in name:  # "Net().m": what m of an instance returns (.instancemethods)
            cls, _, method = name.partition("().")
            return self.decide_method(tree, cls, method)
        func = tree.defs.get(name)
        if func is None:
            return False
        return returns_tensor(func, self.qualname_in(func), tree.tree) or self.walked_returns(tree, func)

    def decide_forward(self, tree: "Live", name: str) -> Shape:
        """What calling an instance of the class ``name`` returns: its ``forward``'s returns
        (:func:`.nnclasses.forward_of` says which classes are followed), walked as a
        function's are."""
        from .nnclasses import forward_of  # it imports the walker's modules
        cls = tree.classes.get(name)
        forward = None if cls is None else forward_of(cls, tree.classes, self.qualname_in(None), self.source,
                                                      lambda n: bound_once(n, self.names))
        return False if forward is None else self.walked_returns(tree, forward, True)

    def decide_method(self, tree: "Live", name: str, method: str):
        """What ``m.method(...)`` returns, ``m`` an instance of the class ``name``: a
        :class:`~.instancemethods.Returned` (False where the method is not followed)."""
        from .instancemethods import summary
        from .nnclasses import forward_of
        cls = tree.classes.get(name)
        func = None if cls is None else forward_of(cls, tree.classes, self.qualname_in(None), self.source,
                                                   lambda n: bound_once(n, self.names), method)
        if func is None:
            return False
        return self.walked_returns(tree, func, True, lambda f: summary(f, tree.walker.returns_of(f)))

    def qualname_in(self, func: Optional[ast.FunctionDef]) -> Callable[[ast.AST], Optional[str]]:
        """A resolver of dotted names in ``func``'s body (None: the module's own scope): a
        name the module binds once by an absolute import, that no parameter or local of
        ``func`` shadows."""
        local = _locals(func) if func is not None else set()

        def qualname(node: ast.AST) -> Optional[str]:
            attrs: List[str] = []
            while isinstance(node, ast.Attribute):  # a loop: no closure that calls itself
                attrs.append(node.attr)
                node = node.value
            if not isinstance(node, ast.Name):
                return None
            name = node.id
            if name in local or not bound_once(name, self.names):
                return None
            base: Optional[str] = None
            if name in self.imports:
                base = self.imports[name]
            else:
                found = self.from_imports.get(name)
                if found is not None and not found[0] and found[1]:
                    base = f"{found[1]}.{found[2]}"
            if base is None or attrs and not base:
                return None
            return ".".join([base] + attrs[::-1])

        return qualname

    def walked_returns(self, tree: "Live", func: ast.FunctionDef, forward: bool = False, ask=None) -> Shape:
        """Does the data-flow analysis (the walker the rules use) prove every value ``func``
        returns a tensor, with its parameters unknown?  The module body is walked once per
        live tree (the environment functions see); then ``func`` alone.  Its calls of
        functions of other modules are followed (:func:`.projectdecide.tensor_def` guards
        the chain)."""
        top = decisions.frame()
        if tree.walker is not None and not decisions.valid(tree.reads, tree.height, decisions.depth() - 1, self.path):
            tree.walker = None  # what it remembers was read under another chain: walked afresh
        if tree.walker is None:
            with decisions.body_frame(self.path, self.key) as body:
                tree.walker = walker_of(self.source, self.path, tree.tree)
            tree.reads, tree.height = body.reads, body.height
        top.reads.update(tree.reads)
        top.height = max(top.height, tree.height)
        cuts = decisions.CUTS[0]
        out = summarised(tree.walker, func, forward, ask or tree.walker.returns_shape)
        if decisions.CUTS[0] != cuts:
            tree.walker = None  # it may remember what a cut left unknown
        else:
            # what the walker remembers from this walk, later walks may use: they read it too
            tree.reads.update(top.reads)
            tree.height = max(tree.height, top.height)
        return out


def module_of(path: str) -> Optional[Module]:
    """The module file at ``path``, parsed once per version of it (None: unreadable, not
    Python, or no file).  Nothing is decided here (:func:`.projectdecide.tensor_def`)."""
    file = version(path)
    if file is None:
        return None
    if file.module is UNPARSED:
        module: Optional[Module] = None
        if file.text is not None:
            try:
                tree = ast.parse(file.text, path)
                module = Module(path, file.key, file.text, tree)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                module = None
            else:
                if module.candidates:
                    live(module, tree)
        file.module = module
    return file.module


class Live:
    """A module's tree (the one just parsed, or parsed again from its kept text), its
    candidate functions there, its walker and what the walker's answers read."""

    __slots__ = ("tree", "defs", "classes", "walker", "reads", "height")

    def __init__(self, module: Module, tree: Optional[ast.Module] = None) -> None:
        self.tree = ast.parse(module.source, module.path) if tree is None else tree
        self.defs: Dict[str, ast.FunctionDef] = {}
        self.classes: Dict[str, ast.ClassDef] = {}
        for node in module_statements(self.tree):
            if isinstance(node, ast.FunctionDef) and node.name in module.candidates:
                self.defs[node.name] = node
            elif isinstance(node, ast.ClassDef):
                self.classes[node.name] = node
        self.walker: Any = None
        self.reads: decisions.Reads = {}
        self.height = 1


#: how many modules' trees (and walkers) are kept between questions of one file's lint
LIVE_TREES = 2
_LIVE: "OrderedDict[Module, Live]" = OrderedDict()


def live(module: Module, tree: Optional[ast.Module] = None) -> Live:
    """The live tree of ``module`` (``tree``: the one just parsed, kept rather than parsed
    again when a function of the module is first decided, as it mostly is next)."""
    found = _LIVE.get(module)
    if found is None:
        found = _LIVE[module] = Live(module, tree)
        while len(_LIVE) > LIVE_TREES:
            _LIVE.popitem(last=False)
    else:
        _LIVE.move_to_end(module)
    return found


def release_trees() -> None:
    """Let the live trees go (the lint of a file is over: the next file mostly asks about
    other modules, and trees kept between files cost every garbage collection a walk of
    them).  What was decided on them is kept."""
    _LIVE.clear()


def module_statements(tree: ast.Module):
    """The statements of the module's own scope, in its blocks too (``if``, ``try``), not
    in functions or classes."""
    stack: List[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(node, field, None) or ())


def _locals(func: ast.FunctionDef) -> Set[str]:
    """The names ``func``'s own scope binds (parameters, stores, imports, nested defs) or
    declares ``global``/``nonlocal``."""
    a = func.args
    out = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    out.update(p.arg for p in (a.vararg, a.kwarg) if p is not None)
    stack: List[ast.AST] = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, ast.alias):
            out.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(node.names)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            out.add(node.name)
        stack.extend(ast.iter_child_nodes(node))
    return out
