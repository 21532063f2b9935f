"""Module summaries: what a class's own attributes hold, seen from its methods.

``self.gain = nn.Parameter(...)`` or ``self.register_buffer("mean", torch.zeros(3))``
in one method makes ``self.gain`` / ``self.mean`` a tensor in the others, when every
assignment of that attribute anywhere in the module is one of these, made on the
method's own ``self``, in that class.  Computed on demand (the first time a method of
the class reads ``self.<attr>`` in code a rule looks at) and once per class; a class
in a module that uses ``setattr``/``__dict__`` has no summary.  Assignments from other
modules (a subclass elsewhere, code setting the attribute from outside) are not seen.
"""
from __future__ import annotations

import ast
import re
from collections import Counter
from typing import Callable, Dict, List, Optional

from .torchsem import TENSOR_CONSTRUCTORS

_REGISTER = ("register_buffer", "register_parameter")


_STORE_RE = re.compile(r"\.(\w+)\s*(?:(?:[-+*/@%&|^]|//|\*\*|<<|>>)?=(?!=)|:)")


def store_counts(source: str) -> Counter:
    """Places in the text that may store ``.attr`` (``x.attr =``, ``x.attr +=``, ``x.attr:``)."""
    return Counter(m.group(1) for m in _STORE_RE.finditer(source))


def tensor_attributes(cls: ast.ClassDef, stores_in_module: Counter,
                      qualname: Callable[[ast.AST], Optional[str]]) -> Dict[str, bool]:
    """``{attr: True}`` for the attributes of ``cls`` proven to hold a tensor;
    ``stores_in_module``: :func:`store_counts` of the module's source."""
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
        for node in ast.walk(func):
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
