"""Summaries across the modules of a project: what the functions a module imports from its
own package return.

A call of a function the linted file imports from its own package (``from .utils import
make``, ``from ..ops.boxes import make``, ``from toppkg.utils import make``, ``import
toppkg.utils as u; u.make()``) is a tensor when the function's module, found on disk,
defines it once and every ``return`` of it is a torch constructor
(:func:`.returns.returns_tensor`, with that module's own imports), or its data flow proves
it one; a tuple with a tensor at each position where every ``return`` is a tuple display of
one length holding a tensor there (``return vals, vecs``).  A name the module
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
goes through (or defines a module ``__getattr__``), a function a submodule of the same name may shadow.

The value carries :data:`~.values.OTHER_MODULE`: the module may change without the linted
file changing, or be another module at run time than the one on disk, so a fix that rests on
it is unsafe; the report stands.

Cost: nothing is looked at until the walker evaluates a call of such a function.  Module
files are read once per version (path, modification time and size: :mod:`.projectdisk`);
most questions are answered from the text (:mod:`.projecttext`); a module is parsed only
where the text cannot tell (:mod:`.projectmodule`), and a function of it decided when first
asked (:mod:`.projectdecide`, with :mod:`.returnwalker`); each answer is remembered with
what it read.  This module resolves names: the linted file's package, its imports, and
re-exports.
"""
from __future__ import annotations

import ast
import os
from typing import Dict, Optional, Set, Tuple

from . import projectdisk
from .projectdecide import CUTS, MAX_DEPTH, read, tensor_def
from .projectdisk import Version, absolute_from, file_of, package_of, stat_key, version
from .projectmodule import module_of, release_trees
from .projecttext import def_says_no, dynamic, may_bind, may_bind_class, may_rebind
from .returns import bound_once
from .returnwalker import Shape, tuple_value
from .scriptdirs import script_directory, sibling
from .values import OTHER_MODULE, TENSOR, UNKNOWN, Value

__all__ = ["MAX_DEPTH", "Project", "forget", "imported_call", "package_of", "project_for", "release_trees"]


class Project:
    """The package of one linted file, as the walker asks about it."""

    def __init__(self, path: str) -> None:
        directory = os.path.dirname(os.path.abspath(path))
        found = package_of(directory)
        self.root: Optional[str] = None if found is None else found[0]
        self.package: Optional[str] = None if found is None else found[1]
        # a directory of scripts (no __init__.py): its modules import each other by their
        # top-level names (.scriptdirs)
        self.script = found is None and script_directory(directory)
        if self.script:
            self.root = directory

    def top(self) -> Optional[str]:
        return self.package.split(".")[0] if self.package else None

    def owns(self, dotted: str) -> bool:
        """Is ``dotted`` a name of this project: of its top package, or, for a directory of
        scripts, ``module.name`` of one of its modules (:func:`.scriptdirs.sibling`)."""
        first = dotted.partition(".")[0]
        if self.script:
            return dotted.count(".") == 1 and self.root is not None and sibling(self.root, first)
        return first == self.top()

    def absolute(self, level: int, module: Optional[str]) -> Optional[str]:
        """The dotted name ``from <level dots><module> import ...`` refers to from this file."""
        if not level:
            return module
        return None if self.package is None else absolute_from(self.package, level, module)

    def returns_tensor(self, dotted: str, through: bool = True) -> Shape:
        """Is ``dotted`` (``toppkg.mod.f``) a function of this project whose every call
        returns a tensor (True), or a tuple with tensors at fixed positions (a tuple of
        bools, :data:`~.returnwalker.Shape`)?  ``through``: the module is reached through its packages'
        namespaces (``import a.b as m``, ``a.b.f``), not found by its name (``from a.b
        import f``)."""
        found = self._split(dotted, through)
        return False if found is None else _returns(*found, MAX_DEPTH, set())

    def _split(self, dotted: str, through: bool) -> Optional[Tuple[str, str, str]]:
        """(the project's root, module, name) of ``dotted``, a name of this project's top
        package (reached through its packages' namespaces where ``through``), else None."""
        if self.root is None or "." not in dotted or not self.owns(dotted):
            return None
        module, _, name = dotted.rpartition(".")
        if through and not reached(self.root, module):
            return None
        return self.root, module, name

    def forward_shape(self, dotted: str, through: bool = True, ask: str = "()") -> Shape:
        """What calling an instance of the class ``dotted`` of this project returns: True a
        tensor, a tuple of bools (:data:`~.returnwalker.Shape`), False neither or not known
        (:mod:`.nnclasses` says which classes are followed); ``ask="()!"``: are the
        methods of its instances followed (:func:`.nnclasses.followed_class`)?"""
        split = self._split(dotted, through)
        if split is None:
            return False
        root, module, name = split
        found = _defining(root, module, name + ask, MAX_DEPTH, set())[0]
        if found is None:
            return False
        m = module_of(found[0])
        return tensor_def(m, found[1]) if m is not None else False

    def method_returns(self, dotted: str, method: str):
        """What ``m.method(...)`` returns, ``m`` an instance of the class ``dotted`` of this
        project (tagged by :mod:`.nnclasses`): a :class:`~.instancemethods.Returned`, or
        False (:mod:`.instancemethods` says which methods are followed)."""
        split = self._split(dotted, False)  # the tag was given where the class was reached
        if split is None:
            return False
        root, module, name = split
        found = _defining(root, module, name + "()!", MAX_DEPTH, set())[0]
        if found is None:
            return False
        m = module_of(found[0])
        return tensor_def(m, f"{found[1][:-1]}.{method}") if m is not None else False


def reached(root: str, module: str) -> bool:
    """Does a dotted path to ``module`` go through packages whose ``__init__`` binds no
    name it goes through (``a/__init__.py`` binding ``b`` makes ``a.b`` that value)?"""
    parts = module.split(".")
    for i in range(1, len(parts)):
        init = file_of(root, ".".join(parts[:i]))
        if init is None:
            return False
        key = (init, stat_key(init), parts[i])
        ok = _LEAVES.get(key)
        if ok is None:
            cuts = CUTS[0]
            ok = _leaves(init, ".".join(parts[:i]), parts[i])
            if CUTS[0] == cuts:
                _LEAVES[key] = ok
        if not ok:
            return False
    return True


_LEAVES: Dict[Tuple[str, Optional[Tuple[int, int]], str], bool] = {}


def _leaves(init: str, package: str, name: str) -> bool:
    """Does the package ``__init__`` at ``init`` leave ``name`` to its submodule (bind it
    not at all, or only by importing that submodule, and define no ``__getattr__``)?"""
    file = version(init)
    if file is not None and file.text is not None:
        if "__getattr__" in file.text:
            return False  # a module __getattr__ answers for a submodule not imported yet
        if not may_rebind(file, name):
            return True  # the word is nowhere in it: not parsed
        if dynamic(file):
            return False  # it may bind names unseen (what the parse would say): not parsed
    m = module_of(init)
    if m is None or m.names.star or m.names.dynamic:
        return False
    bound = m.names.bindings[name]
    # `from . import b` binds the submodule itself
    return not bound or bound == 1 and m.from_imports.get(name) in ((1, None, name), (0, package, name))


def _returns(root: str, module: str, name: str, depth: int, seen: Set[Tuple[str, str]]) -> Shape:
    """Is ``module.name`` (module under ``root``) a function whose every return is a torch
    constructor, following re-exports ``depth`` modules deep?"""
    found = _defining(root, module, name, depth, seen)[0]
    if found is None:
        return False
    m = module_of(found[0])
    return tensor_def(m, found[1]) if m is not None else False


def _defining(root: str, module: str, name: str, depth: int,
              seen: Set[Tuple[str, str]]) -> Tuple[Optional[Tuple[str, str]], int]:
    """Where ``module.name`` is defined by a ``def`` that may return a tensor (the file and
    the function's name there; None where it is not, or may be something else), following
    re-exports ``depth`` modules deep, and in how many modules it was looked for."""
    if depth <= 0 or (module, name) in seen:
        CUTS[0] += 1
        return None, 1
    seen.add((module, name))
    path = file_of(root, module)
    if path is None:
        return None, 1
    file = version(path)
    key = (path, None if file is None else file.key, name)
    read(path, key[1])  # the answer being decided (if any) rests on this file as it is now
    hit = _RESOLVED.get(key)
    if hit is not None and hit[1] <= depth:  # found in as many modules as are left to look in
        return hit
    cls = name.endswith("()") or name.endswith("()!")  # a class: "Net()" (:meth:`Project.forward_shape`)
    bare = name.partition("()")[0] if cls else name
    if file is None or file.text is None or (not may_bind_class(file, bare, name.endswith("!")) if cls
                                             else not may_bind(file, name) or def_says_no(file.text, name)):
        _RESOLVED[key] = (None, 1)
        return None, 1  # the text alone says no: the file is not parsed
    cuts = CUTS[0]
    m = module_of(path)
    found: Optional[Tuple[str, str]] = None
    hops = 1
    is_package = os.path.basename(path) == "__init__.py"
    if m is None or not bound_once(bare, m.names):
        pass
    elif bare in (m.class_names if cls else m.def_names):
        # a submodule of the same name may replace the function in the package's namespace
        shadowed = is_package and file_of(root, f"{module}.{bare}") is not None
        if not shadowed and (cls or name in m.candidates):
            found = (path, name)
    elif bare in m.from_imports:
        level, source, real = m.from_imports[bare]
        real = real + name[len(bare):] if cls else real
        origin = Project.__new__(Project)
        origin.root = root
        origin.package = module if is_package else module.rpartition(".")[0] or None
        target = origin.absolute(level, source)
        if target is not None and target.split(".")[0] == module.split(".")[0]:
            found, below = _defining(root, target, real, depth - 1, seen)
            hops += below
    if CUTS[0] == cuts:  # a re-export cycle, or too long a chain: not remembered
        _RESOLVED[key] = (found, hops)
    return found, hops


_PROJECTS: Dict[str, Project] = {}
# (path, version, name) -> (where it is defined, how many modules were looked in to find it)
_RESOLVED: Dict[Tuple[str, Optional[Version], str], Tuple[Optional[Tuple[str, str]], int]] = {}


_KNOWN = ("torch.", "numpy.", "math.")


def imported_call(walker, node: ast.Call, func: Value) -> Optional[Value]:
    """The value of the call ``node`` (its callee's value ``func``) where it calls a function
    the linted module imports from its own package (``f`` of ``from .m import f`` or of
    ``from pkg.m import f``, ``m.f`` of ``import pkg.m as m`` or of ``from . import m``) and
    that function is summarised as returning a tensor; an instance where it constructs an
    ``nn.Module`` subclass whose instances :mod:`.nnclasses` follows; None otherwise.  Looks
    at the disk only for names of the linted file's own package."""
    base = walker.cache.get(id(node.func.value)) if isinstance(node.func, ast.Attribute) else None
    found = _dotted(walker, node.func, func, base)
    if found is None:
        return None
    project, dotted, through = found
    shape = project.returns_tensor(dotted, through)
    if shape is True:
        return Value(TENSOR, caveat=OTHER_MODULE)
    if isinstance(shape, tuple):  # return vals, vecs: a tensor at each position the answer says
        return tuple_value(shape, [OTHER_MODULE] * len(shape))
    from .nnclasses import instances_followed  # it imports the walker's modules
    if not instances_followed(walker):
        return None
    cls = _class_tag(walker, project, dotted, through)
    return None if cls is None else Value(UNKNOWN, nnmod="@" + cls)


def _dotted(walker, callee: Optional[ast.AST], func: Value, base: Optional[Value]):
    """(the project, the dotted name, whether it is reached through its packages'
    namespaces) of the callee ``callee`` (its value ``func``; ``base``: the value of the
    name before its last ``.attr``) where it names something of the linted file's own
    package; else None."""
    if func.qualname is not None:
        if func.qualname.startswith(_KNOWN):
            return None  # the library knowledge decides (also in torch's own sources)
        dotted: Optional[str] = func.qualname
        origin = walker.imported_from.get(id(func))
        # `from a.b import f` finds a.b in sys.modules: no package's namespace is gone through
        through = origin is None or origin[0] is not func
    elif func.local_def:
        dotted, through = _relative(walker, func, None), False
    elif isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name):
        # `m` of `from . import m`
        dotted = None if base is None or not base.local_def else _relative(walker, base, callee.attr)
        through = True
    else:
        return None
    if dotted is None:
        return None
    project = walker.__dict__.get("_project", False)
    if project is False:
        project = walker._project = project_for(walker.path)
    if project is None or not project.owns(dotted):
        return None
    return project, dotted, through


def static_class(walker, callee: ast.AST) -> Optional[str]:
    """The dotted name of the project class a call of ``callee`` constructs, seen without
    evaluating it (for the attribute summaries: a name, or a name's attribute, looked up as
    the walker sees them now), where :mod:`.nnclasses` follows its instances (its forward
    returns a tensor or a tuple holding some); else None."""
    if walker.path is None:
        return None
    if isinstance(callee, ast.Name):
        found = _dotted(walker, callee, walker.lookup(callee.id), None)
    elif isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name):
        base = walker.lookup(callee.value.id)
        func = Value(qualname=f"{base.qualname}.{callee.attr}") if base.qualname is not None else Value()
        found = _dotted(walker, callee, func, base)
    else:
        return None
    return None if found is None else _class_tag(walker, *found)


def _class_tag(walker, project: Project, dotted: str, through: bool) -> Optional[str]:
    """``dotted`` where it is a class of the project whose instances are followed."""
    from .nnclasses import attribute_stored  # it imports the walker's modules
    from .nnmodules import hooked
    name = dotted.rpartition(".")[2]
    if not name[:1].isupper():
        return None  # cost: a class is looked for by a CamelCase name only (most calls are of functions)
    if walker.has["setattr"] or hooked(walker.source) or attribute_stored(walker.source, name):
        return None  # the class or its instances' forward may be replaced here
    known: Dict[Tuple[str, bool], Optional[Shape]] = walker.__dict__.setdefault("_class_forwards", {})
    if (dotted, through) not in known:
        shape = project.forward_shape(dotted, through)
        # an instance whose forward is not followed: its methods may be (.instancemethods), a plain class's too
        known[(dotted, through)] = shape if shape or project.forward_shape(dotted, through, "()!") else None
    if known[(dotted, through)] is None:
        return None
    walker.__dict__.setdefault("_class_tags", {})[dotted] = known[(dotted, through)]
    return dotted


def class_forward(walker, dotted: str) -> Shape:
    """What calling an instance of the project class ``dotted`` returns, as decided when
    :func:`_class_tag` tagged it."""
    return walker.__dict__.get("_class_tags", {}).get(dotted, False)


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


def forget() -> None:
    """Forget everything the summaries remember (as a new process would)."""
    for cache in (_PROJECTS, _RESOLVED, _LEAVES):
        cache.clear()
    projectdisk.forget()
    release_trees()
    from .projectcallers import forget as forget_callers  # it imports this module
    forget_callers()
    from .starimports import forget as forget_stars
    forget_stars()
    from .projectglobals import forget as forget_globals
    forget_globals()
    from .scriptdirs import forget as forget_scripts
    forget_scripts()
    from .dispatch import forget as forget_dispatchers
    forget_dispatchers()
