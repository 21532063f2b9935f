"""``nn.Sequential`` instances whose call returns a tensor (:mod:`.nnmodules`' evidence, extended).

``nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))``, or of one
``OrderedDict`` of literal ``(name, module)`` pairs, whose every item is constructed right
there from a class of ``NN_TENSOR_MODULES`` (:func:`.nnmodules.tag_of`, so the same
refusals: a module that replaces the class, stores ``.forward``, registers a hook...)
returns what its last item returns: a tensor.  No item may be a Sequential, an RNN, an
``LSTMCell`` or ``Identity``; an empty Sequential returns its input (not followed).

A Sequential's items may change after it is built (``.append``, ``.extend``, ``.insert``,
``.add_module``, ``.pop``, ``seq[0] = m``, ``del seq[0]``, ``seq += other``, ``seq.x = m``,
which registers ``m`` as one more item).  So the instance counts only where the module shows
every use of it, and each is one that cannot change it (:func:`used_safely`): a call, its
``forward``, an item or slice read (a slice is a new Sequential), ``parameters()`` and the
other reads of :data:`READS`, and the methods that return the module itself, whose result is
used so too.  That is, for a local (:func:`local_kept`): its constructor is the value of a
plain ``name = ...``, and every occurrence of ``name`` in the function (nested ones included;
in the module for a module-level name) is such a use; for ``self.<attr>``
(:func:`attribute_kept`): every ``.<attr>`` of the module is, and no string names it
(``getattr(self, "head")``).  A module whose text may change a Sequential it reaches by a
walk of the module tree (``isinstance(m, nn.Sequential)``, ``hasattr(m, "append")``,
``_modules``, ``x.add_module(`` on anything but ``self``, ``.__setitem__(``, any walk:
``.modules()``, ``.children()``, ``named_*``, ``get_submodule``; ``.apply(f)`` where the text
also appends, calls ``setattr`` or stores an attribute of a name other than ``self``) proves
nothing (:func:`text_refuses`).  Not seen: uses in other modules (the caveat of
:data:`SEQUENTIAL_OUTPUT`: the fixes are unsafe).
"""
from __future__ import annotations

import ast
import re
from typing import Any, Callable, Dict, List, Optional, Tuple, cast

from .closedness import _spans_any
from .modulefacts import _lines_of
from .torchfacts import NN_TENSOR_MODULES

SEQUENTIAL = "Sequential"
SEQUENTIAL_OUTPUT = "it is a torch.nn.Sequential's output (a forward hook, or an item added elsewhere, may replace it)"

#: methods of an instance that read it and change no item
READS = frozenset("forward parameters named_parameters buffers named_buffers state_dict load_state_dict "
                  "zero_grad extra_repr".split())

#: forms that may change a Sequential reached by a walk of the module tree, not by its name
_TREE_WRITES = re.compile(r"(?:isinstance\([^()]*|\bis\s+|==\s*)[\w.]*\bSequential\b"
                          r"|hasattr\([^()]*[\"'](?:append|extend|insert|pop|add_module|register_module)[\"']"
                          r"|\b_modules\b|\.(?:__setitem__|__delitem__|__iadd__|__imul__)\("
                          r"|(?<!\bself)\.(?:add_module|register_module)\("
                          # a walk hands out every module, whatever it is tested by (or not)
                          r"|\b(?:modules|children|named_modules|named_children|get_submodule)\s*\(")
#: with ``.apply(f)`` (``f`` is given every module): forms that may change the one it is given
_APPLIED_WRITES = re.compile(r"\.(?:append|extend|insert)\s*\(|\bsetattr\s*\("
                             r"|(?<![\w.])(?!self\b)[^\W\d]\w*\s*\.\s*\w+\s*=(?!=)")

_ORDERED_DICTS = frozenset({"collections.OrderedDict", "typing.OrderedDict"})
_TEXT: List = [None, None]  # (source, whether text_refuses it)
_KEPT: Dict[Tuple[int, str], bool] = {}  # (id(tree), attr): attribute_kept's answer, for _KEPT_TREE's tree
_KEPT_TREE: List = [None]


def items(call: ast.Call, qualname: Callable[[ast.AST], Optional[str]]) -> Optional[List[ast.AST]]:
    """The items ``nn.Sequential(...)`` is given, written out (positional, or one
    ``OrderedDict`` of a display of literal pairs or of keywords), or None."""
    if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if len(call.args) == 1 and isinstance(call.args[0], ast.Call) and qualname(call.args[0].func) in _ORDERED_DICTS:
        od = call.args[0]
        if od.args and od.keywords:
            return None
        if od.keywords:
            return None if any(k.arg is None for k in od.keywords) else [k.value for k in od.keywords]
        if len(od.args) != 1 or not isinstance(od.args[0], (ast.List, ast.Tuple)):
            return None
        pairs = od.args[0].elts
        if not all(isinstance(p, ast.Tuple) and len(p.elts) == 2 and isinstance(p.elts[0], ast.Constant)
                   and isinstance(p.elts[0].value, str) for p in pairs):
            return None
        return [p.elts[1] for p in pairs]  # type: ignore[attr-defined]
    return list(call.args)


def all_tensor_items(call: ast.Call, qualname, tag: Callable[[ast.AST], Optional[str]]) -> bool:
    """Is every item of ``nn.Sequential(...)`` (at least one) an instance of a class of
    ``NN_TENSOR_MODULES`` (``tag``: :func:`.nnmodules.tag_of` of a node)?"""
    found = items(call, qualname)
    return bool(found) and all(tag(item) in NN_TENSOR_MODULES for item in found)  # type: ignore[union-attr]


def text_refuses(source: str) -> bool:
    """May the module change a Sequential it reaches by a walk of the module tree?  Once
    per module."""
    if _TEXT[0] is not source:
        _TEXT[:] = [source, _TREE_WRITES.search(source) is not None
                    or re.search(r"\.apply\s*\(", source) is not None and _APPLIED_WRITES.search(source) is not None]
    return _TEXT[1]


def _path(root: ast.AST, target: ast.expr) -> Optional[List[ast.AST]]:
    """The nodes from ``root`` down to ``target``'s parent, entering only nodes whose span
    holds ``target``'s start; None where that finds no path."""
    at = (target.lineno, target.col_offset)
    path = [root]
    while True:
        for child in ast.iter_child_nodes(path[-1]):
            if child is target:
                return path
            span = cast(Any, child)  # a positioned node: expression, statement, handler
            if hasattr(child, "end_lineno") and (span.lineno, span.col_offset) <= at \
                    <= (span.end_lineno, span.end_col_offset):
                path.append(child)
                break
        else:
            return None


def used_safely(node: ast.AST, parent: Dict[int, ast.AST]) -> bool:
    """Is the instance ``node`` evaluates to used in a way that changes no item of it
    (``parent``: each node's parent)?"""
    p = parent.get(id(node))
    if isinstance(p, ast.Expr) or isinstance(p, ast.Call) and p.func is node:
        return True  # m(x); a statement that drops it
    if isinstance(p, ast.Subscript) and p.value is node:
        return isinstance(p.ctx, ast.Load)  # m[0], m[1:]: an item, a new Sequential
    if isinstance(p, ast.Attribute) and p.value is node and isinstance(p.ctx, ast.Load):
        g = parent.get(id(p))
        if not (isinstance(g, ast.Call) and g.func is p):
            return False  # m.append passed on, m.x read: not followed
        if p.attr in READS:
            return True
        return p.attr in _returns_self() and used_safely(g, parent)  # m.to(device): m again
    return False


def _uses(root: ast.AST, word: str, source: str, attr: bool) -> Optional[List[Tuple[ast.AST, Dict[int, ast.AST]]]]:
    """The ``Name`` (``attr``: ``Attribute``) nodes under ``root`` spelled ``word``, each with
    the parent map of the nodes walked (those on the lines of ``word``); None where a string
    constant is ``word`` (``attr``)."""
    lines = _lines_of(source, (word,)) or []
    found: List[Tuple[ast.AST, Dict[int, ast.AST]]] = []
    parent: Dict[int, ast.AST] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if attr and isinstance(node, ast.Constant) and node.value == word:
            return None
        if type(node) is (ast.Attribute if attr else ast.Name) and getattr(node, "attr" if attr else "id") == word:
            found.append((node, parent))
        for child in ast.iter_child_nodes(node):
            if not hasattr(child, "lineno") or _spans_any(child, lines):
                parent[id(child)] = node
                stack.append(child)
    return found


def _store_ok(node: ast.AST, parent: Dict[int, ast.AST]) -> bool:
    """A store of the name or attribute: a plain assignment (what it binds is the flow's
    or the attribute summary's to judge), not ``m += x`` or ``del m``."""
    return isinstance(node.ctx, ast.Store) and not isinstance(parent.get(id(node)), ast.AugAssign)  # type: ignore[attr-defined]


def local_kept(ev, call: ast.Call) -> bool:
    """Is ``call`` (an ``nn.Sequential(...)`` the walker ``ev`` evaluates) bound by
    ``name = ...`` in the function walked (or the module body), and every use of ``name``
    there one that changes no item?"""
    known: Dict[int, bool] = ev.__dict__.setdefault("_sequential_kept", {})  # a loop body is walked twice
    if id(call) not in known:
        known[id(call)] = _local_kept(ev, call)
    return known[id(call)]


def _local_kept(ev, call: ast.Call) -> bool:
    func = getattr(ev, "closure_func", None)
    root = func if func is not None else getattr(ev, "tree", None) if getattr(ev, "in_module_body", False) else None
    if root is None or not hasattr(call, "lineno") or text_refuses(ev.source):
        return False
    path = _path(root, call)
    if path is None:
        return False
    node = call
    while len(path) >= 2 and isinstance(path[-1], ast.Attribute) and isinstance(path[-2], ast.Call) \
            and path[-2].func is path[-1] and path[-1].attr in _returns_self():
        node = path[-2]  # nn.Sequential(...).to(device)
        del path[-2:]
    stmt = path[-1]
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and stmt.value is node:
        target = stmt.targets[0]
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is node:
        target = stmt.target
    else:
        return False
    if not isinstance(target, ast.Name):
        return False
    uses = _uses(root, target.id, ev.source, attr=False)
    return uses is not None and all(
        _store_ok(n, parent) if not isinstance(n.ctx, ast.Load) else used_safely(n, parent)  # type: ignore[attr-defined]
        for n, parent in uses)


def attribute_kept(attr: str, tree: Optional[ast.AST], source: str) -> bool:
    """Is every ``.<attr>`` of the module (``tree``, text ``source``) a store or a use that
    changes no item, and no string ``attr``?  Once per module and attribute."""
    if tree is None or text_refuses(source):
        return False
    if _KEPT_TREE[0] is not tree:
        _KEPT.clear()
        _KEPT_TREE[0] = tree
    key = (id(tree), attr)
    if key not in _KEPT:
        uses = _uses(tree, attr, source, attr=True)
        _KEPT[key] = uses is not None and all(
            _store_ok(n, parent) if not isinstance(n.ctx, ast.Load) else used_safely(n, parent)  # type: ignore[attr-defined]
            for n, parent in uses)
    return _KEPT[key]


def _returns_self() -> frozenset:
    from .nnmodules import RETURNS_SELF
    return RETURNS_SELF


def forget() -> None:
    """Drop the tree and the text kept for the module last asked about (:func:`.flow.release`)."""
    _TEXT[:] = [None, None]
    _KEPT.clear()
    _KEPT_TREE[0] = None
