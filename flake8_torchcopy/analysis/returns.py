"""Return summaries: is a call of a module-level function a tensor?

A call of a module-level function (by the name its ``def`` bound) is a tensor when
every ``return`` of the function is a torch constructor, possibly followed by tensor
methods, the function cannot end otherwise, and its name is bound once in the module
(:func:`returns_tensor`): no second ``def``, assignment, import, ``for``/``with``
target, ``global`` declaration anywhere, ``from ... import *``, and no ``exec``/
``eval``/``globals()``/``vars()``/``sys.modules``/``__dict__`` in the module.  The
walker's own account of such names (``FlowWalker.rebound``) answers where it keeps one;
else the module's statements are counted here (:class:`ModuleNames`).
"""
from __future__ import annotations

import ast
import re
from collections import Counter
from typing import List, Optional, Set, cast

from .callsites import BLOCK_FIELDS
from .modulefacts import Qualname, _source_of, _tree_of
from .nodeindex import children
from .scopes import _FUNCS, SCOPES
from .torchapi import TENSOR_METHODS
from .torchsem import TENSOR_CONSTRUCTORS

# Forms that rebind module names without the tree showing it: as a name (called or
# imported), an attribute, or in the text
_RETURN_DYNAMIC_NAMES = frozenset(
    "exec eval globals locals vars builtins __builtins__ __import__ import_module".split())
_RETURN_DYNAMIC_ATTRS = frozenset("__dict__ import_module".split())
_RETURN_DYNAMIC_RE = re.compile(
    r"(?<![.\w])(?:exec|eval)\b|\bglobals\b|\blocals\b|\bvars\b|\bbuiltins\b|__builtins__|__import__"
    r"|import_module|\bimportlib\b|sys\s*\.\s*modules|\bimport\b[^\n]*\bmodules\b|__dict__")

#: :data:`_RETURN_DYNAMIC_RE`, one alternative at a time, each after a word it cannot match
#: without, and written to start with that word (a pattern that starts with a literal is
#: searched for as a literal; one that starts with ``\b`` or a lookbehind is tried at every
#: position): :func:`dynamic_text`
_DYNAMIC_PARTS = tuple((word, re.compile(part)) for word, part in (
    ("exec", r"exec\b(?<![.\w]exec)"), ("eval", r"eval\b(?<![.\w]eval)"),
    ("globals", r"globals\b(?<!\wglobals)"), ("locals", r"locals\b(?<!\wlocals)"),
    ("vars", r"vars\b(?<!\wvars)"), ("builtins", r"builtins\b(?<!\wbuiltins)"),
    ("__builtins__", r"__builtins__"), ("__import__", r"__import__"),
    ("import_module", r"import_module"), ("importlib", r"importlib\b(?<!\wimportlib)"),
    ("modules", r"sys\s*\.\s*modules"), ("__dict__", r"__dict__")))
_MODULES_WORD = re.compile(r"modules\b(?<!\wmodules)")
_IMPORT_WORD = re.compile(r"\bimport\b")


def dynamic_text(text: str) -> bool:
    """``bool(_RETURN_DYNAMIC_RE.search(text))``, many times faster."""
    if any(word in text and part.search(text) for word, part in _DYNAMIC_PARTS):
        return True
    if "modules" in text and "import" in text:  # `\bimport\b[^\n]*\bmodules\b`
        for m in _MODULES_WORD.finditer(text):
            line = text.rfind("\n", 0, m.start()) + 1
            if _IMPORT_WORD.search(text, line, m.start()):
                return True
    return False


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
        if source is None or "global" in source and _GLOBAL_RE.search(source):
            self.globals = {n for node in _all_statements(tree) if isinstance(node, ast.Global) for n in node.names}
        if source is not None:
            self.dynamic = dynamic_text(source)
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


def forget() -> None:
    """Drop the names kept for the tree last asked about (:func:`.flow.release`)."""
    _NAMES[:] = [None, None]


def module_names(tree: ast.AST, source: Optional[str] = None) -> ModuleNames:
    """The module's bindings (:class:`ModuleNames`), computed once for the module being walked."""
    if _NAMES[0] is not tree:
        _NAMES[:] = [tree, ModuleNames(tree, source)]
    return _NAMES[1]


# ------------------------------------------------------------------ returns
def own_nodes(func: ast.AST):
    """The nodes of a function's body, not those of functions, lambdas or classes inside it."""
    stack = list(func.body)  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, SCOPES):
            stack.extend(children(node))


#: tensor methods that keep a contiguous tensor contiguous (casts, moves, copies, views that
#: only split, merge, add or drop dims, in-place fills): what a chain of them returns may be
#: taken for a fresh tensor; after any other (``.t()``, ``.expand(...)``) its layout is not known
_LAYOUT_KEPT = frozenset("""float double half bfloat16 int long short bool byte char cfloat cdouble
    to cuda cpu type pin_memory contiguous clone detach detach_ requires_grad_ view reshape flatten
    unsqueeze squeeze zero_ fill_ normal_ uniform_ random_ bernoulli_ exponential_ add_ sub_ mul_
    div_ clamp_ copy_""".split())


def _is_tensor_expr(node: Optional[ast.AST], qualname: Qualname) -> bool:
    """``torch.<tensor function>(...)``, possibly followed by tensor methods that keep its
    layout (``.float()``; not ``.t()``: a reader would take the result for contiguous)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in TENSOR_METHODS and node.func.attr in _LAYOUT_KEPT \
            and qualname(node.func) is None:
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
    return exits_by_return(func) and all(
        _is_tensor_expr(node.value, qualname) for node in own_nodes(func) if isinstance(node, ast.Return)) \
        and def_bound_once(cast(ast.FunctionDef, func), qualname, tree)


def exits_by_return(func: ast.AST) -> bool:
    """Is ``func`` an undecorated, non-generator ``def`` that ends in a ``return`` (it cannot
    fall off its end and return None)?"""
    if not isinstance(func, ast.FunctionDef) or func.decorator_list \
            or not func.body or not isinstance(func.body[-1], ast.Return):
        return False  # decorated, async, or it may fall off its end and return None
    return not any(isinstance(node, (ast.Yield, ast.YieldFrom)) for node in own_nodes(func))


def def_bound_once(func: ast.FunctionDef, qualname: Qualname, tree: Optional[ast.AST] = None) -> bool:
    """Is the name of the module-level ``func`` bound only by its ``def`` (:func:`bound_once`)?"""
    if tree is None:
        # the walker's own account of the names a function cannot trust (bound twice, global,
        # a star import, exec/globals()), where it keeps one
        rebound = getattr(getattr(qualname, "__self__", None), "rebound", None)
        if isinstance(rebound, (set, frozenset)):
            return func.name not in rebound
    module_tree = _tree_of(qualname, tree)
    return module_tree is not None and bound_once(func.name, module_names(module_tree, _source_of(qualname)))
