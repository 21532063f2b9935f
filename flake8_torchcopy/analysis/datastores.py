"""Stores of ``.data`` and swaps that the text test of in-place layout changes misses.

``y.data = t`` gives ``y`` the sizes and strides of ``t`` (:func:`.modulescan.changes_layouts_in_place`
finds that form in the text).  So do ``y.data: T = t``, ``(y.data) = t``, ``y.data, k = t, 1``,
``[y.data] = [t]``, ``for y.data in ts``, ``y.data\\`` and ``= t`` on the next line, ``y.data @= m``,
``setattr(y, "data", t)``, ``y.__setattr__("data", t)``, ``torch.Tensor.data.__set__(y, t)``
(checked with torch in tests/test_review12.py).  :func:`may_store_data` says "yes" where the
module's tree holds a ``data`` attribute that is no load, calls ``__setattr__`` or ``__set__``,
or names ``setattr`` other than called with a string naming another attribute.  A cheap look
at the text first; the tree's shared node index only where it matches.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..textsearch import AnyOf
from .nodeindex import select

# `.data` followed by anything but a name, an attribute, a call or an index (`y.data)`,
# `y.data,`, `y.data:`, `y.data\\`, `y.data @=`), or by `in` (a `for` target)
_MAYBE = AnyOf([r"\.data\s*(?:[^\s\w.(\[]|in\b)", r"setattr", r"__set__\b"])  # led by literals


def may_store_data(source: str, tree: Optional[ast.AST]) -> bool:
    """May the module store a tensor's ``.data`` in a form other than ``x.data = t``?  (Where
    no tree is at hand, the text decides.)"""
    if not _MAYBE.search(source):
        return False
    if tree is None:
        return True
    named_calls = set()
    for n in select(tree, (ast.Attribute, ast.Call, ast.Name)):
        if isinstance(n, ast.Attribute):
            if n.attr == "data" and not isinstance(n.ctx, ast.Load) or n.attr in ("__setattr__", "__set__"):
                return True
        elif isinstance(n, ast.Call):
            if isinstance(n.func, ast.Name) and n.func.id == "setattr":
                name = n.args[1] if len(n.args) > 1 else None
                if not (isinstance(name, ast.Constant) and isinstance(name.value, str) and name.value != "data"):
                    return True
                named_calls.add(id(n.func))
        elif n.id == "setattr" and id(n) not in named_calls:  # type: ignore[attr-defined]
            return True  # f = setattr: called unseen
    return False
