"""Attributes a base class's ``__init__`` stores from a parameter the class passes a tensor.

``class Child(Base)`` whose ``__init__`` calls ``super().__init__(torch.zeros(3))``, where
``Base.__init__(self, w)`` does ``self.w = w``: ``self.w`` is a tensor in ``Child``'s methods.
:func:`inherited_params` finds the candidates on the class's and its base's text; what the
module must also show (:func:`module_agrees`) is checked when one is first read, with
:func:`.summaries.tensor_attributes`' own checks (every store of ``.w`` in the module
accounted for, no ``setattr``, neither class reached through the class object).

The conditions: ``Child`` has one base, ``Base``, a class of the module; ``Child`` defines
``__init__``; ``Base.__init__`` is a plain ``def`` that stores ``self.w = w`` as a statement
of its own body, ``w`` one of its parameters (not ``*args``/``**kwargs``), never rebound in
it; every other store of ``.w`` in ``Base`` is a torch constructor; every
``super().__init__(...)`` and ``Base.__init__(self, ...)`` in ``Child`` passes ``w`` a torch
constructor (no ``*``/``**``).  In the module: no ``super(...)`` with arguments, no
``"__init__"`` in a string, no ``X.__init__`` of a class ``X`` that does not define its own
``__init__`` or is ``Base`` (outside ``Child``), none of anything but a name or ``super()``
(``type(self).__mro__[1].__init__``), and no class with more than one base among
``Base``'s descendants (the next ``__init__`` after ``Child``'s is then ``Base``'s).
Assumed, as for every attribute summary: no subclass in another module calls
``Base.__init__`` on an instance with something else.
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Set

from .modulefacts import ModuleFacts, Qualname
from .nodeindex import children, select, walk
from .torchsem import TENSOR_CONSTRUCTORS


def _init_of(cls: ast.ClassDef) -> Optional[ast.FunctionDef]:
    found = [s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
             and s.name == "__init__"]
    if len(found) != 1 or not isinstance(found[0], ast.FunctionDef) or found[0].decorator_list:
        return None
    return found[0]


def base_of(cls: ast.ClassDef, tree: ast.AST) -> Optional[ast.ClassDef]:
    """The one base of ``cls``, when it names one class of the module's top level."""
    if len(cls.bases) != 1 or not isinstance(cls.bases[0], ast.Name) or not isinstance(tree, ast.Module):
        return None
    found = [s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == cls.bases[0].id]
    return found[0] if len(found) == 1 else None


def _tensor(node: Optional[ast.AST], qualname: Qualname) -> bool:
    return isinstance(node, ast.Call) and qualname(node.func) in TENSOR_CONSTRUCTORS


def _passed(call: ast.Call, params: List[str], skip: int, p: str) -> Optional[ast.AST]:
    """The argument ``call`` binds to parameter ``p`` (``params`` after ``self``; ``skip``:
    leading arguments that are not theirs, ``self`` in ``Base.__init__(self, ...)``); None
    where it cannot tell."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    args = call.args[skip:]
    if p in params and params.index(p) < len(args):
        return args[params.index(p)]
    return next((k.value for k in call.keywords if k.arg == p), None)


def inherited_params(cls: ast.ClassDef, base: ast.ClassDef, values: Dict[str, List[Optional[ast.AST]]],
                     qualname: Qualname) -> Set[str]:
    """The attributes ``base`` stores (``values``: its stores, as :func:`.summaries._class_stores`
    gives them) that are tensors in ``cls``'s methods by the class's and base's text."""
    init, own = _init_of(base), _init_of(cls)
    if init is None or own is None or not init.args.args:
        return set()
    a = init.args
    params = [x.arg for x in (a.posonlyargs + a.args)[1:]]
    kwonly = [x.arg for x in a.kwonlyargs]
    me = (a.posonlyargs + a.args)[0].arg
    nodes = walk(init)
    rebound = {n.id for n in nodes if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    rebound |= {x for n in nodes if isinstance(n, (ast.Global, ast.Nonlocal)) for x in n.names}
    from_param: Dict[int, str] = {}  # id(value) of a top-level `self.attr = param` -> param
    for s in init.body:
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.value, ast.Name) \
                and s.value.id in params + kwonly and s.value.id not in rebound:
            t = s.targets[0]
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me:
                from_param[id(s.value)] = s.value.id
    calls = _init_calls(cls, base.name)
    if calls is None or not calls:
        return set()
    out = set()
    for attr, vals in values.items():
        ps = [from_param[id(v)] for v in vals if v is not None and id(v) in from_param]
        if not ps or not all(v is not None and (id(v) in from_param or _tensor(v, qualname)) for v in vals):
            continue
        if all(_tensor(_passed(c, params if p in params else [], skip, p), qualname)
               for c, skip in calls for p in ps):
            out.add(attr)
    return out


def _init_calls(cls: ast.ClassDef, base: str) -> Optional[List[tuple]]:
    """The calls in ``cls`` that run the base's ``__init__``: ``(call, skip)`` for
    ``super().__init__(...)`` (0) and ``Base.__init__(self, ...)`` (1); None for a form
    not followed (``super(...)`` with arguments, ``__init__`` read without a call)."""
    nodes = walk(cls)
    parents = {id(c): n for n in nodes for c in children(n)}
    out = []
    for n in nodes:
        if not (isinstance(n, ast.Attribute) and n.attr == "__init__"):
            continue
        call = parents.get(id(n))
        v = n.value
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "super":
            if v.args or v.keywords or not (isinstance(call, ast.Call) and call.func is n):
                return None
            out.append((call, 0))
        elif isinstance(v, ast.Name) and v.id == base:
            if not (isinstance(call, ast.Call) and call.func is n):
                return None
            out.append((call, 1))
    return out


def _is_super(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def module_agrees(cls: ast.ClassDef, base: ast.ClassDef, facts: ModuleFacts, source: Optional[str]) -> bool:
    """What the module must show besides the summaries' own checks (module doc)."""
    if source is None or '"__init__"' in source or "'__init__'" in source:
        return False
    if facts.is_open(base) or facts.is_open(cls):
        return False
    family = facts._descendants(base)
    if any(len(c.bases) > 1 for c in family):
        return False
    inside = {id(n) for n in walk(cls)}
    for n in select(facts.tree, (ast.Call, ast.Attribute)):  # in ast.walk's order
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "super" \
                and (n.args or n.keywords):
            return False
        if not (isinstance(n, ast.Attribute) and n.attr == "__init__"):
            continue
        if not isinstance(n.value, ast.Name):
            if not _is_super(n.value):
                return False  # type(self).__mro__[1].__init__, self.__class__.__bases__[0].__init__
            continue
        if n.value.id == base.name and id(n) in inside:
            continue  # Base.__init__(self, ...) in the class: _init_calls checks what it passes
        found = facts.classes.get(n.value.id)
        if found is not None and (n.value.id == base.name or len(found) != 1 or _init_of(found[0]) is None):
            return False
    return True
