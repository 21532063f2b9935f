"""What a star import of a module of the project binds (``from .spline import *``).

A star import binds the names of the module's ``__all__`` where it has one, else every
name of its namespace that does not start with ``_``.  Where the module is a file of the
linted file's own package on disk (:mod:`.project`), those names are found
(:func:`star_names`), each with what it is bound to:

- ``("import", qualname, origin)``: the module binds the name once, by an ``import``
  statement of its top level (``import torch``, ``import torch.nn as nn``, ``from torch
  import nn``; ``origin``: ``(module, name)`` of a ``from`` import, else None): the name is
  what that import gives, as if the linted file imported it so;
- ``("here", module, name)``: bound once at the top level by a ``def``, a ``class``, an
  assignment or a relative import: as if the linted file did ``from module import name``
  (the cross-module summaries follow it: :func:`.project.imported_call`);
- None: anything else (bound more than once, in a block, declared ``global`` in a
  function, a submodule of a package, a name of ``__all__`` the module does not bind):
  unknown.

The module's own star imports are followed (their names join its namespace; a name bound
both ways is unknown), :data:`~.projectdecide.MAX_DEPTH` modules deep, never around a cycle.
No answer (None: every name unknown, as before) where the module is not of the project, does
not read or parse, may bind names unseen (``exec``, ``globals()``, ``sys.modules``...), has a
star import in a block or one that finds no answer, or an ``__all__`` that is not one literal
list or tuple of strings named nowhere else in its text.  A package's ``__init__`` without
``__all__`` also exports the submodules something imported: every name in its directory is
unknown.  Answers are kept per version of each file they read.
"""
from __future__ import annotations

import ast
import builtins
import os
from typing import Dict, List, Optional, Set, Tuple

from .projectdecide import MAX_DEPTH
from .projectdisk import Version, absolute_from, file_of, stat_key
from .projectmodule import live, module_of, module_statements
from .values import UNKNOWN_VALUE, Value

Binding = Optional[Tuple]  # ("import", qualname, origin) / ("here", module, name) / None
Exports = Dict[str, Binding]

#: names of builtins: a star import binding one stops the walker trusting builtins
BUILTIN_NAMES = frozenset(n for n in dir(builtins) if not n.startswith("_"))

# (path, version) -> (the answer, {path: version} of the files it read)
_CACHE: Dict[Tuple[str, Optional[Version]], Tuple[Optional[Exports], Dict[str, Optional[Version]]]] = {}
_CUTS = [0]


def star_names(project, level: int, module: Optional[str]) -> Optional[Exports]:
    """The names ``from <level dots><module> import *`` binds in the linted file of
    ``project`` (a :class:`.project.Project`), each with its :data:`Binding`; None where
    they are not known."""
    if project is None or project.root is None:
        return None
    target = project.absolute(level, module)
    if target is None or target.split(".")[0] != project.top():
        return None  # another top-level package, not on disk: every name unknown
    return _exports(project.root, target, MAX_DEPTH, set())[0]


def walker_stars(walker, node: ast.ImportFrom) -> Optional[Exports]:
    """What the star import ``node`` of the module ``walker`` walks binds (None: not known;
    only for a linted file on disk), found once per walker."""
    if walker.path is None:
        return None
    known: Dict[int, Optional[Exports]] = walker.__dict__.setdefault("_star_names", {})
    if id(node) not in known:
        from .project import project_for  # it imports the walker's modules
        known[id(node)] = star_names(project_for(walker.path), node.level, node.module)
    return known[id(node)]


def bind(walker, node: ast.ImportFrom) -> bool:
    """Bind in the walker's environment what the star import ``node`` binds, where that
    is known (else False: nothing is bound).  A name the module bound before to anything
    else is unknown: the other module, partly run (a cycle of imports), may not have bound
    it yet, leaving the old value."""
    exports = walker_stars(walker, node)
    if exports is None:
        return False
    for name, binding in exports.items():
        if binding is None:
            new = UNKNOWN_VALUE
        elif binding[0] == "import":
            new = Value(qualname=binding[1])
            if binding[2] is not None:
                walker.imported_from[id(new)] = (new, 0, binding[2][0], binding[2][1])  # for .project
                walker.project_imports.add(name)
        else:
            new = Value(local_def=True)
            walker.imported_from[id(new)] = (new, 0, binding[1], binding[2])  # for .project
            walker.project_imports.add(name)
        old = walker.env.get(name)
        if old is not None and (old.qualname is None or old.qualname != new.qualname):
            new = UNKNOWN_VALUE
        walker.env[name] = new
    if not BUILTIN_NAMES.isdisjoint(exports):
        walker.star_imported = True  # it may shadow a builtin
    return True


def rebinds(exports: Exports) -> Dict[str, Optional[str]]:
    """For the module's bindings (:func:`.modulescan.module_rebound`): each name a star
    import binds -> the module an import binds it to (None: any other binding)."""
    return {n: b[1] if b is not None and b[0] == "import" else None for n, b in exports.items()}


def _exports(root: str, dotted: str, depth: int, seen: Set[str]) -> Tuple[Optional[Exports], Dict]:
    """(what a star import of ``dotted`` binds, the files that answer read)."""
    path = file_of(root, dotted)
    if path is None:
        return None, {}
    if depth <= 0 or dotted in seen:
        _CUTS[0] += 1  # a cycle, or too long a chain: nothing that rests on it is kept
        return None, {}
    key = (path, stat_key(path))
    hit = _CACHE.get(key)
    if hit is not None and all(stat_key(p) == k for p, k in hit[1].items()):
        return hit
    seen.add(dotted)
    reads: Dict[str, Optional[Version]] = {path: key[1]}
    cuts = _CUTS[0]
    try:
        out = _module_exports(root, dotted, path, depth, seen, reads)
    finally:
        seen.discard(dotted)
    if _CUTS[0] == cuts:
        _CACHE[key] = (out, reads)
    return out, reads


def _module_exports(root: str, dotted: str, path: str, depth: int, seen: Set[str],
                    reads: Dict[str, Optional[Version]]) -> Optional[Exports]:
    m = module_of(path)
    if m is None or m.names.dynamic:
        return None
    tree = live(m).tree
    is_package = os.path.basename(path) == "__init__.py"
    package = dotted if is_package else dotted.rpartition(".")[0]
    top: Dict[str, Tuple] = {}  # names bound by a statement of the top level, and how
    stars: List[Exports] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            for a in stmt.names:
                first = a.name.split(".")[0]
                top[a.asname or first] = ("import", a.name if a.asname else first, None)
        elif isinstance(stmt, ast.ImportFrom):
            if any(a.name == "*" for a in stmt.names):
                base = absolute_from(package, stmt.level, stmt.module)
                if base is None or base.split(".")[0] != dotted.split(".")[0]:
                    return None
                found, read = _exports(root, base, depth - 1, seen)
                if found is None:
                    return None
                reads.update(read)
                stars.append(found)
                continue
            for a in stmt.names:
                name = a.asname or a.name
                top[name] = ("import", f"{stmt.module}.{a.name}", (stmt.module, a.name)) if not stmt.level \
                    else ("here", dotted, name)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            top[stmt.name] = ("here", dotted, stmt.name)
        elif isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
            for t in stmt.targets:
                top[t.id] = ("here", dotted, t.id)  # type: ignore[attr-defined]
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None and isinstance(stmt.target, ast.Name):
            top[stmt.target.id] = ("here", dotted, stmt.target.id)
    if m.names.star and sum(1 for s in module_statements(tree) if isinstance(s, ast.ImportFrom)
                            and any(a.name == "*" for a in s.names)) != len(stars):
        return None  # a star import in a block: it may or may not run
    from_stars: Dict[str, List[Binding]] = {}
    for found in stars:
        for name, binding in found.items():
            from_stars.setdefault(name, []).append(binding)
    namespace: Exports = {}
    for name in set(m.names.bindings) | m.names.globals | set(from_stars):
        count = m.names.bindings[name] + len(from_stars.get(name, ()))
        once = count == 1 and name not in m.names.globals
        namespace[name] = (top.get(name) if name in top else from_stars[name][0] if name in from_stars
                           else None) if once else None
    listed = _all_of(m.source, tree)
    if listed is False:
        return None
    if listed is None:
        out = {n: b for n, b in namespace.items() if not n.startswith("_")}
    else:
        out = {n: namespace.get(n) for n in listed}
    if is_package:  # a submodule something imported is an attribute of the package
        for entry in _listdir(os.path.dirname(path)):
            name = entry.split(".")[0]
            if name.isidentifier() and name != "__init__" and (listed is None and not name.startswith("_")
                                                                or listed is not None and name in out):
                out[name] = None
    return out


def _all_of(source: str, tree: ast.Module):
    """The module's ``__all__``: None where it has none, False where it is not one literal
    list or tuple of strings, bound once at the top level and named nowhere else."""
    if "__all__" not in source:
        return None
    if source.count("__all__") != 1:
        return False
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stmt.targets[0].id == "__all__" and isinstance(stmt.value, (ast.List, ast.Tuple)) \
                and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in stmt.value.elts):
            return [e.value for e in stmt.value.elts]  # type: ignore[attr-defined]
    return False


def _listdir(directory: str) -> List[str]:
    try:
        return os.listdir(directory)
    except OSError:
        return []


def forget() -> None:
    """Forget every answer (as a new process would)."""
    _CACHE.clear()
