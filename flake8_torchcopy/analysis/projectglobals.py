"""Module globals of another module of the project: ``from matgl.utils.maths import ROOTS``
where ``maths`` binds ``ROOTS`` once, at its top level, to a tensor a torch constructor
makes (``ROOTS = torch.tensor(np.load(...))``).

Read where the linted module reads the name (:func:`imported_global`, asked by the walker
for a name a ``from`` import of the linted file's own package bound, or a star import of one
as :mod:`.starimports` finds it): a tensor, with the caveat
:data:`~.values.OTHER_MODULE`, where the module defining it (found on disk as functions are,
:mod:`.project`, following re-exports ``from .maths import ROOTS`` up to
:data:`~.projectdecide.MAX_DEPTH` modules) binds the name exactly once in its module scope
(:func:`~.returns.bound_once`: no ``global`` of it in a function, no star import, no
``exec``/``globals()``...), by an assignment of its top level (not in a block: it runs
whenever the module is imported), whose value is a torch constructor possibly followed by
tensor methods (:func:`~.returns.returns_tensor`'s test), with the module's own imports.  A
package ``__init__`` whose submodule of that name may replace it is not followed.  The
other module may still be given another value by a third (``maths.ROOTS = ...`` before the
import runs): the report stands, a fix resting on it is unsafe.

Cost: asked once per imported name per linted file, and only for names of the project; the
other module's text must hold the name at the start of a line (an assignment of its top
level) or, in a package ``__init__`` (the only re-exports followed), in an import
before it is parsed.
"""
from __future__ import annotations

import ast
import os
from typing import Dict, Optional, Set, Tuple

from .projectdecide import MAX_DEPTH
from .projectdisk import Version, absolute_from, file_of, stat_key, version
from .projectmodule import module_of
from .projecttext import dynamic, may_import
from .returns import _is_tensor_expr, bound_once
from .values import OTHER_MODULE, TENSOR, Value

#: packages whose names are never a project's globals (.project leaves torch's to the library knowledge)
LIBRARIES = frozenset({"torch", "numpy", "math", "typing", "__future__", "collections", "os", "sys", "functools",
                       "itertools", "dataclasses", "abc", "enum", "re", "warnings", "contextlib", "copy"})
#: (path, version, name) -> is it a global bound once to a tensor there
_DECIDED: Dict[Tuple[str, object, str], bool] = {}
#: (root, module, name) -> (the answer, {path: version} of the files it read)
_ANSWERS: Dict[Tuple[str, str, str], Tuple[bool, Dict[str, Optional[Version]]]] = {}


def imported_global(walker, node: ast.Name, v: Value) -> Optional[Value]:
    """What reading the name ``node`` bound to ``v`` (an import's value) gives, where it
    is a tensor global of another module of the project; else None.  Decided once per
    value; not asked of a callee or a CamelCase name (a class), nor without a path."""
    name = node.id
    if node is walker.callee or walker.path is None or name[:1].isupper() and not name.isupper():
        return None
    known: Dict[int, Optional[Value]] = walker.__dict__.setdefault("_imported_globals", {})
    key = id(v)
    if key in known:
        return known[key]
    origin = walker.imported_from.get(key)
    if origin is None or origin[0] is not v:
        return None  # not an import's value (kept alive by the walker, so its id is its own)
    out: Optional[Value] = None
    from .project import _dotted  # it imports the walker's modules
    found = _dotted(walker, None, v, None)
    split = None if found is None else found[0]._split(found[1], found[2])
    if split is not None and _cached_global(*split):
        out = Value(TENSOR, caveat=OTHER_MODULE)
    known[key] = out
    return out


def _cached_global(root: str, module: str, name: str) -> bool:
    """:func:`_tensor_global`, remembered per process with the files it read (each
    checked for a new version when asked again)."""
    key = (root, module, name)
    hit = _ANSWERS.get(key)
    if hit is not None and all(stat_key(p) == k for p, k in hit[1].items()):
        return hit[0]
    reads: Dict[str, Optional[Version]] = {}
    answer = _tensor_global(root, module, name, MAX_DEPTH, set(), reads)
    _ANSWERS[key] = (answer, reads)
    return answer


def _tensor_global(root: str, module: str, name: str, depth: int, seen: Set[Tuple[str, str]],
                   reads: Dict[str, Optional[Version]]) -> bool:
    """Is ``module.name`` a global its module binds once, at its top level, to a torch
    constructor's tensor (following re-exports ``depth`` modules deep)?"""
    if depth <= 0 or (module, name) in seen:
        return False
    seen.add((module, name))
    path = file_of(root, module)
    file = None if path is None else version(path)
    if path is not None:
        reads[path] = None if file is None else file.key
    if path is None or file is None or file.text is None or name not in file.text:
        return False
    assigned = _assigned_line(file.text, name)
    is_package = os.path.basename(path) == "__init__.py"
    # (cost: a re-export is followed from a package's __init__ only)
    if not assigned and not (is_package and may_import(file, name)) or dynamic(file):
        return False  # the text alone says no: not parsed
    if is_package and file_of(root, f"{module}.{name}") is not None:
        return False  # the submodule, once imported, replaces the name in the package
    m = module_of(path)
    if m is None or not bound_once(name, m.names):
        return False
    if name in m.from_imports:
        level, source, real = m.from_imports[name]
        package = module if is_package else module.rpartition(".")[0]
        target = absolute_from(package, level, source)
        if target is None or target.split(".")[0] != module.split(".")[0]:
            return False
        return _tensor_global(root, target, real, depth - 1, seen, reads)
    if not assigned:
        return False
    key = (path, file.key, name)
    hit = _DECIDED.get(key)
    if hit is None:
        hit = _DECIDED[key] = _assigned_tensor(m, name)
    return hit


def _assigned_line(text: str, name: str) -> bool:
    """Does a line of ``text`` start with ``name =`` (or ``name: T =``) and mention
    ``torch`` after it (a constructor of the module imported by that name)?"""
    i = 0 if text.startswith(name) else text.find("\n" + name) + 1
    while i >= 0 and (i > 0 or text.startswith(name)):
        j = i + len(name)
        end = text.find("\n", j)
        line = text[j:end if end >= 0 else len(text)]
        if line[:1] in (" ", "\t", ":", "=") and "=" in line and "torch" in line[line.index("="):]:
            return True
        i = text.find("\n" + name, j)
        i = -1 if i < 0 else i + 1
    return False


def _assigned_tensor(m, name: str) -> bool:
    """Does an assignment of the top level of module ``m`` bind ``name`` to a torch
    constructor's tensor (``name = torch.tensor(...)``, ``name: T = torch.zeros(3)``)?  The
    statement is parsed alone, from its lines."""
    span = m.top_assigns.get(name)
    if span is None:
        return False
    try:
        stmt = ast.parse("\n".join(m.source.splitlines()[span[0] - 1:span[1]])).body[0]
    except (SyntaxError, ValueError, IndexError):
        return False
    value = getattr(stmt, "value", None)
    return isinstance(stmt, (ast.Assign, ast.AnnAssign)) and _is_tensor_expr(value, m.qualname_in(None))


def forget() -> None:
    """Forget every answer (as a new process would)."""
    _DECIDED.clear()
    _ANSWERS.clear()
