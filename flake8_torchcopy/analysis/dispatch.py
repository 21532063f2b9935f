"""``functools.singledispatch`` registrations: a function registered for ``torch.Tensor``
receives a tensor.

``@f.register(torch.Tensor)`` (or ``@f.register`` over a first parameter annotated
``torch.Tensor``) on ``def _(x)``, where ``f`` is a ``singledispatch`` function, is called
by ``f`` only with an ``x`` whose class is ``torch.Tensor`` or a subclass (``Parameter``
too): the walk starts the function with ``x`` a tensor that may be a subclass
(:data:`~.values.SUBCLASS`, as an ``isinstance`` test leaves it: fixes resting on it are
unsafe).  The same holds for the first parameter after ``self`` of a method registered in
its class body on a ``functools.singledispatchmethod``.

``f`` must be, where the registration runs, the very value a ``def`` of the module bound
(one of the module scope bound once; a method of the class body being walked) whose only
decorator is ``singledispatch``/``functools.singledispatch`` (``singledispatchmethod``), or
a name a ``from`` import of the linted file's own package bound once, found on disk
(:mod:`.project`) defined once, so decorated, in the module it names (no re-export is
followed).  The registration must be the function's only decorator (another would register
or call what it returns), the registered type exactly one of :data:`~.torchsem.TENSOR_TYPES`.

``register`` returns the function itself: its name may call it directly with anything.  So
the name must be ``_`` (the idiom the ``functools`` documentation uses, rebound by each
registration) and the module must read it nowhere (no name ``_`` loaded, in any scope; no
``._`` attribute; no string ``"_"``), nor call ``.dispatch``/read ``.registry`` (which hand
the function out), nor bind names unseen (``exec``, ``globals()``).  Not seen: another
module that imports ``_`` from this one, or calls ``f.dispatch(torch.Tensor)(obj)`` or, for
a method, ``C.m(tensor, obj)``; like a ``__class__`` that lies to ``isinstance``, these are
what the subclass caveat leaves the fixes unsafe for.

Cost: a def with no decorator costs one test; the module is scanned for the reads of ``_``
only where a registration passes every other test, once.
"""
from __future__ import annotations

import ast
from typing import Dict, Optional

from .nodeindex import select
from .projectdisk import file_of, version
from .projectmodule import live, module_of, module_statements
from .returns import bound_once, module_names
from .values import SUBCLASS, TENSOR, Value

_DISPATCHERS = {"functools.singledispatch": False, "functools.singledispatchmethod": True}
_WORDS = frozenset({"singledispatch", "singledispatchmethod"})
#: (path, version, name) -> is that module's ``name`` a singledispatch function
_IMPORTED: Dict[tuple, bool] = {}


def note_def(ev, s: ast.FunctionDef) -> None:
    """After the walker bound ``s.name`` to its value: remember a dispatcher ``s`` defines,
    or the tensor a registration ``s`` receives (:func:`seeds_of`).  Asked of decorated defs
    in a module whose text holds ``register``; no builtin is called before the decorator is
    spelled ``register`` or ``singledispatch``/``singledispatchmethod``."""
    decorators = s.decorator_list
    if decorators[1:]:
        return
    d = decorators[0]
    call = d if d.__class__ is ast.Call else None
    func = call.func if call is not None else d
    word = func.attr if func.__class__ is ast.Attribute else func.id if func.__class__ is ast.Name else None
    if word in _WORDS and call is None:
        method = _DISPATCHERS.get(ev.static_qualname(d) or "")
        # a function at the module's top level; a method in a class body that is a plain dict
        if method is not None and ((ev.class_body is True) if method else ev.in_module_body):
            v = ev.env[s.name]
            ev.__dict__.setdefault("_dispatchers", {})[id(v)] = (v, method)  # held: its id is its own
        return
    if word != "register" or s.name != "_" or not isinstance(func, ast.Attribute) \
            or not isinstance(func.value, ast.Name) \
            or getattr(ev, "tree", None) is None:
        return
    method = _dispatcher(ev, func.value)
    if method is None:
        return
    params = s.args.posonlyargs + s.args.args
    if len(params) < 1 + method:
        return
    param = params[method]
    if call is not None:
        if len(call.args) != 1 or call.keywords or isinstance(call.args[0], ast.Constant) \
                or not ev.is_tensor_annotation(call.args[0]):
            return
    # `@f.register` dispatches on the first annotation: none before the parameter's
    elif param.annotation is None or not ev.is_tensor_annotation(param.annotation) \
            or any(p.annotation is not None for p in params[:method]):
        return
    if _unread(ev):
        ev.__dict__.setdefault("_dispatch_seeds", {})[id(s)] = {param.arg: Value(TENSOR, caveat=SUBCLASS)}


def seeds_of(ev, func: ast.AST) -> Dict[str, Value]:
    """What a function registered for a tensor type starts with: its dispatched parameter."""
    found = ev.__dict__.get("_dispatch_seeds")
    return found.get(id(func), {}) if found else {}


def _dispatcher(ev, name: ast.Name) -> Optional[bool]:
    """Is ``name`` here a singledispatch function (False) or method (True)?  None: not known."""
    v = ev.env.get(name.id)
    if v is None:
        return None
    held = ev.__dict__.get("_dispatchers", {}).get(id(v))
    if held is not None and held[0] is v:
        method = held[1]
        if method or bound_once(name.id, module_names(ev.tree, ev.source)):
            return method
        return None
    origin = ev.imported_from.get(id(v))
    if not ev.in_module_body or origin is None or origin[0] is not v or v.qualname is None \
            or not bound_once(name.id, module_names(ev.tree, ev.source)):
        return None
    from .project import _dotted  # it imports the walker's modules
    found = _dotted(ev, None, v, None)
    split = None if found is None else found[0]._split(found[1], found[2])
    return False if split is not None and _imported_dispatcher(*split) else None


def _imported_dispatcher(root: str, module: str, name: str) -> bool:
    """Does ``module`` (a file under ``root``) bind ``name`` once, by a ``def`` whose only
    decorator is ``functools.singledispatch``?"""
    path = file_of(root, module)
    file = None if path is None else version(path)
    if path is None or file is None or file.text is None or "singledispatch" not in file.text:
        return False
    key = (path, file.key, name)
    known = _IMPORTED.get(key)
    if known is None:
        known = False
        m = module_of(path)
        if m is not None and name in m.def_names and bound_once(name, m.names):
            qualname = m.qualname_in(None)
            known = any(isinstance(n, ast.FunctionDef) and n.name == name and len(n.decorator_list) == 1
                        and qualname(n.decorator_list[0]) == "functools.singledispatch"
                        for n in module_statements(live(m).tree))
        _IMPORTED[key] = known
    return known


def _unread(ev) -> bool:
    """Does the module read ``_`` nowhere, hand out no registered function
    (``.dispatch``, ``.registry``) and bind no names unseen?  Scanned once."""
    known = ev.__dict__.get("_underscore_unread")
    if known is None:
        known = not module_names(ev.tree, ev.source).dynamic and not any(
            isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Load)
            or isinstance(n, ast.Attribute) and n.attr in ("_", "dispatch", "registry")
            or isinstance(n, ast.Constant) and n.value == "_"
            for n in select(ev.tree, (ast.Name, ast.Attribute, ast.Constant)))
        ev.__dict__["_underscore_unread"] = known
    return known


def forget() -> None:
    _IMPORTED.clear()
