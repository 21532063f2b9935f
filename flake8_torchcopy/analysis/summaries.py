"""Module summaries: what a class's own attributes hold, and what module-level functions return.

``self.gain = nn.Parameter(...)`` or ``self.register_buffer("mean", torch.zeros(3))``
in one method makes ``self.gain`` / ``self.mean`` a tensor in the others, when every
store of that attribute anywhere in the module is one of these, made on the method's
own ``self``, in that class (:func:`tensor_attributes`).  "Every store" is every node
the tree stores or deletes the attribute with: tuple and starred targets, ``for`` and
comprehension targets, ``with ... as``, augmented assignments and ``del`` count, and
so do ``register_buffer``/``register_parameter``/``add_module``/``register_module``
calls naming it on any object.  None is summarised where the module holds a form that
stores without showing it (``setattr``, ``__dict__``, ``vars``, ``exec``, ``__setattr__``,
``_buffers``...), a register call with a computed name, or where the class may run
with a ``self`` that is no instance of it (a method reached through the class object:
``Cls.method(other)``, ``cls.m``/``type(x).m``/``x.__class__.m``, ``super()`` in a
class method, ``__func__``, a method named in a string, the class passed around as a
value).  The class and its bases in the module must be undecorated, without keywords,
and derive from nothing but classes of the module, ``object`` and ``nn.Module`` (a base
from elsewhere may define a property, a setter or ``__setattr__``); the attribute must
be no member of any class of the module, and of ``nn.Module`` for a module; a register
call counts only in an ``nn.Module`` whose module defines no ``register_buffer`` of its
own.  Cost: the class's own stores are read the first time a method of the class
reads ``self.<attr>`` in code a rule looks at; the module is looked at only when a
candidate attribute (every store of it in the class a tensor) is read: one pass over its
statements, then a walk of only the nodes on the lines where the candidate attributes,
the class's and its subclasses' names and its methods' names occur.  Stores from other
modules (a subclass elsewhere, code setting the attribute from outside, an unbound call
from elsewhere) are not seen.

A call of a module-level function (by the name its ``def`` bound) is a tensor when
every ``return`` of the function is a torch constructor, possibly followed by tensor
methods, the function cannot end otherwise, and its name is bound once in the module
(:func:`returns_tensor`): no second ``def``, assignment, import, ``for``/``with``
target, ``global`` declaration anywhere, ``from ... import *``, and no ``exec``/
``eval``/``globals()``/``vars()``/``sys.modules``/``__dict__`` in the module.  The
walker's own account of such names (``FlowWalker.rebound``) answers where it keeps one;
else the module's statements are counted here.
"""
from __future__ import annotations

import ast
import bisect
import re
import unicodedata
import weakref
from collections import Counter
from collections.abc import Mapping
from typing import Callable, Dict, List, Optional, Set, Tuple

from ..source import line_starts, word_offsets
from .callsites import BLOCK_FIELDS, _spans_any
from .torchapi import MODULE_ATTRIBUTES, TENSOR_METHODS
from .torchsem import TENSOR_CONSTRUCTORS

Qualname = Callable[[ast.AST], Optional[str]]

_REGISTER = ("register_buffer", "register_parameter")
#: calls that set an attribute of an nn.Module by the name they are given
_NAMED_SETTERS = frozenset(_REGISTER + ("add_module", "register_module"))
_MODULE_BASES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})
#: methods whose first parameter is the class, not an instance
_CLASS_FIRST = frozenset({"__new__", "__init_subclass__", "__class_getitem__"})
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)

# Forms that store attributes, rebind module names or reach a method without the tree
# showing it, as a name (called or imported), an attribute, a method defined, or a string.
_ATTR_DYNAMIC_NAMES = frozenset(
    "setattr delattr vars exec eval builtins __builtins__ __import__ import_module globals locals".split())
_ATTR_DYNAMIC_ATTRS = frozenset(
    "__dict__ __setattr__ __delattr__ __getattribute__ __getattr__ __func__ _buffers _parameters "
    "_modules".split())
_ATTR_DYNAMIC_DEFS = frozenset("__getattr__ __getattribute__ __setattr__ __delattr__".split())
_RETURN_DYNAMIC_NAMES = frozenset(
    "exec eval globals locals vars builtins __builtins__ __import__ import_module".split())
_RETURN_DYNAMIC_ATTRS = frozenset("__dict__ import_module".split())


_STORE_RE = re.compile(r"\.(\w+)\s*(?:(?:[-+*/@%&|^]|//|\*\*|<<|>>)?=(?!=)|:)")


def store_counts(source: str) -> Counter:
    """Places in the text that may store ``.attr`` (``x.attr =``, ``x.attr +=``, ``x.attr:``):
    a quick test (a store elsewhere in the text leaves the attribute unknown at once); the
    tree decides the rest."""
    return Counter(m.group(1) for m in _STORE_RE.finditer(source))


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _first_param(func: ast.AST) -> Optional[str]:
    a = func.args  # type: ignore[attr-defined]
    params = a.posonlyargs + a.args
    return params[0].arg if params else None


def _decorator_names(func: ast.AST) -> Set[str]:
    out = set()
    for d in func.decorator_list:  # type: ignore[attr-defined]
        d = d.func if isinstance(d, ast.Call) else d
        if isinstance(d, ast.Name):
            out.add(d.id)
        elif isinstance(d, ast.Attribute):
            out.add(d.attr)
    return out


class _Scope:
    """Where the walk is: ``kind`` module/class/function; ``self_name``: the parameter that
    holds the instance (in a plain method, and in functions nested in one); ``cls``: that
    method's class; ``class_names``: parameters that hold a class (``cls`` of a class
    method, and in functions nested in one)."""

    __slots__ = ("kind", "self_name", "cls", "class_names")

    def __init__(self, kind: str, self_name: Optional[str] = None, cls: Optional[ast.ClassDef] = None,
                 class_names: frozenset = frozenset()) -> None:
        self.kind = kind
        self.self_name = self_name
        self.cls = cls
        self.class_names = class_names


_MODULE_SCOPE = _Scope("module")
_ANNOTATION = _Scope("annotation")  # a class named in an annotation is not passed around


def _params(func: ast.AST):
    a = func.args  # type: ignore[attr-defined]
    return a.posonlyargs + a.args + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p is not None]


def _names_in(node: ast.AST):
    """``C`` or the names of a tuple ``(A, B)``: the classes of an ``isinstance`` or ``except``."""
    if isinstance(node, ast.Name):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [e for e in node.elts if isinstance(e, ast.Name)]
    return []


def _children(node: ast.AST, scope: _Scope) -> List[Tuple[ast.AST, _Scope]]:
    """The child nodes of ``node``, each with the scope it is evaluated in: a function's
    decorators, defaults and annotations in the enclosing one, its body in its own."""
    t = type(node)
    if t in _FUNCS:
        a = node.args  # type: ignore[attr-defined]
        outer = list(node.decorator_list) + a.defaults + [d for d in a.kw_defaults if d is not None]  # type: ignore[attr-defined]
        notes = [p.annotation for p in _params(node) if p.annotation is not None]
        if node.returns is not None:  # type: ignore[attr-defined]
            notes.append(node.returns)  # type: ignore[attr-defined]
        params = {p.arg for p in _params(node)}
        first = _first_param(node)
        decorators = _decorator_names(node)
        name = node.name  # type: ignore[attr-defined]
        if scope.kind == "class" and "staticmethod" not in decorators:
            if "classmethod" in decorators or name in _CLASS_FIRST:
                inner = _Scope("function", None, scope.cls, scope.class_names | ({first} if first else set()))
            else:
                inner = _Scope("function", first, scope.cls, scope.class_names - params)
        else:
            inner = _Scope("function", None if scope.self_name in params else scope.self_name,
                           scope.cls, scope.class_names - params)
        return [(n, scope) for n in outer] + [(n, _ANNOTATION) for n in notes] \
            + [(s, inner) for s in node.body]  # type: ignore[attr-defined]
    if t is ast.ClassDef:
        outer = node.decorator_list + node.bases + [k.value for k in node.keywords]  # type: ignore[attr-defined]
        inner = _Scope("class", None, node, scope.class_names)  # type: ignore[arg-type]
        return [(n, scope) for n in outer] + [(s, inner) for s in node.body]  # type: ignore[attr-defined]
    if t is ast.Lambda:
        a = node.args  # type: ignore[attr-defined]
        params = {p.arg for p in _params(node)}
        inner = _Scope("function", None if scope.self_name in params else scope.self_name,
                       scope.cls, scope.class_names - params)
        return [(d, scope) for d in a.defaults + [d for d in a.kw_defaults if d is not None]] \
            + [(node.body, inner)]  # type: ignore[attr-defined]
    if t is ast.AnnAssign:
        return [(c, _ANNOTATION if c is node.annotation else scope)  # type: ignore[attr-defined]
                for c in ast.iter_child_nodes(node)]
    return [(c, scope) for c in ast.iter_child_nodes(node)]


def _scoped_nodes(tree: ast.AST, lines: Optional[List[int]]):
    """``(node, scope)`` for the nodes whose line span holds one of ``lines`` (sorted; every
    node when None), parents before their children, entering no node that spans none."""
    stack: List[Tuple[ast.AST, _Scope]] = [(tree, _MODULE_SCOPE)]
    while stack:
        node, scope = stack.pop()
        yield node, scope
        for child, inner in _children(node, scope):
            if lines is None or not hasattr(child, "lineno") or _spans_any(child, lines):
                stack.append((child, inner))


def _lines_of(source: Optional[str], words) -> Optional[List[int]]:
    """The lines (sorted) where one of ``words`` occurs as a word, as Python reads the text
    (NFKC); None (every line) when there is no text.  ``str.find`` per word (C speed)."""
    if source is None:
        return None
    if _STARTS[0] is not source:
        text = source if source.isascii() else unicodedata.normalize("NFKC", source)
        _STARTS[:] = [source, text, line_starts(text)]
    text, starts = _STARTS[1], _STARTS[2]
    found = set()
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


# the text of forms that store attributes without the tree showing the store: a quick
# test, before the tree's walk (which also finds ``e = exec`` and the like)
_ATTR_DYNAMIC_TEXT = ("setattr", "delattr", "__dict__", "__builtins__", "__import__", "import_module",
                      "__getattr", "__func__")
_ATTR_DYNAMIC_WORDS = ("builtins", "_buffers", "_parameters", "_modules")
_ATTR_DYNAMIC_CALLS = ("exec", "eval", "vars", "globals", "locals")
_TEXT_CACHE: List = [None, None]  # (source, whether its text has a dynamic form)


def _has_word(source: str, w: str, call: bool) -> bool:
    """Does ``w`` occur in the text as a whole word (``call``: not after a ``.``, and
    followed by ``(``)?  ``str.find`` (C speed) and a look at the neighbours."""
    n = len(w)
    i = source.find(w)
    while i >= 0:
        before = source[i - 1] if i else " "
        j = i + n
        after = source[j:j + 1]
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            if not call:
                return True
            while source[j:j + 1] in (" ", "\t"):
                j += 1
            if before != "." and source[j:j + 1] == "(":
                return True
        i = source.find(w, i + n)
    return False


def _attr_dynamic_text(source: str) -> bool:
    """Does the text hold a form that stores attributes unseen (``setattr``, ``vars(``,
    ``exec(``, ``_buffers``...)?  Computed once per module."""
    if _TEXT_CACHE[0] is not source:
        found = any(t in source for t in _ATTR_DYNAMIC_TEXT) \
            or any(_has_word(source, w, False) for w in _ATTR_DYNAMIC_WORDS) \
            or any(_has_word(source, w, True) for w in _ATTR_DYNAMIC_CALLS)
        _TEXT_CACHE[:] = [source, found]
    return _TEXT_CACHE[1]


# ... and that bind module names unseen
_RETURN_DYNAMIC_RE = re.compile(
    r"(?<![.\w])(?:exec|eval)\b|\bglobals\b|\blocals\b|\bvars\b|\bbuiltins\b|__builtins__|__import__"
    r"|import_module|\bimportlib\b|sys\s*\.\s*modules|\bimport\b[^\n]*\bmodules\b|__dict__")


class ModuleNames:
    """How often the module's scope binds each name (``def``, ``class``, assignment and
    augmented assignment, ``for``/``with``/``except``/``match``/``:=`` targets, imports,
    ``del``), the names some ``global`` statement declares, a star import, and whether the
    module holds a form that binds names unseen (``exec``, ``globals()``, ``sys.modules``...).
    Only the module's own statements are walked (and the ``global`` statements, where the
    text has the word)."""

    def __init__(self, tree: ast.AST, source: Optional[str]) -> None:
        self.bindings: Counter = Counter()
        self.globals: Set[str] = set()
        self.star = False
        self.dynamic = False
        stack = list(ast.iter_child_nodes(tree))
        while stack:
            node = stack.pop()
            t = type(node)
            if t in _FUNCS or t is ast.ClassDef:
                self.bindings[node.name] += 1  # type: ignore[attr-defined]
                stack.extend(node.decorator_list)  # type: ignore[attr-defined]
                if t is ast.ClassDef:
                    stack.extend(node.bases + [k.value for k in node.keywords])  # type: ignore[attr-defined]
                else:
                    a = node.args  # type: ignore[attr-defined]
                    stack.extend(a.defaults + [d for d in a.kw_defaults if d is not None])
                continue
            if t is ast.Lambda:
                a = node.args  # type: ignore[attr-defined]
                stack.extend(a.defaults + [d for d in a.kw_defaults if d is not None])
                continue
            if t is ast.Name:
                if not isinstance(node.ctx, ast.Load):  # type: ignore[attr-defined]
                    self.bindings[node.id] += 1  # type: ignore[attr-defined]
                elif source is None and node.id in _RETURN_DYNAMIC_NAMES:  # type: ignore[attr-defined]
                    self.dynamic = True
                continue
            if t is ast.Import or t is ast.ImportFrom:
                for alias in node.names:  # type: ignore[attr-defined]
                    if alias.name == "*":
                        self.star = True
                    else:
                        self.bindings[alias.asname or alias.name.split(".")[0]] += 1
            elif t is ast.ExceptHandler or t is ast.MatchAs or t is ast.MatchStar:
                if node.name:  # type: ignore[attr-defined]
                    self.bindings[node.name] += 1  # type: ignore[attr-defined]
            elif t is ast.MatchMapping:
                if node.rest:  # type: ignore[attr-defined]
                    self.bindings[node.rest] += 1  # type: ignore[attr-defined]
            elif getattr(ast, "TypeAlias", None) is t:
                self.bindings[node.name.id] += 1  # type: ignore[attr-defined]
            stack.extend(ast.iter_child_nodes(node))
        if source is None or _GLOBAL_RE.search(source):
            self.globals = {n for node in _all_statements(tree) if isinstance(node, ast.Global) for n in node.names}
        if source is not None:
            self.dynamic = bool(_RETURN_DYNAMIC_RE.search(source))
        else:
            self.dynamic = self.dynamic or any(
                isinstance(n, ast.Name) and n.id in _RETURN_DYNAMIC_NAMES
                or isinstance(n, ast.Attribute) and (n.attr in _RETURN_DYNAMIC_ATTRS or n.attr == "modules")
                or isinstance(n, ast.alias) and (n.name in _RETURN_DYNAMIC_NAMES or n.name == "modules")
                for n in ast.walk(tree))


_GLOBAL_RE = re.compile(r"\bglobal\b")


def _all_statements(tree: ast.AST):
    """Every statement of the module, in functions and classes too (no expression is entered:
    ``global`` is a statement)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for field in BLOCK_FIELDS:
            stack.extend(getattr(node, field, None) or ())


_NAMES: List = [None, None]  # (tree, its ModuleNames)


def module_names(tree: ast.AST, source: Optional[str] = None) -> ModuleNames:
    """The module's bindings (:class:`ModuleNames`), computed once for the module being walked."""
    if _NAMES[0] is not tree:
        _NAMES[:] = [tree, ModuleNames(tree, source)]
    return _NAMES[1]


# ------------------------------------------------------------------ class attributes
def _class_stores(cls: ast.ClassDef, registers: bool):
    """The stores of ``cls``'s methods on their own first parameter: ``{attr: [value nodes]}``
    (None for a value that is no plain assignment), and how many of them are assignment
    targets and register calls."""
    values: Dict[str, List[Optional[ast.AST]]] = {}
    assigned: Counter = Counter()
    registered: Counter = Counter()
    for func in cls.body:
        if not isinstance(func, _FUNCS):
            continue
        me = _first_param(func)
        if me is None:
            continue
        for node in ast.walk(func) if registers else _statements(func):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me:
                        plain = not isinstance(node, ast.AugAssign) and node.value is not None
                        values.setdefault(t.attr, []).append(node.value if plain else None)
                        assigned[t.attr] += 1
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in _REGISTER and isinstance(node.func.value, ast.Name)
                  and node.func.value.id == me and node.args and isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[0].value, str)):
                name = node.args[0].value
                value = _registered_value(node)
                values.setdefault(name, []).append(value)
                registered[name] += 1
    return values, assigned, registered


def _registered_value(call: ast.Call) -> Optional[ast.AST]:
    """The tensor of ``register_buffer("n", t)`` / ``register_parameter("n", p)`` (also as
    ``tensor=``/``param=``, with ``persistent=``); None for any other form."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    kw = {k.arg: k.value for k in call.keywords}
    if set(kw) - {"tensor", "param", "persistent"}:
        return None
    if len(call.args) == 2 and not (set(kw) & {"tensor", "param"}):
        return call.args[1]
    if len(call.args) == 1:
        found = [kw[k] for k in ("tensor", "param") if k in kw]
        return found[0] if len(found) == 1 else None
    return None


def _own_bases(cls: ast.ClassDef, qualname: Qualname) -> Optional[bool]:
    """What ``cls``'s own line says, before the module is looked at: None when a decorator,
    a keyword or a base from elsewhere that is not ``nn.Module`` may give it attributes the
    module does not show; else whether a base is ``nn.Module``."""
    if cls.decorator_list or cls.keywords:
        return None
    module = False
    for b in cls.bases:
        q = qualname(b)
        if q in _MODULE_BASES:
            module = True
        elif q is not None or not isinstance(b, ast.Name):
            return None  # imported, or an expression
    return module


def _class_shape(cls: ast.ClassDef, facts: ModuleFacts, qualname: Qualname) -> Optional[bool]:
    """None when the class may hold attributes the module does not show (a decorator, a
    keyword, a base from elsewhere that is not ``nn.Module``, a base bound twice, its own
    or an ancestor's); else whether it derives from ``nn.Module``."""
    module = False
    seen: Set[int] = set()
    todo = [cls]
    while todo:
        c = todo.pop()
        if id(c) in seen:
            continue
        seen.add(id(c))
        if c.decorator_list or c.keywords:
            return None
        for b in c.bases:
            if isinstance(b, ast.Name) and b.id in facts.classes:
                found = facts.classes[b.id]
                if len(found) != 1:
                    return None
                todo.append(found[0])
            elif isinstance(b, ast.Name) and b.id == "object":
                continue
            elif qualname(b) in _MODULE_BASES:
                module = True
            else:
                return None
    return module


class _Attributes(Mapping):
    """``{attr: True}`` for a class, decided on the first lookup of a candidate (the
    module's facts are then computed, once): a class none of whose candidates is read
    where a rule looks costs no walk of the module.  It holds the walker's ``qualname``
    weakly: the walker keeps it, and a cycle would outlive the walk."""

    def __init__(self, cls: ast.ClassDef, candidates: List[str], qualname: Qualname,
                 tree: Optional[ast.AST], assigned: Counter, registered: Counter) -> None:
        self._candidates = frozenset(candidates)
        self._pending: Optional[tuple] = (cls, candidates, _weak(qualname), tree, assigned, registered)
        self._out: Dict[str, bool] = {}

    def _decided(self) -> Dict[str, bool]:
        if self._pending is not None:
            cls, candidates, ref, tree, assigned, registered = self._pending
            self._pending = None
            qualname = ref()
            self._out = {} if qualname is None else _decide(cls, candidates, qualname, tree, assigned, registered)
        return self._out

    def get(self, key, default=None):
        if key not in self._candidates:
            return default
        return self._decided().get(key, default)

    def __getitem__(self, key):
        return self._decided()[key]

    def __iter__(self):
        return iter(self._decided())

    def __len__(self) -> int:
        return len(self._decided())

    def __repr__(self) -> str:
        return repr(self._decided())


def _weak(f: Callable) -> Callable[[], Optional[Callable]]:
    """A weak reference to a bound method (a strong one to anything else)."""
    try:
        return weakref.WeakMethod(f)
    except TypeError:
        return lambda: f


def tensor_attributes(cls: ast.ClassDef, stores_in_module: Counter, qualname: Qualname,
                      registers: bool = True, tree: Optional[ast.AST] = None) -> Mapping:
    """``{attr: True}`` for the attributes of ``cls`` proven to hold a tensor (decided when
    a candidate is first looked up); ``stores_in_module``: :func:`store_counts` of the
    module's source (a quick test); ``registers``: the class's text holds ``register_``
    (else only assignment statements are looked at, not every expression node: the same
    answer, cheaper); ``tree``: the module (else the walker that owns ``qualname`` gives
    it)."""
    values, assigned, registered = _class_stores(cls, registers)
    candidates = [attr for attr, vals in values.items()
                  if not _dunder(attr) and stores_in_module[attr] == assigned[attr]
                  and all(isinstance(v, ast.Call) and qualname(v.func) in TENSOR_CONSTRUCTORS for v in vals)]
    if not candidates or _own_bases(cls, qualname) is None:
        return {}
    return _Attributes(cls, candidates, qualname, tree, assigned, registered)


def _decide(cls: ast.ClassDef, candidates: List[str], qualname: Qualname, tree: Optional[ast.AST],
            assigned: Counter, registered: Counter) -> Dict[str, bool]:
    """The candidates (every store of each in the class a tensor) that the module vouches for."""
    source = _source_of(qualname)
    if source is not None and _attr_dynamic_text(source):
        return {}  # setattr, vars, exec, __dict__, _buffers... somewhere in the text
    module_tree = _tree_of(qualname, tree)
    if module_tree is None:
        return {}
    facts = module_facts(module_tree, source if tree is None else None)
    if facts.attr_dynamic:
        return {}
    module = _class_shape(cls, facts, qualname)
    if module is None:
        return {}
    kept = [a for a in candidates if a not in facts.class_members and not (module and a in MODULE_ATTRIBUTES)]
    if not kept:
        return {}  # each a method, property or class attribute of some class (or nn.Module's)
    stored, named, dynamic = facts.vouch(cls, kept)
    if dynamic:
        return {}
    own_register = bool(facts.class_members & set(_REGISTER))
    out = {}
    for attr in kept:
        if stored[attr] != assigned[attr] or named[attr] != registered[attr]:
            continue  # stored or registered somewhere else
        if registered[attr] and (not module or own_register):
            continue  # a register_buffer that is not nn.Module's
        out[attr] = True
    return out


def _statements(func: ast.AST):
    """The statements of a function, at any depth (nested functions' included, as
    ``ast.walk`` gives them), without descending into expressions."""
    stack = list(func.body)  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        yield node
        for field in BLOCK_FIELDS:
            stack.extend(getattr(node, field, ()) or ())


# ------------------------------------------------------------------ returns
def _own_nodes(func: ast.AST):
    """The nodes of a function's body, not those of functions, lambdas or classes inside it."""
    stack = list(func.body)  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


def _is_tensor_expr(node: Optional[ast.AST], qualname: Qualname) -> bool:
    """``torch.<tensor function>(...)``, possibly followed by tensor methods (``.float()``)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in TENSOR_METHODS and qualname(node.func) is None:
        node = node.func.value
    return isinstance(node, ast.Call) and qualname(node.func) in TENSOR_CONSTRUCTORS


def bound_once(name: str, names: ModuleNames) -> bool:
    """Is the module-level ``name`` bound exactly once in the module, with nothing that may
    rebind it unseen (``global name`` in a function, ``import *``, ``exec``, ``globals()``)?"""
    return names.bindings[name] == 1 and name not in names.globals and not names.star \
        and not names.dynamic


def returns_tensor(func: ast.AST, qualname: Qualname, tree: Optional[ast.AST] = None) -> bool:
    """Does every way out of a module-level, undecorated, non-generator ``func`` return a
    tensor made by a torch constructor (``return torch.as_tensor(x).float()``), and is its
    name bound only by its ``def`` (:func:`bound_once`)?  ``tree``: the module (else the
    walker that owns ``qualname`` gives it)."""
    if not isinstance(func, ast.FunctionDef) or func.decorator_list \
            or not func.body or not isinstance(func.body[-1], ast.Return):
        return False  # decorated, async, or it may fall off its end and return None
    for node in _own_nodes(func):
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return False
        if isinstance(node, ast.Return) and not _is_tensor_expr(node.value, qualname):
            return False
    if tree is None:
        # the walker's own account of the names a function cannot trust (bound twice, global,
        # a star import, exec/globals()), where it keeps one
        rebound = getattr(getattr(qualname, "__self__", None), "rebound", None)
        if isinstance(rebound, (set, frozenset)):
            return func.name not in rebound
    module_tree = _tree_of(qualname, tree)
    return module_tree is not None and bound_once(func.name, module_names(module_tree, _source_of(qualname)))
