"""Summaries across the modules of a project: what the functions a module imports from its
own package return.

A call of a function the linted file imports from its own package (``from .utils import
make``, ``from ..ops.boxes import make``, ``from toppkg.utils import make``, ``import
toppkg.utils as u; u.make()``) is a tensor when the function's module, found on disk,
defines it once and every ``return`` of it is a torch constructor
(:func:`.returns.returns_tensor`, with that module's own imports).  A name the module
re-exports (``from .impl import make`` in an ``__init__.py``) is followed to where it is
defined, at most :data:`MAX_DEPTH` modules away, never around a cycle.

The package is found on disk from the linted file: its directory and the directories above
it that hold an ``__init__.py``; the directory above the topmost is the root that absolute
imports of that top package resolve from.  Everything else is unknown: a file outside a
package, an import of another top-level package (a same-named module elsewhere is never
taken for it), a namespace package, a module that fails to read or parse, a name the module
binds more than once or may bind unseen (:func:`.returns.bound_once`: a star import,
``exec``, ``globals()``, ``sys.modules``...), a name bound by anything but a ``def`` or a
``from`` import, a package ``__init__`` that binds the name of the submodule a dotted name
goes through, a function a submodule of the same name may shadow.

The value carries :data:`~.values.OTHER_MODULE`: the module may change without the linted
file changing, or be another module at run time than the one on disk, so a fix that rests on
it is unsafe; the report stands.

Cost: nothing is looked at until the walker evaluates a call of such a function.  Module
files are read and parsed (``ast`` only) once per process, cached by path, modification time
and size; each answer is cached per (module, name).
"""
from __future__ import annotations

import ast
import os
import re
from collections import OrderedDict
from typing import Dict, List, Optional, Set, Tuple

from .returns import _RETURN_DYNAMIC_RE, ModuleNames, bound_once, returns_tensor
from .values import OTHER_MODULE, TENSOR, Value

#: how many modules a name is followed through (re-exports), the first included
MAX_DEPTH = 6

_Key = Tuple[str, str]  # (root directory, dotted module name)


class _Module:
    """A module file of the project, parsed once per version: its bindings, the names its
    ``from`` imports and ``def`` statements bind at module level, and which of its functions
    may return a tensor.  The tree is not kept (a process holding many trees pays for them
    in every garbage collection): a function is decided when first asked about
    (:func:`_tensor_def`), on a tree parsed again from the kept text (:func:`_live`)."""

    def __init__(self, path: str, key: Tuple[int, int], source: str, tree: ast.Module) -> None:
        self.path = path
        self.key = key
        self.source = source
        self.names = ModuleNames(tree, source)
        defs: Dict[str, ast.AST] = {}
        self.from_imports: Dict[str, Tuple[int, Optional[str], str]] = {}  # name -> (level, module, name)
        self.imports: Dict[str, str] = {}  # name -> qualname, for `import x` / `import x.y as z`
        for node in _module_statements(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defs[node.name] = node
            elif isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name != "*":
                        self.from_imports[a.asname or a.name] = (node.level, node.module, a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    bound = a.asname or a.name.split(".")[0]
                    self.imports[bound] = a.name if a.asname else a.name.split(".")[0]
        self.def_names = set(defs)
        # the functions worth deciding (the cheap tests, on the tree at hand): the others are no
        self.candidates: Set[str] = set()
        lines: Optional[List[str]] = None
        for name, func in defs.items():
            if not isinstance(func, ast.FunctionDef) or func.decorator_list \
                    or not isinstance(func.body[-1], ast.Return) or not bound_once(name, self.names):
                continue
            if lines is None:
                lines = source.splitlines()
            text = "\n".join(lines[func.lineno - 1:func.end_lineno])  # type: ignore[attr-defined]
            if ("torch" in text or "Tensor" in text) and ("yield" not in text or _structure_returns(func)):
                self.candidates.add(name)
        # name -> (answer, {path: version} of the modules the answer read, height of its chain)
        self.decided: Dict[str, Tuple[bool, Dict[str, Optional[Tuple[int, int]]], int]] = {}

    def decide(self, name: str) -> bool:
        """Does every return of the candidate ``name`` make a tensor?  (Called by
        :func:`_tensor_def`, in this module's frame.)"""
        live = _live(self)
        func = live.defs.get(name)
        if func is None:
            return False
        return returns_tensor(func, self.qualname_in(func), live.tree) or self.walked_returns(live, func)

    def qualname_in(self, func: ast.AST):
        """A resolver of dotted names in ``func``'s body: a name the module binds once by an
        absolute import, that no parameter or local of ``func`` shadows."""
        local = _locals(func)

        def qualname(node: ast.AST) -> Optional[str]:
            if isinstance(node, ast.Name):
                name = node.id
                if name in local or not bound_once(name, self.names):
                    return None
                if name in self.imports:
                    return self.imports[name]
                found = self.from_imports.get(name)
                if found is not None and not found[0] and found[1]:
                    return f"{found[1]}.{found[2]}"
                return None
            if isinstance(node, ast.Attribute):
                base = qualname(node.value)
                return f"{base}.{node.attr}" if base else None
            return None

        return qualname

    def walked_returns(self, live: "_Live", func: ast.AST) -> bool:
        """Does the data-flow analysis (the walker the rules use) prove every value ``func``
        returns a tensor, with its parameters unknown?  The module body is walked once per
        live tree (the environment functions see); then ``func`` alone.  Its calls of
        functions of other modules are followed (:func:`_tensor_def` guards the chain)."""
        frame = _STACK[-1]
        if live.walker is not None and not _valid(live.reads, live.height, len(_STACK) - 1, self.path):
            live.walker = None  # what it remembers was read under another chain: walked afresh
        if live.walker is None:
            body = _Frame(self)
            _STACK[-1] = body
            try:
                live.walker = _ReturnWalker.of(self, live.tree)
            finally:
                _STACK[-1] = frame
            live.reads, live.height = body.reads, body.height
        frame.reads.update(live.reads)
        frame.height = max(frame.height, live.height)
        cuts = _CUTS[0]
        walker = live.walker
        out = walker.returns_tensor(func)
        if _CUTS[0] != cuts:
            live.walker = None  # it may remember what a cut left unknown
        else:
            # what the walker remembers from this walk, later walks may use: they read it too
            live.reads.update(frame.reads)
            live.height = max(live.height, frame.height)
        return out


class _Live:
    """A module's tree, parsed again from its kept text, its defs and its walker."""

    __slots__ = ("tree", "defs", "walker", "reads", "height")

    def __init__(self, module: _Module, tree: Optional[ast.Module] = None) -> None:
        self.tree = ast.parse(module.source, module.path) if tree is None else tree
        self.defs: Dict[str, ast.AST] = {}
        for node in _module_statements(self.tree):
            if isinstance(node, ast.FunctionDef) and node.name in module.candidates:
                self.defs[node.name] = node
        self.walker = None
        self.reads: Dict[str, Optional[Tuple[int, int]]] = {}
        self.height = 1


#: how many modules' trees (and walkers) are kept between questions
LIVE_TREES = 2
_LIVE: "OrderedDict[_Module, _Live]" = OrderedDict()


def _live(module: _Module, tree: Optional[ast.Module] = None) -> _Live:
    """The live tree of ``module`` (``tree``: the one just parsed, kept rather than parsed
    again when a function of the module is first decided, as it mostly is next)."""
    live = _LIVE.get(module)
    if live is None:
        live = _LIVE[module] = _Live(module, tree)
        while len(_LIVE) > LIVE_TREES:
            _LIVE.popitem(last=False)
    else:
        _LIVE.move_to_end(module)
    return live


def release_trees() -> None:
    """Let the live trees go (the lint of a file is over: the next file mostly asks about
    other modules, and trees kept between files cost every garbage collection a walk of
    them).  What was decided on them is kept."""
    _LIVE.clear()


class _Frame:
    """A function being decided: the modules (path -> version) its answer read, and the
    longest chain of decisions it opened (itself included)."""

    __slots__ = ("reads", "height")

    def __init__(self, module: _Module) -> None:
        self.reads: Dict[str, Optional[Tuple[int, int]]] = {module.path: module.key}
        self.height = 1


_STACK: List[_Frame] = []  # the functions being decided, outermost first
_BUILDING: Set[str] = set()  # the paths of their modules


def _valid(reads: Dict[str, Optional[Tuple[int, int]]], height: int, depth: int, own: Optional[str] = None) -> bool:
    """Would deciding afresh, ``depth`` decisions deep, read the same: no module it read is
    being decided now (that would be a cut), the chain fits under :data:`MAX_DEPTH`, and
    no module it read changed on disk?"""
    if depth + height > MAX_DEPTH:
        return False
    for path, key in reads.items():
        if path != own and path in _BUILDING or _stat_key(path) != key:
            return False
    return True


def _tensor_def(module: _Module, name: str) -> bool:
    """Does ``module``'s function ``name`` return a tensor on every path?  Decided when
    first asked, and remembered with what it read: a remembered answer is used only where
    deciding afresh would read the same (:func:`_valid`), so answers do not depend on the
    order of the questions.  A module whose function is being decided is not entered again
    (a cycle), nor one more than :data:`MAX_DEPTH` decisions deep: the answer is no, and
    neither it nor any answer that rests on it is remembered."""
    if name not in module.candidates:
        return False
    hit = module.decided.get(name)
    if hit is not None and _valid(hit[1], hit[2], len(_STACK)):
        _note(hit[1], hit[2])
        return hit[0]
    if module.path in _BUILDING or len(_STACK) >= MAX_DEPTH:
        _CUTS[0] += 1  # a cycle of calls across modules, or too long a chain
        return False
    frame = _Frame(module)
    _STACK.append(frame)
    _BUILDING.add(module.path)
    cuts = _CUTS[0]
    try:
        answer = module.decide(name)
    except (RecursionError, MemoryError, SyntaxError, ValueError):
        answer = False
    finally:
        _STACK.pop()
        _BUILDING.discard(module.path)
    if _CUTS[0] == cuts:
        module.decided[name] = (answer, frame.reads, frame.height)
    _note(frame.reads, frame.height)
    return answer


def _note(reads: Dict[str, Optional[Tuple[int, int]]], height: int) -> None:
    """The decision being made rests on an answer that read ``reads``."""
    if _STACK:
        frame = _STACK[-1]
        frame.reads.update(reads)
        frame.height = max(frame.height, height + 1)


def _structure_returns(func: ast.AST) -> bool:
    """Can ``func`` be summarised by its returns: a plain (undecorated, not async) function
    that is no generator and cannot fall off its end (its last statement is a ``return``)?"""
    if not isinstance(func, ast.FunctionDef) or func.decorator_list \
            or not func.body or not isinstance(func.body[-1], ast.Return):
        return False
    stack = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return False
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return True


_RETURN_WALKER = None


def _return_walker_class():
    """:class:`~.flow.FlowWalker`, walking no function unless asked, recording what each
    ``return`` of the function asked about evaluates to (every time it is walked)."""
    global _RETURN_WALKER
    if _RETURN_WALKER is not None:
        return _RETURN_WALKER
    from .flow import FlowWalker  # flow imports exprs, which imports this module

    class ReturnWalker(FlowWalker):
        @classmethod
        def of(cls, module: "_Module", tree: ast.Module):
            from ..engine import DEFAULT_OPTIONS
            from .visitor import NO_VISITOR

            w = cls(module.source, tree, NO_VISITOR, DEFAULT_OPTIONS)
            w.path = module.path
            w.target = None
            w.returned = []
            try:
                w.run()  # the module body; functions are only recorded (may_match is False)
            except RecursionError:
                w.walked = {}
            return w

        def may_match(self, node: ast.AST) -> bool:
            return node is self.target

        def s_Return(self, s):
            out = super().s_Return(s)
            if self.target is not None and self.function_of == id(self.target):
                self.returned.append(self.cache.get(id(s.value)) if s.value is not None else None)
            return out

        def function(self, func, outer, jit) -> None:
            saved = getattr(self, "function_of", None)
            self.function_of = id(func)
            try:
                super().function(func, outer, jit)
            finally:
                self.function_of = saved

        def returns_tensor(self, func: ast.AST) -> bool:
            entry = self.walked.get(id(func))
            if entry is None:
                return False
            self.target, self.returned, self.deferred = func, [], []
            try:
                self.function(func, entry[1], entry[2])
            except RecursionError:
                return False
            finally:
                self.target, self.deferred = None, []
            return bool(self.returned) and all(v is not None and v.kind == TENSOR for v in self.returned)

    _RETURN_WALKER = ReturnWalker
    return ReturnWalker


class _ReturnWalker:
    @staticmethod
    def of(module: "_Module", tree: ast.Module):
        return _return_walker_class().of(module, tree)


def _module_statements(tree: ast.AST):
    """The statements of the module's own scope, in its blocks too (``if``, ``try``), not
    in functions or classes."""
    stack = list(tree.body)  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(node, field, None) or ())


def _locals(func: ast.AST) -> Set[str]:
    """The names ``func``'s own scope binds (parameters, stores, imports, nested defs) or
    declares ``global``/``nonlocal``."""
    a = func.args  # type: ignore[attr-defined]
    out = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    out.update(p.arg for p in (a.vararg, a.kwarg) if p is not None)
    stack = list(func.body)  # type: ignore[attr-defined]
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


# ------------------------------------------------------------------ the disk, cached per process
_PARSED: Dict[str, Tuple[Tuple[int, int], Optional[_Module]]] = {}
# (path, version, name) -> (where it is defined, how many modules were looked in to find it)
_RESOLVED: Dict[Tuple[str, Optional[Tuple[int, int]], str], Tuple[Optional[Tuple[str, str]], int]] = {}
_PACKAGES: Dict[str, Optional[Tuple[str, str]]] = {}  # directory -> (root, its dotted name)


def _stat_key(path: str) -> Optional[Tuple[int, int]]:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


_TEXTS: Dict[str, Tuple[Tuple[int, int], Optional[str]]] = {}


def _text(path: str) -> Optional[str]:
    """The text of the module file at ``path``, read once per version of it (None:
    unreadable, not UTF-8, or no file)."""
    key = _stat_key(path)
    if key is None:
        return None
    cached = _TEXTS.get(path)
    if cached is not None and cached[0] == key:
        return cached[1]
    try:
        with open(path, "rb") as f:
            text: Optional[str] = f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        text = None
    _TEXTS[path] = (key, text)
    return text


def _module(path: str) -> Optional[_Module]:
    """The module file at ``path``, parsed once per version of it (None: unreadable,
    not Python, or no file).  Nothing is decided here (:func:`_tensor_def`)."""
    key = _stat_key(path)
    if key is None:
        return None
    cached = _PARSED.get(path)
    if cached is not None and cached[0] == key:
        return cached[1]
    source = _text(path)
    module: Optional[_Module] = None
    if source is not None:
        try:
            tree = ast.parse(source, path)
            module = _Module(path, key, source, tree)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            module = None
        else:
            if module.candidates:
                _live(module, tree)
    _PARSED[path] = (key, module)
    return module


_IMPORT_TEXT = re.compile(r"\bimport\b(?:\s*\([^)]*\)|(?:\\\n|[^\n])*)")


#: path -> (its text, the names its ``def`` statements bind at any depth, the words of its
#: imports, whether it holds a form that may bind names unseen: None until needed)
_WORDS: Dict[str, List] = {}
_DEF_TEXT = re.compile(r"^[ \t]*def[ \t]+(\w+)[ \t]*\(", re.M)


def _may_bind(path: str, text: str, name: str) -> bool:
    """A quick test of the text, before it is parsed: can the module bind ``name`` by a
    ``def`` whose text mentions ``torch`` or ``Tensor``, or re-export it by an import?
    (No: the answer is no, and the file is not parsed.)  The names of ``def`` statements
    and the words of imports are found once per text; a ``def`` of the name is read only
    where there is one.  A text that :data:`~.returns._RETURN_DYNAMIC_RE` matches binds
    no name once (:func:`~.returns.bound_once`: the parse would say no to every name)."""
    known = _WORDS.get(path)
    if known is None or known[0] is not text:
        known = _WORDS[path] = [text, set(_DEF_TEXT.findall(text)), None, None]
    if not _binds(text, name, known[1]):
        if name not in text:
            return False  # not even the word: no import of it either
        if known[2] is None:
            known[2] = {w for m in _IMPORT_TEXT.finditer(text) for w in re.findall(r"\w+", m.group(0))}
        if name not in known[2]:
            return False
    if known[3] is None:
        known[3] = _dynamic(text)
    return not known[3]


#: :data:`~.returns._RETURN_DYNAMIC_RE`, one alternative at a time, each after the words
#: it cannot match without (a substring test is much cheaper than the whole pattern)
_DYNAMIC_PARTS = tuple((words, re.compile(part)) for words, part in (
    (("exec", "eval"), r"(?<![.\w])(?:exec|eval)\b"), (("globals",), r"\bglobals\b"),
    (("locals",), r"\blocals\b"), (("vars",), r"\bvars\b"), (("builtins",), r"\bbuiltins\b"),
    (("__builtins__",), r"__builtins__"), (("__import__",), r"__import__"),
    (("import_module",), r"import_module"), (("importlib",), r"\bimportlib\b"),
    (("modules",), r"sys\s*\.\s*modules"), (("modules",), r"\bimport\b[^\n]*\bmodules\b"),
    (("__dict__",), r"__dict__")))


def _dynamic(text: str) -> bool:
    """``bool(_RETURN_DYNAMIC_RE.search(text))``, faster."""
    return any(any(w in text for w in words) and part.search(text) for words, part in _DYNAMIC_PARTS)


def _binds(text: str, name: str, defs: Set[str]) -> bool:
    """Does the text hold a ``def name(`` whose text mentions ``torch`` or ``Tensor``?"""
    if name not in defs:
        return False
    for m in re.finditer(r"^([ \t]*)def[ \t]+" + re.escape(name) + r"[ \t]*\(", text, re.M):
        indent = len(m.group(1))
        end = re.compile(r"^[ \t]{0,%d}[^ \t\n#)\]]" % indent, re.M).search(text, m.end())
        body = text[m.start():end.start() if end else len(text)]
        if "torch" in body or "Tensor" in body:
            return True
    return False


#: values a ``return`` can hand back that are never a tensor
_NOT_TENSOR = (ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.SetComp,
               ast.DictComp, ast.GeneratorExp, ast.JoinedStr, ast.Lambda)


def _def_says_no(text: str, name: str) -> bool:
    """Does the one ``def name(`` at the module's top level (column 0), parsed alone, show
    that no call of it is a tensor: decorated, ``async``, a generator, not ending in a
    ``return``, or with a ``return`` of nothing, a constant or a display?  (The module is
    then not parsed.)  False where it cannot tell: no such ``def`` or more than one, or its
    text does not parse alone."""
    found = [m.start() for m in re.finditer(r"^(?:async[ \t]+)?def[ \t]+" + re.escape(name) + r"[ \t]*\(", text, re.M)]
    if len(found) != 1:
        return False
    start = found[0]
    before = text[:start].rstrip()
    if before[before.rfind("\n") + 1:].startswith("@"):
        return True  # decorated
    end = _TOP_LEVEL_LINE.search(text, start + 1)
    try:
        tree = ast.parse(text[start:end.start() if end else len(text)])
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if len(tree.body) != 1 or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    func = tree.body[0]
    if not _structure_returns(func):
        return True
    stack: List[ast.AST] = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return) and (node.value is None or isinstance(node.value, _NOT_TENSOR)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
    return False


#: a line that starts a statement at the module's top level (the end of a ``def`` there)
_TOP_LEVEL_LINE = re.compile(r"^[^ \t\r\n\f#)\]}]", re.M)


def _may_rebind(text: str, name: str) -> bool:
    """A quick test of a package ``__init__``'s text: may it bind ``name`` (the word occurs,
    or a star import, or a form that binds unseen)?"""
    return bool(re.search(r"\b" + re.escape(name) + r"\b", text) or re.search(r"\bimport\s*\*", text)
                or _RETURN_DYNAMIC_RE.search(text))


def package_of(directory: str) -> Optional[Tuple[str, str]]:
    """For a directory that is a package (holds ``__init__.py``): the root absolute imports
    resolve from (the directory above the topmost package) and the directory's dotted name;
    None for a directory that is no package."""
    directory = os.path.abspath(directory)
    if directory in _PACKAGES:
        return _PACKAGES[directory]
    out: Optional[Tuple[str, str]] = None
    if os.path.isfile(os.path.join(directory, "__init__.py")):
        parent = os.path.dirname(directory)
        above = package_of(parent) if parent != directory else None
        name = os.path.basename(directory)
        if above is not None:
            out = (above[0], f"{above[1]}.{name}")
        elif name.isidentifier():
            out = (parent, name)
        if out is not None and not all(p.isidentifier() for p in out[1].split(".")):
            out = None
    _PACKAGES[directory] = out
    return out


def _file_of(root: str, dotted: str) -> Optional[str]:
    """The file of module ``dotted`` under ``root``: ``a/b/__init__.py`` or ``a/b.py``, every
    package on the way a regular one (with an ``__init__.py``).  Remembered per process
    (a file that appears or goes while the process runs is not seen)."""
    key = (root, dotted)
    if key in _FILES:
        return _FILES[key]
    parts = dotted.split(".")
    base = os.path.join(root, *parts)
    found: Optional[str] = None
    if len(parts) == 1 or _file_of(root, ".".join(parts[:-1])) == os.path.join(root, *parts[:-1], "__init__.py"):
        init = os.path.join(base, "__init__.py")
        if os.path.isfile(init):
            found = init
        elif os.path.isfile(base + ".py"):
            found = base + ".py"
    _FILES[key] = found
    return found


_FILES: Dict[Tuple[str, str], Optional[str]] = {}


class Project:
    """The package of one linted file, as the walker asks about it."""

    def __init__(self, path: str) -> None:
        found = package_of(os.path.dirname(os.path.abspath(path)))
        self.root, self.package = found if found is not None else (None, None)

    def top(self) -> Optional[str]:
        return self.package.split(".")[0] if self.package else None

    def absolute(self, level: int, module: Optional[str]) -> Optional[str]:
        """The dotted name ``from <level dots><module> import ...`` refers to from this file."""
        if not level:
            return module
        if self.package is None:
            return None
        parts = self.package.split(".")
        # in a package's __init__, one dot is the package itself; in a module, its package
        drop = level - 1
        if drop >= len(parts):
            return None
        base = parts[:len(parts) - drop]
        return ".".join(base + (module.split(".") if module else []))

    def returns_tensor(self, dotted: str, through: bool = True) -> bool:
        """Is ``dotted`` (``toppkg.mod.f``) a function of this project whose every call
        returns a tensor?  ``through``: the module is reached through its packages'
        namespaces (``import a.b as m``, ``a.b.f``), not found by its name (``from a.b
        import f``)."""
        if self.root is None or "." not in dotted or dotted.split(".")[0] != self.top():
            return False
        module, _, name = dotted.rpartition(".")
        if through and not self._reached(module):
            return False
        return _returns(self.root, module, name, MAX_DEPTH, set())

    def _reached(self, module: str) -> bool:
        """Does a dotted path to ``module`` go through packages whose ``__init__`` binds no
        name it goes through (``a/__init__.py`` binding ``b`` makes ``a.b`` that value)?"""
        parts = module.split(".")
        for i in range(1, len(parts)):
            init = _file_of(self.root, ".".join(parts[:i]))  # type: ignore[arg-type]
            if init is None:
                return False
            key = (init, _stat_key(init), parts[i])
            ok = _LEAVES.get(key)
            if ok is None:
                cuts = _CUTS[0]
                ok = _leaves(init, ".".join(parts[:i]), parts[i])
                if _CUTS[0] == cuts:
                    _LEAVES[key] = ok
            if not ok:
                return False
        return True


_LEAVES: Dict[Tuple[str, Optional[Tuple[int, int]], str], bool] = {}


def _leaves(init: str, package: str, name: str) -> bool:
    """Does the package ``__init__`` at ``init`` leave ``name`` to its submodule (bind it
    not at all, or only by importing that submodule)?"""
    text = _text(init)
    if text is not None and not _may_rebind(text, name):
        return True  # the word is nowhere in it: not parsed
    if text is not None and _dynamic(text):
        return False  # it may bind names unseen (what the parse would say): not parsed
    m = _module(init)
    if m is None or m.names.star or m.names.dynamic:
        return False
    bound = m.names.bindings[name]
    # `from . import b` binds the submodule itself
    return not bound or bound == 1 and m.from_imports.get(name) in ((1, None, name), (0, package, name))


def _returns(root: str, module: str, name: str, depth: int, seen: Set[Tuple[str, str]]) -> bool:
    """Is ``module.name`` (module under ``root``) a function whose every return is a torch
    constructor, following re-exports ``depth`` modules deep?"""
    found = _defining(root, module, name, depth, seen)[0]
    if found is None:
        return False
    m = _module(found[0])
    return m is not None and _tensor_def(m, found[1])


def _defining(root: str, module: str, name: str, depth: int,
              seen: Set[Tuple[str, str]]) -> Tuple[Optional[Tuple[str, str]], int]:
    """Where ``module.name`` is defined by a ``def`` that may return a tensor (the file and
    the function's name there; None where it is not, or may be something else), following
    re-exports ``depth`` modules deep, and in how many modules it was looked for."""
    if depth <= 0 or (module, name) in seen:
        _CUTS[0] += 1
        return None, 1
    seen.add((module, name))
    path = _file_of(root, module)
    if path is None:
        return None, 1
    key = (path, _stat_key(path), name)
    if _STACK:  # the answer being decided rests on this file as it is now
        _STACK[-1].reads[path] = key[1]
    hit = _RESOLVED.get(key)
    if hit is not None and hit[1] <= depth:  # found in as many modules as are left to look in
        return hit
    text = _text(path)
    if text is None or not _may_bind(path, text, name) or _def_says_no(text, name):
        _RESOLVED[key] = (None, 1)
        return None, 1  # the text alone says no: the file is not parsed
    cuts = _CUTS[0]
    m = _module(path)
    found: Optional[Tuple[str, str]] = None
    hops = 1
    is_package = os.path.basename(path) == "__init__.py"
    if m is None or not bound_once(name, m.names):
        pass
    elif name in m.def_names:
        # a submodule of the same name may replace the function in the package's namespace
        shadowed = is_package and _file_of(root, f"{module}.{name}") is not None
        if not shadowed and name in m.candidates:
            found = (path, name)
    elif name in m.from_imports:
        level, source, real = m.from_imports[name]
        origin = Project.__new__(Project)
        origin.root = root
        origin.package = module if is_package else module.rpartition(".")[0] or None
        target = origin.absolute(level, source)
        if target is not None and target.split(".")[0] == module.split(".")[0]:
            found, below = _defining(root, target, real, depth - 1, seen)
            hops += below
    if _CUTS[0] == cuts:  # a re-export cycle, or too long a chain: not remembered
        _RESOLVED[key] = (found, hops)
    return found, hops


_PROJECTS: Dict[str, Project] = {}
_CUTS = [0]  # how many answers were cut short (by a cycle, or MAX_DEPTH): those are not cached


_KNOWN = ("torch.", "numpy.", "math.")


def imported_call(walker, node: ast.Call, func: Value) -> Optional[Value]:
    """The value of the call ``node`` (its callee's value ``func``) where it calls a function
    the linted module imports from its own package (``f`` of ``from .m import f`` or of
    ``from pkg.m import f``, ``m.f`` of ``import pkg.m as m`` or of ``from . import m``) and
    that function is summarised as returning a tensor; None otherwise.  Looks at the disk
    only for names of the linted file's own package."""
    if func.qualname is not None:
        if func.qualname.startswith(_KNOWN):
            return None  # the library knowledge decides (also in torch's own sources)
        dotted: Optional[str] = func.qualname
        origin = walker.imported_from.get(id(func))
        # `from a.b import f` finds a.b in sys.modules: no package's namespace is gone through
        through = origin is None or origin[0] is not func
    elif func.local_def:
        dotted, through = _relative(walker, func, None), False
    elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
        base = walker.cache.get(id(node.func.value))  # `m` of `from . import m`
        dotted = None if base is None or not base.local_def else _relative(walker, base, node.func.attr)
        through = True
    else:
        return None
    if dotted is None:
        return None
    project = walker.__dict__.get("_project", False)
    if project is False:
        project = walker._project = project_for(walker.path)
    if project is not None and dotted.partition(".")[0] == project.top() \
            and project.returns_tensor(dotted, through):
        return Value(TENSOR, caveat=OTHER_MODULE)
    return None


def _relative(walker, value: Value, attr: Optional[str]) -> Optional[str]:
    """The dotted name a relative import bound ``value`` to (``.attr`` added), if it did."""
    origin = walker.imported_from.get(id(value))
    if origin is None or origin[0] is not value:
        return None
    project = walker.__dict__.get("_project", False)
    if project is False:
        project = walker._project = project_for(walker.path)
    base = None if project is None else project.absolute(origin[1], origin[2])
    if base is None:
        return None
    return f"{base}.{origin[3]}" + (f".{attr}" if attr else "")


def project_for(path: Optional[str]) -> Optional[Project]:
    """The project of the linted file at ``path`` (None: no file on disk, or in no package)."""
    if not path or not os.path.isfile(path):
        return None
    path = os.path.abspath(path)
    p = _PROJECTS.get(path)
    if p is None:
        p = _PROJECTS[path] = Project(path)
    return p if p.root is not None else None
