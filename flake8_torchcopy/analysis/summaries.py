"""Module summaries: what a class's own attributes hold, and what module-level functions return.

``self.gain = nn.Parameter(...)`` or ``self.register_buffer("mean", torch.zeros(3))``
in one method makes ``self.gain`` / ``self.mean`` a tensor in the others, when every
assignment of that attribute anywhere in the module is one of these, made on the
method's own ``self``, in that class.  Computed on demand (the first time a method of
the class reads ``self.<attr>`` in code a rule looks at) and once per class; a class
in a module that uses ``setattr``/``__dict__`` has no summary.  Assignments from other
modules (a subclass elsewhere, code setting the attribute from outside) are not seen.

A call of a module-level function (by the name its ``def`` bound) is a tensor when
every ``return`` of the function is a torch constructor, possibly followed by tensor
methods, and the function cannot end otherwise (:func:`returns_tensor`).
"""
from __future__ import annotations

import ast
import re
from collections import Counter
from typing import Callable, Dict, List, Optional

from .callsites import BLOCK_FIELDS
from .torchapi import TENSOR_METHODS
from .torchsem import TENSOR_CONSTRUCTORS

_REGISTER = ("register_buffer", "register_parameter")


_STORE_RE = re.compile(r"\.(\w+)\s*(?:(?:[-+*/@%&|^]|//|\*\*|<<|>>)?=(?!=)|:)")


def store_counts(source: str) -> Counter:
    """Places in the text that may store ``.attr`` (``x.attr =``, ``x.attr +=``, ``x.attr:``)."""
    return Counter(m.group(1) for m in _STORE_RE.finditer(source))


def tensor_attributes(cls: ast.ClassDef, stores_in_module: Counter,
                      qualname: Callable[[ast.AST], Optional[str]], registers: bool = True) -> Dict[str, bool]:
    """``{attr: True}`` for the attributes of ``cls`` proven to hold a tensor;
    ``stores_in_module``: :func:`store_counts` of the module's source; ``registers``:
    the class's text holds ``register_`` (else only assignment statements are looked at,
    not every expression node: the same answer, cheaper)."""
    values: Dict[str, List[Optional[ast.AST]]] = {}
    stores: Dict[str, int] = {}
    members = set()
    for item in cls.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            members.add(item.name)
        elif isinstance(item, (ast.Assign, ast.AnnAssign)):
            for t in item.targets if isinstance(item, ast.Assign) else [item.target]:
                if isinstance(t, ast.Name):
                    members.add(t.id)
    for func in cls.body:
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or not func.args.args:
            continue
        me = func.args.args[0].arg
        for node in ast.walk(func) if registers else _statements(func):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me:
                        stores[t.attr] = stores.get(t.attr, 0) + 1
                        plain = not isinstance(node, ast.AugAssign)
                        values.setdefault(t.attr, []).append(node.value if plain else None)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in _REGISTER and isinstance(node.func.value, ast.Name)
                  and node.func.value.id == me and len(node.args) == 2 and not node.keywords
                  and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                values.setdefault(node.args[0].value, []).append(node.args[1])
    out = {}
    for attr, vals in values.items():
        if attr in members or stores_in_module[attr] != stores.get(attr, 0):
            continue  # a method or class attribute, or stored somewhere we did not see
        if all(isinstance(v, ast.Call) and qualname(v.func) in TENSOR_CONSTRUCTORS for v in vals):
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


def _own_nodes(func: ast.AST):
    """The nodes of a function's body, not those of functions, lambdas or classes inside it."""
    stack = list(func.body)  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


def _is_tensor_expr(node: Optional[ast.AST], qualname: Callable[[ast.AST], Optional[str]]) -> bool:
    """``torch.<tensor function>(...)``, possibly followed by tensor methods (``.float()``)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in TENSOR_METHODS and qualname(node.func) is None:
        node = node.func.value
    return isinstance(node, ast.Call) and qualname(node.func) in TENSOR_CONSTRUCTORS


def returns_tensor(func: ast.AST, qualname: Callable[[ast.AST], Optional[str]]) -> bool:
    """Does every way out of a module-level, undecorated, non-generator ``func`` return a
    tensor made by a torch constructor (``return torch.as_tensor(x).float()``)?"""
    if not isinstance(func, ast.FunctionDef) or func.decorator_list \
            or not func.body or not isinstance(func.body[-1], ast.Return):
        return False  # decorated, async, or it may fall off its end and return None
    for node in _own_nodes(func):
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return False
        if isinstance(node, ast.Return) and not _is_tensor_expr(node.value, qualname):
            return False
    return True
