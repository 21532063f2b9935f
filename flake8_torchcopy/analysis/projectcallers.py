"""Parameter summaries across modules: what a module-level function's parameters receive
from the calls in the other modules of its project.

A private function ``_f`` of the linted module M (a public one only under
``public-helpers``) that M shows closed (:mod:`.closedness`) may also be called by the
other modules of M's package (``from .m import _f``, ``from pkg.m import _f``, ``import
pkg.m as m; m._f(...)``).  :func:`other_calls` finds every such call and what it passes
each parameter (the walker run on that module), or says unknown (None) when some module
of the package may reach the function in a way not followed.  The text gate comes first:
a module where the name stands only as its own (its ``def``, a parameter, a call of its
own function, ``self._f``, prose) cannot name M's function (:mod:`.packageindex`); one where
it follows a quote (a string naming it) or an attribute of anything but a name
(``a.b._f``) is unknown at once; any other is parsed and must show, for every node naming it:

- a ``from X import _f`` (module level, no ``as``, bound once): X is M, and every other
  ``_f`` of the module is the callee of a call whose arguments bind (no ``*args``); or X
  is another module of the package that imports no ``_f`` itself and binds nothing unseen
  (then its ``_f`` is its own); or X is outside the package and not named like M;
- ``a._f``: ``a`` bound once at module level by an import of M, the callee of such a call;
  ``a`` an import of another module (as above), or ``self``/``cls``; anything else is unknown;
- any other ``_f`` (a def, a parameter, a local) is the module's own;

and hold no string with the word (``__all__``, ``getattr``, a doctest), no star import, no
form that binds names unseen (``exec``, ``globals()``).  A module that fails to read or
parse, a call the walk does not reach, or anything raised on the way is unknown too.  Only
the kind of each argument travels; a parameter a call leaves to its default is unknown
there.  Callers outside the package (tests, scripts) and reflection with computed names
(``importlib`` and ``getattr(m, name)``, as in the module itself) are still unseen: the
findings resting on this evidence are reports, their fixes unsafe
(:data:`~.values.OTHER_MODULE`, and :attr:`.flow.ModuleWalk.rests_on_public_calls`).

Cost: nothing runs until the walk has seeds to make for such a function (its calls in M
say something, or it has none there: :func:`.callsites.parameter_seeds`); the package's
files are read and indexed once per process (:mod:`.packageindex`), and only the files the
index names are looked at again (read again where they changed, parsed, walked).
"""
from __future__ import annotations

import ast
import os
from contextlib import suppress
from typing import Dict, List, Optional, Tuple, cast

from ..source import word_offsets
from .callsites import CallSites, ClosedFunction
from .nodeindex import select
from .packageindex import STAR_IMPORT, package_files
from .packageindex import forget as forget_packages
from .project import Project, project_for, reached
from .projectdisk import file_of, version
from .returns import ModuleNames, bound_once, dynamic_text
from .values import UNKNOWN_VALUE, Value

Record = Dict[str, Value]  # what one call passes each parameter



def module_name(project: Project, path: str) -> Optional[str]:
    """The dotted name of the module file at ``path`` of ``project`` (its directory's package)."""
    if project.package is None:
        return None
    stem = os.path.splitext(os.path.basename(path))[0]
    return project.package if stem == "__init__" else f"{project.package}.{stem}"


def _in_import(text: str, i: int) -> bool:
    """Is the occurrence at ``i`` in an import statement: on a line holding ``import``, or
    in a parenthesised list after one?  (Conservative: a line holding both words.)"""
    start = text.rfind("\n", 0, i) + 1
    end = text.find("\n", i)
    if "import" in text[start:end if end >= 0 else len(text)]:
        return True
    opened = text.rfind("(", 0, i)
    return opened >= 0 and text.rfind(")", opened, i) < 0 \
        and "import" in text[text.rfind("\n", 0, opened) + 1:opened]


def other_calls(path: str, funcs: List[ClosedFunction], options) -> Dict[int, Optional[List[Record]]]:
    """For each function of ``funcs`` (module-level functions of the module at ``path``,
    by ``id()`` of their def): what each of its calls in the other modules of its
    project passes; [] where none calls it; None: unknown.  Each module is parsed and
    walked once for all of them."""
    out: Dict[int, Optional[List[Record]]] = {id(f.node): None for f in funcs}
    project = project_for(path)
    if project is None or project.root is None:
        return out
    target = module_name(project, path)
    top = project.top()
    if target is None or top is None:
        return out
    package = package_files(project.root, top)
    if package.unreadable:
        return out  # a file that is no UTF-8 text may call them
    me = os.path.abspath(path)
    by_file: Dict[int, List[ClosedFunction]] = {}
    for f in funcs:
        name = f.node.name  # type: ignore[attr-defined]
        files = sorted(k for k in package.holding(name) if package.files[k] != me)
        texts = [version(package.files[k]) for k in files]
        if any(t is None or t.text is None or _surely_unknown(t.text, name) for t in texts):
            continue  # unknown before any file is parsed
        out[id(f.node)] = []
        for k in files:
            by_file.setdefault(k, []).append(f)
    for k, here in sorted(by_file.items()):
        live = [f for f in here if out[id(f.node)] is not None]
        if not live:
            continue
        other = package.files[k]
        file = version(other)
        try:
            found = {} if file is None or file.text is None else _calls_in(other, file.text, live, target, options)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            found = {}
        for f in live:
            records = found.get(id(f.node))
            got = out[id(f.node)]
            out[id(f.node)] = None if records is None or got is None else got + records
    return out


def _surely_unknown(text: str, name: str) -> bool:
    """What the parse would say unknown, seen in the text: the name right after a quote
    (a string naming it), an attribute of something other than a name (``a.b._f``,
    ``f()._f``), or a form that may bind names unseen."""
    for i in word_offsets(text, name):
        before = text[i - 1:i]
        if before in ("'", '"'):
            return True
        j = i - 1
        while j >= 0 and text[j] in " \t":
            j -= 1
        if j < 0 or text[j] != ".":
            continue
        j -= 1
        while j >= 0 and text[j] in " \t":
            j -= 1
        end = j + 1
        while j >= 0 and (text[j].isalnum() or text[j] == "_"):
            j -= 1
        if j + 1 == end or text[j:j + 1] == ".":
            return True  # `f()._f`, `a[0]._f`, `a.b._f`
    return dynamic_text(text)


class _Unknown(Exception):
    """A node naming the function that may reach it unseen."""


def _calls_in(path: str, text: str, funcs: List[ClosedFunction], target: str,
              options) -> Dict[int, Optional[List[Record]]]:
    """The records of the calls of each of ``funcs`` (functions of ``target``) in the
    module at ``path``, by ``id()`` of their def (absent: unknown)."""
    tree = ast.parse(text, path)
    project = Project(path)
    names = ModuleNames(tree, text)
    if names.star or names.dynamic:
        return {}
    calls: Dict[int, List[ast.Call]] = {}
    for f in funcs:
        with suppress(_Unknown):
            calls[id(f.node)] = _direct_calls(tree, project, names, f.node.name, target)  # type: ignore[attr-defined]
    return _passed(path, text, tree, calls, funcs, options)


def _resolve(project: Project, level: int, module: Optional[str]) -> Optional[str]:
    return project.absolute(level, module) if level else module


def _origin(project: Project, dotted: Optional[str], name: str, target: str) -> str:
    """What the module ``dotted`` is for the function ``target.name``: ``"target"`` (M
    itself), ``"own"`` (another module, whose ``name`` is not M's), ``"unknown"``."""
    if dotted is None:
        return "unknown"
    if dotted == target:
        return "target"
    top = target.split(".")[0]
    if dotted.split(".")[0] != top:
        # outside the project: another module, unless it may be M under another path
        return "unknown" if dotted.split(".")[-1] == target.split(".")[-1] else "own"
    if project.root is None or not reached(project.root, dotted):
        return "unknown"  # a package ``__init__`` on the way binds the name to something else
    found = file_of(project.root, dotted)
    file = None if found is None else version(found)
    if file is None or file.text is None:
        return "unknown"
    if dynamic_text(file.text) or STAR_IMPORT.search(file.text):
        return "unknown"
    # it binds ``name`` itself (a def, an assignment) or not at all: not M's, unless by an import
    # (an assignment from M's module object is a node naming the function there: looked at too)
    return "unknown" if _imports_word(file.text, name) else "own"


def _imports_word(text: str, name: str) -> bool:
    """Does an import statement of ``text`` name ``name``?  (Conservative, see :func:`_in_import`.)"""
    return any(_in_import(text, i) for i in word_offsets(text, name))


def _direct_calls(tree: ast.Module, project: Project, names: ModuleNames, name: str,
                  target: str) -> List[ast.Call]:
    """The calls of M's function in the module (raising :class:`_Unknown` where a node
    naming it may reach it otherwise).  One walk of the tree."""
    aliases: Dict[str, Optional[str]] = {}  # a module-level name bound by an import -> the module
    imported = False  # the module binds `name` by `from M import name`
    top_level = {id(n) for n in tree.body}
    callees: Dict[int, ast.Call] = {}
    named: List[ast.AST] = []  # the Name and Attribute nodes naming `name`
    for node in select(tree, (ast.Call, ast.Name, ast.Attribute, ast.Constant, ast.ImportFrom, ast.Import,
                              ast.Global, ast.Nonlocal)):  # the classes read below, in ast.walk's order
        t = type(node)
        if t is ast.Call:
            callees[id(node.func)] = cast(ast.Call, node)  # type: ignore[attr-defined]
        elif t is ast.Name:
            if node.id == name:  # type: ignore[attr-defined]
                named.append(node)
        elif t is ast.Attribute:
            if node.attr == name:  # type: ignore[attr-defined]
                named.append(node)
        elif t is ast.Constant:
            value = node.value  # type: ignore[attr-defined]
            if isinstance(value, bytes):
                value = value.decode("latin-1")
            if isinstance(value, str) and name in value and next(word_offsets(value, name), None) is not None:
                raise _Unknown  # __all__, getattr, a doctest
        elif t is ast.ImportFrom:
            base = _resolve(project, node.level, node.module)  # type: ignore[attr-defined]
            for a in node.names:  # type: ignore[attr-defined]
                bound = a.asname or a.name
                if a.name == name:
                    kind = _origin(project, base, name, target)
                    if kind == "unknown" or kind == "target" and (
                            a.asname or id(node) not in top_level or not bound_once(name, names)):
                        raise _Unknown
                    imported = imported or kind == "target"
                elif bound == name:
                    raise _Unknown  # something else imported under the name
                elif id(node) in top_level:
                    aliases[bound] = None if base is None else f"{base}.{a.name}"
        elif t is ast.Import:
            if id(node) in top_level:
                for a in node.names:  # type: ignore[attr-defined]
                    aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif t is ast.Global or t is ast.Nonlocal:
            if name in node.names:  # type: ignore[attr-defined]
                raise _Unknown
    calls: List[ast.Call] = []
    kinds: Dict[str, str] = {}
    for node in named:
        if isinstance(node, ast.Name):
            if not imported:
                continue  # the module's own name (a def, a local, a parameter)
            if not isinstance(node.ctx, ast.Load) or id(node) not in callees:
                raise _Unknown
            calls.append(callees[id(node)])
            continue
        base = node.value  # type: ignore[attr-defined]
        if isinstance(base, ast.Name) and base.id in ("self", "cls") and base.id not in aliases:
            continue  # a method or attribute of the instance or class
        if not isinstance(base, ast.Name) or base.id not in aliases or not bound_once(base.id, names):
            raise _Unknown
        if base.id not in kinds:
            kinds[base.id] = _origin(project, aliases[base.id], name, target)
        kind = kinds[base.id]
        if kind == "unknown":
            raise _Unknown
        if kind == "target":
            if not isinstance(node.ctx, ast.Load) or id(node) not in callees:  # type: ignore[attr-defined]
                raise _Unknown
            calls.append(callees[id(node)])
    return calls


def _passed(path: str, text: str, tree: ast.Module, calls: Dict[int, List[ast.Call]],
            funcs: List[ClosedFunction], options) -> Dict[int, Optional[List[Record]]]:
    """What each call of ``calls`` (by ``id()`` of the def called) passes, from one walk of
    the module by the walker the rules use, with no rule: only the functions around the
    calls; a function one of whose calls does not bind or is not reached is left out."""
    from .closedness import enclosing_defs
    from .flow import FlowWalker
    from .visitor import NO_VISITOR

    out: Dict[int, Optional[List[Record]]] = {}
    fresh = {id(f.node): ClosedFunction(f.node, method=False) for f in funcs if id(f.node) in calls}
    sites: Dict[int, ClosedFunction] = {}
    for key, here in fresh.items():
        if all(here.binds(c) for c in calls[key]):
            sites.update((id(c), here) for c in calls[key])
            out[key] = []
    if not sites:
        return out
    walker = FlowWalker(text, tree, NO_VISITOR, options)
    walker.path = path
    lines = sorted({c.lineno for key in out for c in calls[key]})
    walker.sites = CallSites(sites, enclosing_defs(list(tree.body), lines))
    walker.run()
    for key in list(out):
        here = fresh[key]
        records: List[Record] = []
        for c in calls[key]:
            got = walker.passed.get(id(c))
            if got is None:
                del out[key]
                break  # not walked (dead code, a class body the walk skips...)
            passed = {p for p, _ in zip(here.positional, c.args)} | {k.arg for k in c.keywords if k.arg}
            records.append({p: (got.get(p, UNKNOWN_VALUE) if p in passed else UNKNOWN_VALUE)
                            for p in here.params})
        else:
            out[key] = records
    return out


def forget() -> None:
    """Forget the package listings (as a new process would)."""
    forget_packages()


__all__: Tuple[str, ...] = ("other_calls", "package_files", "forget")
