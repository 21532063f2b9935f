"""Map-style datasets the module defines: what ``DataLoader`` yields over one of them.

``class Pairs(Dataset)`` whose ``__getitem__`` returns ``(self.x[i], self.y[i])`` with
``self.x`` a tensor: ``DataLoader(Pairs(...))`` with the default collate yields lists
whose first item is a tensor (``default_collate`` stacks each position; with
``batch_size=None`` the items come through ``default_convert``, which keeps a tensor).
Iterating the dataset itself (no ``__iter__``: the ``__getitem__`` protocol) yields the
tuples themselves.  :func:`instance` gives ``Pairs(...)`` the value :mod:`.pipelines`
reads for a ``TensorDataset``: positions proven tensors on every ``return`` are tensors,
the others unknown; a ``__getitem__`` that returns a tensor makes each batch one.

Only where the class cannot be anything else: the exact class is called (its name bound
once in the module), undecorated, without keywords (no metaclass), with ``Dataset`` of
``torch.utils.data`` its one base (which defines no ``__getitems__``, ``__new__`` or
``__iter__``: checked with torch), a plain ``def __getitem__`` (no decorator, no ``yield``)
and no ``__getitems__``, ``__new__``, ``__iter__``, ``__getattr__``/``__getattribute__``
(``hasattr(dataset, "__getitems__")`` picks the batched fetch), where the module's text
stores no ``__getitem__`` or ``__class__``, names no ``__getitems__``, ``__setattr__`` or
``__dict__`` and calls no ``setattr``.  Nor where the module may change a class or the
loader unseen (:func:`patches_unseen`): a store into a dunder attribute in any form (an
annotated, parenthesised, tuple or ``for`` target), ``setattr``/``delattr`` named at all,
or ``torch``/``torch.utils...`` used as a value other than a call, a base or an annotation
(``Dataset.__iter__ = f``, ``C.default_collate = f``, ``patch(DataLoader)``).  The class
body defines no dunder but ``__init__``, ``__len__``, ``__getitem__``, ``__repr__`` and
``__str__`` (``__reduce__``, ``__setstate__``... give a worker another object).  Each
``return`` is walked once with the method's parameters unknown (``self`` is the class's:
attribute summaries hold); evidence from here carries the ``LIBRARY`` caveat.
"""
from __future__ import annotations

import ast
import re
from typing import Dict, List, Optional, Set

from .nodeindex import select, walk
from .pipelines import LIBRARY, TENSOR_DATASET
from .returns import bound_once, module_names
from .summaries import DATA_BASES
from .values import NOT, TENSOR, UNKNOWN_VALUE, Value

#: the dunders a dataset class may define (any other, ``__getitems__``, ``__new__``, ``__iter__``,
#: ``__getattr__``... among them, may change what indexing, the fetch or the call does)
_PLAIN_DUNDERS = frozenset({"__init__", "__len__", "__getitem__", "__repr__", "__str__", "__doc__"})
_UNSEEN_TEXT = re.compile(r"copyreg|__getitems__|\.__getitem__\s*=|\bsetattr\s*\(|__setattr__|__dict__|\.__class__\s*=")


def instance(ev, cls: ast.ClassDef) -> Optional[Value]:
    """The value of a call of ``cls`` (a class of the module's own body), when it is a
    dataset whose ``__getitem__`` is read here (see the module's docstring); else None."""
    memo = ev.__dict__.setdefault("_datasets", {})
    if id(cls) not in memo:
        memo[id(cls)] = None  # a cycle (the class walked while deciding): nothing known
        memo[id(cls)] = _decide(ev, cls)
    return memo[id(cls)]


def _decide(ev, cls: ast.ClassDef) -> Optional[Value]:
    if cls.decorator_list or cls.keywords or len(cls.bases) != 1 \
            or ev.static_qualname(cls.bases[0]) not in DATA_BASES:
        return None
    tree = getattr(ev, "tree", None)
    if not isinstance(tree, ast.Module) or _UNSEEN_TEXT.search(ev.source) \
            or not bound_once(cls.name, module_names(tree, ev.source)) or patches_unseen(ev):
        return None
    getitem = _getitem(cls)
    if getitem is None:
        return None
    item = _item(ev, getitem)
    return None if item is None else Value(NOT, qualname=TENSOR_DATASET, item=item)


def _getitem(cls: ast.ClassDef) -> Optional[ast.FunctionDef]:
    """The class body's one plain ``def __getitem__``, where it binds no dunder but
    :data:`_PLAIN_DUNDERS`."""
    found: List[ast.AST] = []
    for s in cls.body:
        names: List[str] = []
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [s.name]
        elif isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        elif not isinstance(s, (ast.Expr, ast.Pass)):
            return None  # an import, a loop, a with... in the class body: not read
        if any(n.startswith("__") and n.endswith("__") and n not in _PLAIN_DUNDERS for n in names):
            return None
        if "__getitem__" in names:
            found.append(s)
    if len(found) != 1 or not isinstance(found[0], ast.FunctionDef) or found[0].decorator_list:
        return None
    func = found[0]
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(func)):
        return None
    return func


def _item(ev, func: ast.FunctionDef) -> Optional[Value]:
    """What every ``return`` of ``__getitem__`` gives: a tensor, or a tuple/list display of
    the same length whose positions are tensors where each return's is (the others
    unknown); None where no position is a tensor on every return."""
    from .returnwalker import module_returns
    values = module_returns(ev, func)
    if not values or any(v is None for v in values):
        return None  # not walked, or a bare ``return``
    if all(v.kind == TENSOR for v in values):
        return Value(TENSOR, caveat=LIBRARY)
    if any(v.elems is None or v.kind != NOT for v in values) or len({len(v.elems) for v in values}) != 1:
        return None
    width = len(values[0].elems)
    kinds = [all(v.elems[j].kind == TENSOR for v in values) for j in range(width)]
    if not any(kinds):
        return None
    return Value(NOT, elems=tuple(Value(TENSOR, caveat=LIBRARY) if k else UNKNOWN_VALUE for k in kinds))


def patches_unseen(ev) -> bool:
    """May the module change a class, ``Dataset`` or the loader where the walk does not
    look (see the module's docstring)?  Asked once per module."""
    known = ev.__dict__.get("_patches_unseen")
    if known is None:
        known = ev.__dict__["_patches_unseen"] = _patches(ev.tree)
    return known


def _torch_names(tree: ast.AST) -> Dict[str, str]:
    """Names any import of the module binds to ``torch`` or below (every scope at once)."""
    names: Dict[str, str] = {}
    for n in select(tree, (ast.Import, ast.ImportFrom)):  # the order of ast.walk: the last binding wins
        if isinstance(n, ast.Import):
            for a in n.names:
                if a.name.split(".")[0] == "torch":
                    names[a.asname or "torch"] = a.name if a.asname else "torch"
        elif isinstance(n, ast.ImportFrom) and not n.level and (n.module or "").split(".")[0] == "torch":
            for a in n.names:
                names[a.asname or a.name] = f"{n.module}.{a.name}"
    return names


def _chain(node: ast.AST, names: Dict[str, str]) -> Optional[str]:
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _chain(node.value, names)
        return f"{base}.{node.attr}" if base else None
    return None


def _patches(tree: ast.AST) -> bool:
    names = _torch_names(tree)
    harmless: Set[int] = set()  # a chain called, a class base, a link inside a longer chain
    # one breadth-first walk: a node is met after its parent, which marked it harmless (the
    # shared index gives the nodes of the classes read here, in that order)
    for n in select(tree, _PATCH_CLASSES):
        if isinstance(n, ast.Name) and n.id in ("setattr", "delattr"):
            return True
        if isinstance(n, (ast.Name, ast.Attribute)):
            stored = not isinstance(n.ctx, ast.Load)
            if stored and isinstance(n, ast.Attribute) and n.attr.startswith("__") and n.attr.endswith("__"):
                return True
            if stored or id(n) not in harmless:
                q = _chain(n, names)
                if q is not None and (q == "torch" or q.startswith("torch.utils")):
                    return True
        if isinstance(n, ast.Call):
            harmless.add(id(n.func))
        elif isinstance(n, ast.ClassDef):
            harmless.update(id(b) for b in n.bases)
        if isinstance(n, ast.Attribute):
            harmless.add(id(n.value))
        ann = n.annotation if isinstance(n, (ast.arg, ast.AnnAssign)) else \
            n.returns if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        if ann is not None:
            harmless.update(id(a) for a in walk(ann))
    return False


_PATCH_CLASSES = (ast.Name, ast.Attribute, ast.Call, ast.ClassDef, ast.arg, ast.AnnAssign,
                  ast.FunctionDef, ast.AsyncFunctionDef)  # every class `_patches` reads
