"""Module-wide facts that make local evidence inexact, read once per module on demand.

A function sees module-level names when it is *called*, not when it is defined: a
name bound twice at module level (``torch = Wrapper(torch)`` after the function, a
``def tensor`` below it), declared ``global`` somewhere, or stored through ``exec``,
``globals()`` or a star import may hold any of those values.  A module may also set
a default device (which moves what ``torch.tensor`` builds) or replace
``torch.tensor`` itself.  Each question here errs towards "yes": a "yes" only makes
a fix unsafe or a name unknown.
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Dict, Iterator, List, Optional, Set, cast

from ..textsearch import AnyOf
from .datastores import may_store_data
from .nodeindex import children, select, walk
from .torchstores import replaces_torch, torch_aliases

#: what a star import binds, where it is known (:func:`.starimports.rebinds`)
Stars = Callable[[ast.ImportFrom], Optional[Dict[str, Optional[str]]]]


def holds_view(ev) -> bool:
    """Does the module's text hold ``view(``?  Looked for once per walker ``ev`` (the answer
    kept where :mod:`.selfmethods` keeps it)."""
    known = ev.__dict__.get("_has_view")
    if known is None:
        known = ev.__dict__["_has_view"] = "view(" in ev.source
    return known


def defines_method(ev, name: str) -> bool:
    """Does the module's text hold ``def name(``?  Looked for once per walker and name."""
    known = ev.__dict__.setdefault("_defines", {})
    found = known.get(name)
    if found is None:
        found = known[name] = f"def {name}(" in ev.source
    return found


# a tensor's sizes and strides changed in place: y.t_(), y.set_(t), y.data = t (the name,
# in a string too: getattr(y, "t_")); checked with torch in tests/test_inplace_layouts.py
# (led by the literals: a name's closing ``_``, then which name it closes; an alternation of
# names would be tried at every position of the text)
_LAYOUT_CHANGED = AnyOf([r"_(?!\w)(?:%s)" % "|".join(r"(?<=\b%s)" % n for n in (
    "t_", "transpose_", "swapdims_", "swapaxes_", "squeeze_", "unsqueeze_", "set_", "as_strided_", "resize_",
    "resize_as_")), r"\.data\s*=(?!=)", r"swap_tensors", r"__setstate__"])


def changes_layouts_in_place(ev) -> bool:
    """May the module change a tensor's layout in place (an alias's, a callee's param's: not
    followed)?  A look at its text, once per walker."""
    known = ev.__dict__.get("_inplace_layouts")
    if known is None:
        known = ev.__dict__["_inplace_layouts"] = bool(_LAYOUT_CHANGED.search(ev.source)) \
            or may_store_data(ev.source, getattr(ev, "tree", None))  # (y.data) = t, setattr(y, "data", t)
    return known


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _module_level(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node evaluated in the module's own scope (not inside a def, class or lambda
    body; decorators, defaults and bases are, and so are comprehensions' ``:=``)."""
    stack = children(tree)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _SCOPES):
            if isinstance(node, ast.Lambda):
                stack.extend(node.args.defaults + [d for d in node.args.kw_defaults if d])
                continue
            stack.extend(getattr(node, "decorator_list", []))
            if isinstance(node, ast.ClassDef):
                stack.extend(node.bases + [k.value for k in node.keywords])
            else:
                a = node.args
                stack.extend(a.defaults + [d for d in a.kw_defaults if d])
            continue
        stack.extend(children(node))


def _statements(tree: ast.AST, walrus: bool) -> Iterator[ast.AST]:
    """The module scope's statements (into compound statements, not into def or class
    bodies), their ``except`` handlers, ``with`` items and ``match`` patterns; with
    ``walrus`` (the text has ``:=``), every node evaluated in the module scope instead."""
    if walrus:
        yield from _module_level(tree)
        return
    stack = list(tree.body)  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _SCOPES):
            continue
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(node, name, None) or ())
        if isinstance(node, (ast.With, ast.AsyncWith)):
            stack.extend(node.items)
        elif isinstance(node, ast.match_case):
            stack.extend(ast.walk(node.pattern))


def _target_names(t: ast.AST) -> Iterator[str]:
    if isinstance(t, ast.Name):
        yield t.id
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            yield from _target_names(e)
    elif isinstance(t, ast.Starred):
        yield from _target_names(t.value)


def _bindings(tree: ast.AST, walrus: bool, stars: Optional[Stars] = None) -> Dict[str, List[Optional[str]]]:
    """Each name the module scope binds -> one entry per binding: the module an import
    binds it to, ``None`` for any other binding.  ``"*"``: a star import whose names
    ``stars`` does not know (it gives, for a star import, each name it binds and the module
    an import binds it to: :func:`.starimports.rebinds`)."""
    seen: Dict[str, List[Optional[str]]] = {}
    fallbacks = _optional_import_fallbacks(tree)
    for node in _statements(tree, walrus):
        cls = node.__class__  # (a parsed tree's nodes are of the node classes themselves)
        if cls is ast.Import:
            for a in node.names:  # type: ignore[attr-defined]
                name = a.asname or a.name.split(".")[0]
                seen.setdefault(name, []).append(a.name if a.asname else name)
        elif cls is ast.ImportFrom:
            node = cast(ast.ImportFrom, node)
            known = stars(node) if stars is not None and node.names[0].name == "*" else None
            if known is not None:
                for name, what in known.items():
                    seen.setdefault(name, []).append(what)
                continue
            for a in node.names:
                what = None if node.level or a.name == "*" else f"{node.module}.{a.name}"
                seen.setdefault(a.asname or a.name, []).append(what)
        elif cls in _BINDERS and id(node) not in fallbacks:
            for name in _bound_here(node):
                seen.setdefault(name, []).append(None)
    return seen


def module_bindings(ev) -> Dict[str, List[Optional[str]]]:
    """:func:`_bindings` of the module walked by ``ev``, kept for the module."""
    if "_module_bindings" not in ev.__dict__:
        ev.__dict__["_module_bindings"] = _bindings(ev.tree, ":=" in ev.source, getattr(ev, "_star_rebinds", None))
    return ev.__dict__["_module_bindings"]


_BUILTINS_STORE_RE = re.compile(r"\bbuiltins\s*\.\s*\w+\s*=(?!=)|setattr\(\s*builtins\b")


def builtin(ev, name: str) -> bool:
    """Is ``name``, read where ``ev`` is, certainly the builtin?  Not where a scope the walk sees
    binds it (``env``, ``outer``), nor where the module may: a star import, any binding of its own
    scope (a ``def list`` below the function), ``exec``/``globals()``, a store into ``builtins``."""
    if name in ev.env or name in ev.outer or ev.star_imported:
        return False
    known = ev.__dict__.get("_builtins_free")
    if known is None:
        known = ev.__dict__["_builtins_free"] = not (
            getattr(ev, "dynamic_stores", True) or ev.has["builtins"] and _BUILTINS_STORE_RE.search(ev.source))
    return known and name not in module_bindings(ev) and name not in getattr(ev, "globals_", ())


def _same_import(whats: List[Optional[str]]) -> bool:
    return whats[0] is not None and all(w == whats[0] for w in whats)


def _optional_import_fallbacks(tree: ast.AST) -> Set[int]:
    """``id()`` of each ``name = None`` in an ``except ImportError`` handler: the optional-dependency idiom
    (where the import failed, every use of the name fails as it did), not a rebinding."""
    out: Set[int] = set()
    for node in _statements(tree, False):
        if not isinstance(node, ast.Try):
            continue
        for h in node.handlers:
            names = [t.id if isinstance(t, ast.Name) else getattr(t, "attr", None)
                     for t in (h.type.elts if isinstance(h.type, ast.Tuple) else [h.type])]
            if names and all(n in ("ImportError", "ModuleNotFoundError") for n in names):
                out.update(id(s) for s in h.body if isinstance(s, ast.Assign)
                           and isinstance(s.value, ast.Constant) and s.value.value is None)
    return out


def module_rebound(tree: ast.AST, declared_global: frozenset, walrus: bool = True,
                   dynamic: bool = False, stars: Optional[Stars] = None,
                   seen: Optional[Dict[str, List[Optional[str]]]] = None) -> frozenset:
    """Module-level names a function cannot take at the value they had when it was
    defined: bound more than once (other than the same import again), declared
    ``global`` in a function, or any name at all when the module has a star import
    whose names ``stars`` does not know (what it binds, and when, is not known); with
    ``dynamic`` (``exec``, ``globals()``...), every name the module binds other than by
    imports.  ``seen``: :func:`module_bindings`' answer, where the caller has it."""
    if seen is None:
        seen = _bindings(tree, walrus, stars)
    if "*" in seen:
        return frozenset(seen) | declared_global
    return frozenset(n for n, whats in seen.items()
                     if not _same_import(whats) and (len(whats) > 1 or dynamic)) | declared_global


#: the classes of the nodes :func:`_bound_here` finds names bound by (it is asked of no other)
_BINDERS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AugAssign, ast.AnnAssign,
                      ast.For, ast.AsyncFor, ast.comprehension, ast.withitem, ast.NamedExpr, ast.ExceptHandler,
                      ast.Delete, ast.MatchAs, ast.MatchStar, ast.MatchMapping})


def _bound_here(node: ast.AST) -> Iterator[str]:
    """Names a node other than an import binds in the scope it is evaluated in."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.name
    elif isinstance(node, ast.Assign):
        for t in node.targets:
            yield from _target_names(t)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
        if not isinstance(node, ast.AnnAssign) or node.value is not None:
            yield node.target.id
    elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
        yield from _target_names(node.target)
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        yield from _target_names(node.optional_vars)
    elif isinstance(node, ast.NamedExpr):
        yield node.target.id
    elif isinstance(node, ast.ExceptHandler) and node.name:
        yield node.name
    elif isinstance(node, ast.Delete):
        for t in node.targets:
            yield from _target_names(t)
    elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
        yield node.name
    elif isinstance(node, ast.MatchMapping) and node.rest:
        yield node.rest


# --------------------------------------------------------------- default device
# (``default_device`` also catches a name spelled in pieces: ``"set_" + "default_device"``)
_DEVICE_SETTERS_RE = re.compile(r"default_device|default_tensor_type|set_default_[\"']|__enter__|enter_context"
                                r"|DeviceContext|_device_constructors|\bTorchFunctionMode\b|__torch_function__")


_STAR_RE = re.compile(r"\bimport\s*\*")


def names_a_default_device(source: str) -> bool:
    """Does the module's text name a way to set a default device (``set_default_device``,
    ``__enter__``, a torch function mode...), beyond a ``with`` of something a device
    flows into (which :func:`may_set_default_device` also counts)?"""
    return bool(_DEVICE_SETTERS_RE.search(source))


def may_set_default_device(source: str, tree: ast.AST, stars: Optional[Stars] = None) -> bool:
    """Can this module put a default device in force (``torch.set_default_device``,
    ``set_default_tensor_type``, a ``torch.device`` entered as a context manager under
    any alias, through ``__enter__`` or an ``ExitStack``, a torch function mode)?

    Read from the text and the ``with`` statements: a ``with`` item whose expression
    mentions ``device``, or a name or attribute the module binds from an expression that
    mentions it (``dev = torch.device``, ``from torch import device as D``,
    ``self.cm = torch.device("meta")``), or a function of the module whose text does, or a
    name a star import of the project binds (``stars``), other than by an import of no device."""
    if names_a_default_device(source):
        return True
    if "with" not in source or "device" not in source.lower() and (stars is None or not _STAR_RE.search(source)):
        return False
    devicey: Set[str] = set()
    for node in select(tree, (ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.NamedExpr,
                              ast.FunctionDef, ast.AsyncFunctionDef)):
        if isinstance(node, ast.ImportFrom):
            known = stars(node) if stars is not None and node.names[0].name == "*" else None
            if known is not None:  # any name it binds but an import of no device
                devicey.update(n for n, what in known.items() if what is None or "device" in what.lower())
            for a in node.names:
                if "device" in a.name.lower() or a.name == "*":
                    devicey.add(a.asname or a.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
            value = node.value
            if value is not None and "device" in ast.unparse(value).lower():
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for sub in walk(t):
                        if isinstance(sub, ast.Name):
                            devicey.add(sub.id)
                        elif isinstance(sub, ast.Attribute):
                            devicey.add(sub.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if "device" in ast.unparse(node).lower():
                devicey.add(node.name)
    for node in select(tree, (ast.With, ast.AsyncWith)):
        for item in node.items:  # type: ignore[attr-defined]
            expr = item.context_expr
            if "device" in ast.unparse(expr).lower():
                return True
            for sub in walk(expr):
                if isinstance(sub, ast.Name) and sub.id in devicey:
                    return True
                if isinstance(sub, ast.Attribute) and sub.attr in devicey:
                    return True
    return False


def may_replace_attribute(source: str, tree: ast.AST, name: str) -> bool:
    """Does the module store into an attribute called ``name`` (``torch.zeros = f``), or
    call ``setattr`` on torch (under any ``import torch as`` alias) or write its
    ``__dict__``?  (``setattr(self, ...)`` is everywhere in nn code and is not torch.)"""
    alt = "|".join(torch_aliases(source))
    if "setattr" in source or "__dict__" in source or "vars(" in source:
        if re.search(rf"setattr\(\s*(?:{alt})\b|\b(?:{alt})\.__dict__|vars\(\s*(?:{alt})\s*\)", source):
            return True  # setattr(torch, "zeros", f), torch.__dict__[...] = f
    if name not in source:
        return False
    if "patch" in source and re.search(  # mock.patch("torch.zeros"), patch.object(torch, "zeros")
            rf"""["']torch\.{name}["']|\b(?:{alt})\s*,\s*(?:["']{name}["']|[^)]*\b{name}\s*=)""",
            source):
        return True
    for node in select(tree, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
        for t in targets:
            for sub in walk(t):
                if isinstance(sub, ast.Attribute) and sub.attr == name \
                        and isinstance(sub.ctx, ast.Store):
                    return True
    return False


#: stores that may give tensors another class or other methods (the word, then the pattern):
#: ``t.__class__ = MyT``, ``torch.Tensor.clone = f``, ``setattr(torch.Tensor, ...)``,
#: ``mock.patch.object(torch.Tensor, "detach", f)``, ``mock.patch("torch.Tensor.detach")``,
#: ``type(t).detach = f`` (each pattern led by a literal, searched only where the text holds
#: it); a store is any use not plainly a read (``t.__class__, _ = MyT, 0``, ``for t.__class__
#: in ...``; ``{self.__class__}`` is a read)
_RETYPES = (("__class__", re.compile(r"__class__(?!\s*(?:[.()}]|[=!]=|![rsa]\b|is\b))")),
            ("type(", re.compile(r"type\([^()]*\)\.\w+\s*=(?!=)")))
#: the patterns that name ``Tensor`` (asked only of a text that holds it); a store into an
#: attribute of it, or its name in a string (``"torch.Tensor.detach"``)
_TENSOR_RETYPES = (("Tensor.", re.compile(r"""Tensor\.\w+(?:\s*(?:=(?!=)|,|\bin\b)|["'])""")),
                   ("setattr", re.compile(r"setattr\(\s*(?:\w+\.)?Tensor\b")),
                   ("object(", re.compile(r"object\(\s*[\w.]*Tensor\s*,")),
                   ("multiple(", re.compile(r"multiple\(\s*[\w.]*Tensor\s*,")),
                   ("__setattr__(", re.compile(r"__setattr__\(\s*[\w.]*Tensor\s*,")))


_RETYPED: List = [None, False]  # (the last source asked about, its answer): asked per walker


def may_retype(source: str) -> bool:
    """May the module give tensors another class or replace their methods (the patterns
    above, also through a name bound to ``torch.Tensor``: ``from torch import Tensor as
    T`` then ``T.detach = f``)?"""
    if _RETYPED[0] is not source:
        _RETYPED[:] = [source, _may_retype(source)]
    return _RETYPED[1]


#: ``T = torch.Tensor``: a line that ends in ``Tensor`` (led by the literal: a fast search),
#: then what stands before it on the line
_TENSOR_AT_END = re.compile(r"Tensor[ \t\r]*$", re.M)  # a CRLF line too
_ASSIGNED_AT_END = re.compile(r"=[ \t]*(?:[\w.]+\.)?\Z")
_TENSOR_AS = re.compile(r"Tensor\s+as\s+(\w+)")
_BOUND_NAME = re.compile(r"[ \t]*(\w+)[ \t]*(?::[^=\n]*)?\Z")


def _may_retype(source: str) -> bool:
    if any(word in source and pattern.search(source) for word, pattern in _RETYPES):
        return True
    if replaces_torch(source):
        return True
    if "Tensor" not in source:
        return False
    if any(word in source and pattern.search(source) for word, pattern in _TENSOR_RETYPES):
        return True
    # ``import Tensor as T``, ``import (Tensor as T, ...)`` too: any ``Tensor as T`` (led by the literal)
    aliases = set(_TENSOR_AS.findall(source))
    for m in _TENSOR_AT_END.finditer(source):
        line = source.rfind("\n", 0, m.start()) + 1
        assigned = _ASSIGNED_AT_END.search(source, line, m.start())
        named = assigned and _BOUND_NAME.match(source, line, assigned.start())
        if named:
            aliases.add(named.group(1))
    if not aliases:
        return False
    alt = "|".join(sorted(aliases))
    return re.search(rf"\b(?:{alt})\.\w+\s*(?:=(?!=)|,|\bin\b)|(?:setattr|object|multiple|__setattr__)"
                     rf"\(\s*(?:{alt})\s*,", source) is not None


def may_script(source: str) -> bool:
    """May the module compile its own functions with TorchScript by a call
    (``g = torch.jit.script(f)``, ``jit.script(model)``, anything imported from
    ``torch.jit``)?  There ``torch.tensor`` differs (``torch.tensor(t)`` of a 0-dim int32
    ``t`` is float32). The decorators are seen where they stand (:mod:`.statements`)."""
    return "jit" in source and re.search(
        r"\bjit\s*\.\s*(?:script|script_if_tracing)\s*\(|\bfrom\s+torch\.jit\s+import\b",
        source) is not None


_TRACE_CALL = re.compile(r"\btrace(?:_module)?\s*\(|\bonnx\s*\.\s*export\s*\(")


def may_trace(source: str) -> bool:
    """May the module trace its own functions (``torch.jit.trace(f, ...)``, ``trace_module``,
    ``torch.onnx.export``, which traces)?  The tracer records what ``t.numpy()`` returns as a
    constant of the trace, where ``t.detach().clone()`` stays an op on ``t``: any ``trace(``
    or ``onnx.export(`` call in a module whose text mentions ``jit`` or ``onnx``."""
    return ("jit" in source or "onnx" in source) and _TRACE_CALL.search(source) is not None
