"""May a tensor have been built on the host?  (TRC112's ``.to(other)`` of a tensor.)

``torch.zeros(3).to(t)`` of a tensor ``t`` built on the host in the default dtype is the
tensor itself: no copy.  :func:`may_be_host_made` answers generously (a "maybe" keeps a
report away): it follows the expression's receivers down to a factory call, a ``.cpu()``
or ``.to("cpu")``, a name or an attribute (``t.data``, ``t.T``: ``t``), a call of a
``def`` of the module (what it returns), and for a name every binding of it in its scope
(the function that binds it, else the module), for an attribute every store of that
attribute name and every ``register_buffer`` of it anywhere in the module.  Unpacking,
loop targets and other bindings it cannot read are not host evidence (as a parameter is
not): the rule reports ``.to(y)`` of an unknown ``y`` already, and this only keeps quiet
where the module shows a host build.  (A proven tensor bound by unpacking or a loop, or a
parameter its calls pass a host tensor, is such a build the search does not see.)  Past
``_DEPTH`` steps the answer is "maybe".
"""
from __future__ import annotations

import ast
from typing import Any, Callable, Dict, Iterator, List, Optional, Set, Tuple

from .nodeindex import children, select, walk
from .returns import own_nodes
from .scopes import SCOPES, enclosing_scope
from .torchapi import DTYPE_NAMES, LEGACY_CONSTRUCTORS

Qualname = Callable[[ast.AST], Optional[str]]
#: (a def, one of its parameters) -> the argument every call of the def passes it, where the
#: module holds every call; None: not known
Passed = Callable[[ast.AST, str], Optional[List[ast.AST]]]

#: torch functions that build a tensor on the host (the default device) without ``device=``
HOST_MAKERS = frozenset("""
    zeros ones full eye tensor empty arange linspace logspace rand randn randint randperm
    as_tensor from_numpy empty_strided normal bernoulli frombuffer asarray scalar_tensor
    """.split()) | LEGACY_CONSTRUCTORS
#: tensor attributes that are tensors on their receiver's device
_SAME_PLACE = frozenset({"data", "T", "mT", "H", "mH", "real", "imag", "grad"})
_DEPTH = 16  # past it: maybe (each name is followed once: `seen`)


def may_be_host_made(tree: ast.AST, node: ast.AST, qualname: Qualname, depth: int = 0,
                     seen: Optional[Set[str]] = None, passed: Optional[Passed] = None) -> bool:
    """Might ``node`` be a tensor built on the host (see the module's docstring)?  ``seen``:
    the names (in a scope) and attributes followed already (``t = t.float()`` adds no origin
    to ``t``'s others);
    ``passed``: what the module's calls pass a parameter, where those are all its calls."""
    seen = set() if seen is None else seen
    if depth > _DEPTH:
        return True  # a long chain of names: maybe

    def further(n: ast.AST) -> bool:
        return may_be_host_made(tree, n, qualname, depth + 1, seen, passed)

    while True:
        if isinstance(node, ast.Call):
            q = qualname(node.func) or ""
            if q.startswith("torch.") and q[6:] in HOST_MAKERS:  # no device=, or device="cpu"
                return all(k.arg != "device" and k.arg is not None or k.arg == "device" and _names_cpu(k.value)
                           for k in node.keywords)
            args = node.args + [k.value for k in node.keywords]
            if isinstance(node.func, ast.Attribute) and node.func.attr in ("to", "cuda", "cpu"):
                if node.func.attr == "cuda" or any(_names_device(a) for a in args):
                    return False
                if node.func.attr == "cpu" or any(_names_cpu(a) for a in args):
                    return True
                if not all(_names_dtype(a, qualname) for a in args):  # where the argument is
                    return any(further(a) for a in args)
            elif any(further(a) for a in args):
                return True  # built where an argument is, maybe the host
            if any(further(r) for r in _returned(tree, node.func)):
                return True  # make(), self.make() of a def of the module: what it returns
            if q.startswith("torch.") or not isinstance(node.func, ast.Attribute):
                return False
            node = node.func.value  # a method: its receiver's device (or the one it names)
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, (ast.Starred, ast.NamedExpr)):
            node = node.value
        else:
            break
    if isinstance(node, (ast.IfExp, ast.BoolOp, ast.BinOp, ast.List, ast.Tuple)):
        return any(further(c) for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr))
    if isinstance(node, ast.Name):  # a name is followed once in each scope it is read in
        scope = enclosing_scope(tree, node)
        key, values = f"{node.id}@{id(scope)}", lambda: _name_bindings(tree, node, passed, scope)
    elif isinstance(node, ast.Attribute) and node.attr not in ("device", "dtype"):
        if node.attr in _SAME_PLACE and further(node.value):
            return True  # t.data, t.T, t.grad: where t is
        attr = node.attr
        key, values = "." + attr, lambda: list(_attribute_bindings(tree, attr))
    else:
        return False
    if key in seen:
        return False
    seen.add(key)
    return any(v is not None and further(v) for v in values())


def _returned(tree: ast.AST, func: ast.AST) -> List[ast.AST]:
    """What the module's ``def``s named like the callee (``make`` of ``make()``, ``m`` of
    ``self.m()``; a def in any class, any scope) return: the values of their ``return``s."""
    name = func.id if isinstance(func, ast.Name) else \
        func.attr if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
        and func.value.id in ("self", "cls") else None
    if name is None:
        return []
    defs = tree.__dict__.get(_DEFS)
    if defs is None:
        defs = tree.__dict__[_DEFS] = {}
        for n in ast.walk(tree):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defs.setdefault(n.name, []).append(n)
    out: List[ast.AST] = []
    for d in defs.get(name, ()):
        out.extend(n.value for n in own_nodes(d) if isinstance(n, ast.Return) and n.value is not None)
    return out


_DEFS = "_torchcopy_defs_by_name"  # the tree's own attribute: its defs by name


def _names_dtype(a: ast.AST, qualname: Qualname) -> bool:
    """``torch.float16``, ``x.dtype``: a dtype (``.to(dtype)`` keeps the receiver's device)."""
    q = qualname(a) or ""
    return isinstance(a, ast.Attribute) and a.attr == "dtype" or q.startswith("torch.") and q[6:] in DTYPE_NAMES


def _names_device(a: ast.AST) -> bool:
    """A string literal that names a device other than the host (``"cuda:0"``, ``"meta"``)."""
    return isinstance(a, ast.Constant) and isinstance(a.value, str) and not _names_cpu(a)


def _names_cpu(a: ast.AST) -> bool:
    """``"cpu"``, ``"cpu:0"``, ``torch.device("cpu")``."""
    if isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and a.func.attr == "device" \
            and len(a.args) == 1 and not a.keywords:
        a = a.args[0]
    return isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.split(":")[0] == "cpu"


def _name_bindings(tree: ast.AST, name: ast.Name, passed: Optional[Passed] = None,
                   scope: Optional[ast.AST] = None) -> List[Optional[ast.AST]]:
    """The values bound to ``name`` in the scope that binds it: None for a binding whose
    value cannot be read off (unpacking, ``for``, ``with ... as``, ``global``, a ``case``
    capture and the like); for a parameter, the arguments ``passed`` gives (every call of
    the function being in the module), else none.  ``scope``: the one ``name`` is read in,
    where the caller has it."""
    scope = enclosing_scope(tree, name) if scope is None else scope
    while True:
        found = list(_bindings_in(scope, name.id))
        if found or isinstance(scope, ast.Module):
            return found
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = scope.args
            if any(p.arg == name.id for p in a.posonlyargs + a.args + a.kwonlyargs):
                # a parameter, never rebound: what every call passes it, where the module
                # holds them all; else nothing shows where it was built
                got = passed(scope, name.id) if passed is not None else None
                return list(got) if got else []
        scope = enclosing_scope(tree, scope)


def _bindings_in(scope: ast.AST, name: str, unpacked: bool = False) -> Iterator[Optional[ast.AST]]:
    """The value each binding of ``name`` in ``scope`` stores, None where it is not one
    expression's (``unpacked``: the ``ast.Assign`` of ``a, b = ...`` itself)."""
    stack = children(scope)
    while stack:
        n = stack.pop()
        if isinstance(n, SCOPES):
            if getattr(n, "name", None) == name:
                yield None
            continue  # another scope's names
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            yield None
        elif isinstance(n, ast.Assign) and any(_binds(t, name) for t in n.targets):
            if any(isinstance(t, ast.Name) and t.id == name for t in n.targets):
                yield n.value
            else:
                yield n if unpacked else None
        elif isinstance(n, (ast.AnnAssign, ast.NamedExpr)) and n.value is not None and _binds(n.target, name):
            yield n.value if isinstance(n.target, ast.Name) else None
        elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)) and _binds(n.target, name):
            yield None
        elif isinstance(n, ast.withitem) and n.optional_vars is not None and _binds(n.optional_vars, name):
            yield None
        elif isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name == name \
                or isinstance(n, ast.MatchMapping) and n.rest == name:
            yield None
        elif isinstance(n, (ast.Import, ast.ImportFrom, ast.ExceptHandler, ast.Delete)):
            if any(_binds(t, name) for t in getattr(n, "targets", [])) or getattr(n, "name", None) == name \
                    or any((a.asname or a.name).split(".")[0] == name for a in getattr(n, "names", [])):
                yield None
        stack.extend(children(n))


def _binds(target: ast.AST, name: str) -> bool:
    return any(isinstance(t, ast.Name) and t.id == name for t in ast.walk(target))


def _attribute_bindings(tree: ast.AST, attr: str) -> Iterator[Optional[ast.AST]]:
    """Every value stored in an attribute named ``attr`` anywhere in the module, and every
    tensor registered under that name (``register_buffer("attr", value)``): from an index of
    the module's attribute stores, made once per tree and kept on the tree (it goes with it)."""
    stores = tree.__dict__.get(_INDEX)
    if stores is None:
        stores = tree.__dict__[_INDEX] = _attribute_stores(tree)
    return iter(stores.get(attr, ()))


_INDEX = "_torchcopy_attribute_stores"  # the tree's own attribute that holds its index


def _attribute_stores(tree: ast.AST) -> Dict[str, List[Optional[ast.AST]]]:
    stores: Dict[str, List[Optional[ast.AST]]] = {}
    for n in select(tree, (ast.Assign, ast.AnnAssign, ast.Call)):  # in ast.walk's order
        if isinstance(n, (ast.Assign, ast.AnnAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for t in targets:
                for a in {a.attr for a in walk(t) if isinstance(a, ast.Attribute)}:
                    stores.setdefault(a, []).append(
                        n.value if isinstance(t, ast.Attribute) and n.value is not None else None)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and n.func.attr in ("register_buffer", "register_parameter") \
                and len(n.args) > 1 and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str):
            stores.setdefault(n.args[0].value, []).append(n.args[1])  # a host buffer stays there
    return stores


def statement_and_previous(tree: ast.AST, node: ast.AST) -> Optional[Tuple[ast.stmt, ast.stmt]]:
    """The statement before the innermost statement holding ``node`` in its block, and that
    statement; None when it opens its block (found by position, down one path)."""
    t: Any = node
    start, end = (t.lineno, t.col_offset), (t.end_lineno, t.end_col_offset)
    found: Optional[Tuple[ast.stmt, ast.stmt]] = None
    parent: Optional[ast.AST] = tree
    while parent is not None:
        blocks = [getattr(parent, f) for f in _BLOCKS if isinstance(getattr(parent, f, None), list)]
        parent = None
        for block in blocks:
            for i, s in enumerate(block):
                if isinstance(s, ast.match_case):
                    if any(_holds(c, start, end) for c in s.body):
                        parent = s
                    continue
                if _holds(s, start, end):
                    if isinstance(s, ast.stmt):
                        found = (block[i - 1], s) if i and isinstance(block[i - 1], ast.stmt) else None
                    parent = s
    return found


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _holds(s: Any, start: tuple, end: tuple) -> bool:
    return (s.lineno, s.col_offset) <= start and end <= (s.end_lineno, s.end_col_offset)
