"""What the class-attribute summaries (:mod:`.summaries`) know of a module.

:class:`ModuleFacts` makes one pass over a module's statements (not their expressions)
to find the classes, what their bodies bind and whether the module defines
``__getattr__``/``__setattr__`` and the like; the rest walks only the nodes on the
lines where the names asked about occur (:func:`_lines_of`, scopes tracked by
:func:`_scoped_nodes`).  :func:`module_facts` keeps the facts of the module being
walked, :func:`_tree_of` the tree of a module no walker holds.  The helpers the
summaries share (a statement walk, a method's first parameter) live here too.
"""
from __future__ import annotations

import ast
import bisect
import unicodedata
from collections import Counter
from typing import Callable, Dict, List, Optional, Set, Tuple

from ..source import line_starts, word_offsets
from .callsites import BLOCK_FIELDS
from .scopes import _ANNOTATION, _FUNCS, _names_in, _Scope, _scoped_nodes

Qualname = Callable[[ast.AST], Optional[str]]


_REGISTER = ("register_buffer", "register_parameter")


#: calls that set an attribute of an nn.Module by the name they are given
_NAMED_SETTERS = frozenset(_REGISTER + ("add_module", "register_module"))


# Forms that store attributes or reach a method without the tree showing it, as a name
# (called or imported), an attribute, a method defined, or a string (the forms that
# rebind module names are :mod:`.returns`').
_ATTR_DYNAMIC_NAMES = frozenset(
    "setattr delattr vars exec eval builtins __builtins__ __import__ import_module globals locals".split())


_ATTR_DYNAMIC_ATTRS = frozenset(
    "__dict__ __setattr__ __delattr__ __getattribute__ __getattr__ __func__ _buffers _parameters "
    "_modules".split())


_ATTR_DYNAMIC_DEFS = frozenset("__getattr__ __getattribute__ __setattr__ __delattr__".split())


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _lines_of(source: Optional[str], words) -> Optional[List[int]]:
    """The lines (sorted) where one of ``words`` occurs as a word, as Python reads the text
    (NFKC); None (every line) when there is no text.  ``str.find`` per word (C speed)."""
    if source is None:
        return None
    if _STARTS[0] is not source:
        text = source if source.isascii() else unicodedata.normalize("NFKC", source)
        _STARTS[:] = [source, text, line_starts(text)]
    text, starts = _STARTS[1], _STARTS[2]
    found: Set[int] = set()
    for w in set(words):
        found.update(bisect.bisect_right(starts, i) for i in word_offsets(text, w))
    return sorted(found)


_STARTS: List = [None, None, None]  # (source, the text Python reads, its line starts)


#: words whose lines the store count also walks: calls that set attributes by name, a
#: dunder attribute stored, and names that store unseen when only referred to (``e = exec``;
#: the text test finds the other forms of :data:`_ATTR_DYNAMIC_NAMES` and the attributes)
_STORE_WORDS = frozenset(_NAMED_SETTERS) | {"__class__", "exec", "eval", "vars", "globals", "locals"}


class ModuleFacts:
    """What the class-attribute summaries need to know of a module.  One pass over its
    statements (not their expressions) finds the classes and what their bodies bind;
    the rest walks only the nodes on the lines where the names asked about occur."""

    def __init__(self, tree: ast.AST, source: Optional[str] = None) -> None:
        self.tree = tree
        self.source = source
        self.classes: Dict[str, List[ast.ClassDef]] = {}
        self.class_members: Set[str] = set()  # names bound in any class body
        self.attr_dynamic = False  # __getattr__/__setattr__... defined, a star import in a class
        self._open: Dict[int, bool] = {}
        self._edges: Dict[int, List[Tuple[Optional[str], ast.ClassDef]]] = {}  # X.m(self) calls
        self._statements(tree)

    def _statements(self, tree: ast.AST) -> None:
        stack = [tree]
        while stack:
            node = stack.pop()
            for field in BLOCK_FIELDS:
                for child in getattr(node, field, None) or ():
                    if isinstance(child, _FUNCS):
                        if child.name in _ATTR_DYNAMIC_DEFS:
                            self.attr_dynamic = True
                    elif isinstance(child, ast.ClassDef):
                        self.classes.setdefault(child.name, []).append(child)
                        self._members(child)
                    stack.append(child)

    def _members(self, cls: ast.ClassDef) -> None:
        """The names ``cls``'s body binds (at any block depth, not inside its functions)."""
        stack: List[ast.AST] = list(cls.body)
        while stack:
            stmt = stack.pop()
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.class_members.add(stmt.name)
                continue
            if isinstance(stmt, ast.ExceptHandler) and stmt.name:
                self.class_members.add(stmt.name)
            blocks = [c for f in BLOCK_FIELDS for c in getattr(stmt, f, None) or ()]
            stack.extend(blocks)
            inside = set(map(id, blocks))
            todo = [c for c in ast.iter_child_nodes(stmt) if id(c) not in inside]
            while todo:
                n = todo.pop()
                if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                    self.class_members.add(n.id)
                elif isinstance(n, ast.alias):
                    if n.name == "*":
                        self.attr_dynamic = True
                    self.class_members.add(n.asname or n.name.split(".")[0])
                elif isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
                    self.class_members.add(n.name)
                elif isinstance(n, ast.MatchMapping) and n.rest:
                    self.class_members.add(n.rest)
                if not isinstance(n, ast.Lambda):
                    todo.extend(c for c in ast.iter_child_nodes(n) if id(c) not in inside)

    # ------------------------------------------------------------------ the scan
    def vouch(self, cls: ast.ClassDef, attrs) -> Tuple[Counter, Counter, bool]:
        """For the attribute names ``attrs`` of ``cls``: how many nodes of the module store
        or delete each, how many register calls name each; and whether the module may store
        attributes unseen (a register call with a computed name, a dunder attribute stored,
        ``setattr``/``exec``... referred to) or run a method of ``cls`` with a ``self`` that
        is no instance of it (:meth:`is_open`).  One walk of the nodes on the lines where
        those names, the class's and its methods' occur."""
        stored, registered, dynamic, reached = self._scan(cls, set(attrs))
        key = id(cls)
        if key in self._open:
            self._edges.pop(key, None)
        else:
            self._open[key] = False  # C.m(self) in C itself: open only for another reason
            self._open[key] = reached or self._owners_open(cls)
        return stored, registered, dynamic or self._open[key]

    def is_open(self, cls: ast.ClassDef) -> bool:
        """May a method of ``cls`` run with a ``self`` that is no instance of it?  Yes when
        one of its methods is reached through a class object (``C.m``, ``cls.m``,
        ``type(x).m``, ``x.__class__.m``, ``super()`` outside a plain method) other than as
        ``C.m(self)`` in a class that derives from ``C`` and is not open itself, or named in
        a string (``getattr(C, "m")``); or when the class or a subclass of it is passed
        around as a value (``k = C; k.m(obj)``)."""
        key = id(cls)
        if key not in self._open:
            self._open[key] = False  # a cycle of C.m(self) calls: open only for another reason
            self._open[key] = self._scan(cls, set())[3] or self._owners_open(cls)
        return self._open[key]

    def _owners_open(self, cls: ast.ClassDef) -> bool:
        """Of the ``X.m(self)`` calls the last scan of ``cls`` found: one in a class that does
        not derive from ``X``, or in a class that is open itself?"""
        for named, owner in self._edges.pop(id(cls), ()):
            if named is not None and named not in {c.name for c in self._lineage(owner)}:
                return True  # an instance of another class passed as self
            if self.is_open(owner):
                return True
        return False

    def _scan(self, cls: ast.ClassDef, wanted: Set[str]) -> Tuple[Counter, Counter, bool, bool]:
        names = {c.name for c in self._descendants(cls)}
        methods = {s.name for s in cls.body if isinstance(s, _FUNCS)}
        stored: Counter = Counter()
        registered: Counter = Counter()
        dynamic = reached = False
        edges: List[Tuple[Optional[str], ast.ClassDef]] = []
        allowed: Set[int] = set()  # Name nodes where a class name is used, not passed around
        self_calls: Set[int] = set()  # Attribute nodes called with the instance first: C.m(self)
        words = wanted | names | methods | (_STORE_WORDS if self.source is not None else set())
        for node, scope in _scoped_nodes(self.tree, _lines_of(self.source, words)):
            t = type(node)
            if t is ast.Name:
                if isinstance(node.ctx, ast.Load):
                    if node.id in names and id(node) not in allowed and scope is not _ANNOTATION:
                        reached = True  # the class (or a subclass) passed around as a value
                    if node.id in _ATTR_DYNAMIC_NAMES:
                        dynamic = True
            elif t is ast.Attribute:
                attr = node.attr
                value = node.value
                if not isinstance(node.ctx, ast.Load):
                    if attr in wanted:
                        stored[attr] += 1
                    if _dunder(attr):
                        dynamic = True  # obj.__class__ = ..., obj.__dict__ = ...
                if attr in _ATTR_DYNAMIC_ATTRS:
                    dynamic = True
                if isinstance(value, ast.Name):
                    allowed.add(id(value))
                if attr in methods:
                    how = self._through_class(value, scope)
                    if how is not None:
                        if id(node) in self_calls and scope.cls is not None:
                            edges.append((how or None, scope.cls))
                        else:
                            reached = True
            elif t is ast.Constant:
                v = node.value
                if v in methods:
                    reached = True  # getattr(C, "m"), a table of method names
                if self.source is None and (v in _ATTR_DYNAMIC_NAMES or v in _ATTR_DYNAMIC_ATTRS):
                    dynamic = True  # getattr(obj, "__setattr__") (the text test finds it otherwise)
            elif t is ast.alias:
                parts = node.name.split(".")
                if {parts[0], parts[-1], node.asname} & _ATTR_DYNAMIC_NAMES:
                    dynamic = True  # from builtins import exec as run
            elif t is ast.Call:
                f = node.func
                args = node.args
                if isinstance(f, ast.Name):
                    allowed.add(id(f))
                    if f.id in ("isinstance", "issubclass") and len(args) == 2:
                        allowed.update(id(n) for n in _names_in(args[1]))
                    elif f.id == "super" and args and isinstance(args[0], ast.Name):
                        allowed.add(id(args[0]))
                elif isinstance(f, ast.Attribute):
                    if f.attr in _NAMED_SETTERS:
                        name = args[0] if args else next((k.value for k in node.keywords
                                                          if k.arg == "name"), None)
                        if isinstance(name, ast.Constant) and isinstance(name.value, str) \
                                and not any(isinstance(a, ast.Starred) for a in args) \
                                and all(k.arg is not None for k in node.keywords):
                            registered[name.value] += 1
                        else:
                            dynamic = True
                    if scope.self_name is not None and args and isinstance(args[0], ast.Name) \
                            and args[0].id == scope.self_name:
                        self_calls.add(id(f))  # X.m(self, ...): the instance passed explicitly
            elif t is ast.ClassDef:
                allowed.update(id(b) for b in node.bases if isinstance(b, ast.Name))
            elif t is ast.Compare:
                allowed.update(id(n) for n in [node.left] + node.comparators)
            elif t is ast.ExceptHandler:
                if node.type is not None:
                    allowed.update(id(n) for n in _names_in(node.type))
            elif t is ast.Raise:
                if node.exc is not None:
                    allowed.add(id(node.exc))
        self._edges[id(cls)] = edges
        return stored, registered, dynamic, reached

    def _bases(self, c: ast.ClassDef) -> List[ast.ClassDef]:
        return [b for n in c.bases if isinstance(n, ast.Name) for b in self.classes.get(n.id, ())]

    def _lineage(self, c: ast.ClassDef) -> List[ast.ClassDef]:
        """``c`` and its ancestors in the module."""
        out: Dict[int, ast.ClassDef] = {}
        todo = [c]
        while todo:
            k = todo.pop()
            if id(k) not in out:
                out[id(k)] = k
                todo.extend(self._bases(k))
        return list(out.values())

    def _descendants(self, c: ast.ClassDef) -> List[ast.ClassDef]:
        """``c`` and the classes of the module that derive from it."""
        every = [k for ks in self.classes.values() for k in ks]
        out = {id(c): c}
        grew = True
        while grew:
            grew = False
            for k in every:
                if id(k) not in out and any(id(b) in out for b in self._bases(k)):
                    out[id(k)] = k
                    grew = True
        return list(out.values())

    def _through_class(self, value: ast.AST, scope: _Scope) -> Optional[str]:
        """Is ``value`` (of ``value.m``) a class object, so that ``m`` is reached unbound?
        None: no (an instance); the class's name when it names a class of the module; ""
        when it is a class object by other means (``cls``, ``type(x)``, ``x.__class__``,
        ``super()`` outside a plain method)."""
        if isinstance(value, ast.Name):
            if value.id in scope.class_names:
                return ""  # cls.m in a class method
            return value.id if value.id in self.classes else None
        if isinstance(value, ast.Attribute) and value.attr == "__class__":
            return ""
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            if value.func.id == "type" and len(value.args) == 1:
                return ""
            if value.func.id == "super":
                # bound to the instance only in a plain method, as super() or super(C, self)
                a = value.args
                if scope.self_name is not None and (not a or len(a) == 2 and isinstance(a[1], ast.Name)
                                                    and a[1].id == scope.self_name):
                    return None
                return ""
        return None


_FACTS: List = [None, None]  # (tree, its ModuleFacts): the module being walked


_PARSED: List = [None, None]  # (source, its tree), where no walker holds the tree


def forget() -> None:
    """Drop the facts and the tree kept for the module last walked (:func:`.flow.release`):
    kept between files, a tree is walked by every full collection of the process."""
    _FACTS[:] = [None, None]
    _PARSED[:] = [None, None]


def module_facts(tree: ast.AST, source: Optional[str] = None) -> ModuleFacts:
    """The facts of ``tree`` (whose text is ``source``, if known), computed once for the
    module being walked."""
    if _FACTS[0] is not tree:
        _FACTS[:] = [tree, ModuleFacts(tree, source)]
    return _FACTS[1]


def _source_of(qualname: Qualname) -> Optional[str]:
    source = getattr(getattr(qualname, "__self__", None), "source", None)
    return source if isinstance(source, str) else None


def _tree_of(qualname: Qualname, tree: Optional[ast.AST]) -> Optional[ast.AST]:
    """The module: ``tree``, else the tree of the walker that owns ``qualname``, else its
    source parsed once; None when none is at hand (then no summary)."""
    if tree is not None:
        return tree
    owner = getattr(qualname, "__self__", None)
    tree = getattr(owner, "tree", None)
    if tree is not None:
        return tree
    source = _source_of(qualname)
    if source is None:
        return None
    if _PARSED[0] is not source:
        try:
            _PARSED[:] = [source, ast.parse(source)]
        except (SyntaxError, ValueError):
            return None
    return _PARSED[1]


def _statements(func: ast.AST):
    """The statements of a function, at any depth (nested functions' included, as
    ``ast.walk`` gives them), without descending into expressions."""
    stack = list(func.body)  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        yield node
        for field in BLOCK_FIELDS:
            stack.extend(getattr(node, field, ()) or ())
