"""Is a method's returned layout its own: independent of the layouts of its parameters?

A method walked with its parameters unknown takes them contiguous (as every untraced
tensor): ``return x.view(b, -1, c).transpose(0, 1)`` then reads as laid out in the order
``(1, 0, 2)``, but a caller passing ``x.transpose(0, 1)`` gets a view of its own strides
(the view succeeds on it) and a contiguous result.  Such an order holds for the calls
that pass contiguous tensors only: a ``self.m(...)`` result never claims a raising view
on it (:func:`.selfmethods.hedged`); an ``m.method(...)`` of an instance claims the order
only where :func:`own_layout` says every ``return`` is independent of them.

Read from the text, conservatively: a parameter (all but the first, ``self``) counts only
where its layout cannot reach the result: its sizes read (``x.size(0)``, ``x.shape``,
``len(x)``), below a ``.contiguous()``, in the size or dim arguments of a view or a
permutation (``y.view(bsz, -1)``), in those of a cast (``y.to(x)``, ``y.to(args.device)``:
the layout is ``y``'s, as ``memory_format`` defaults to ``preserve_format``), or in the arguments of a torch factory
(``torch.zeros(n, 3)``).  A local name is followed through its plain assignments
(``h = x.transpose(0, 1)``, ``h = h.to(d)``); any other binding of it (a loop, an unpacking, ``+=``...) and
any other use of a parameter (an argument of another call, an operand) count as dependent.
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Set

#: methods whose arguments are sizes or dims (never a tensor whose layout reaches the result)
_SIZE_ARGS = frozenset({"view", "reshape", "expand", "transpose", "permute", "flatten", "unflatten",
                        "narrow", "select", "unsqueeze", "squeeze", "movedim", "moveaxis", "swapaxes",
                        "swapdims", "repeat", "new_zeros", "new_ones", "new_empty", "new_full"})
#: methods whose arguments give a dtype or a device, or a tensor's (``.to(y)``): the layout
#: is the receiver's (``memory_format`` aside)
_CASTS = frozenset({"to", "type", "type_as", "cuda", "cpu", "float", "double", "half", "bfloat16",
                    "long", "int", "bool"})
#: methods whose value is no tensor, or a tensor laid out by its sizes alone
_OWN = frozenset({"size", "dim", "numel", "nelement", "ndimension", "contiguous", "is_contiguous"})
_ATTRS = frozenset({"shape", "ndim", "dtype", "device"})
#: torch factories: their arguments are sizes, their result contiguous
_FACTORIES = frozenset({"zeros", "ones", "empty", "full", "rand", "randn", "randint", "arange", "eye",
                        "linspace", "tensor"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _own_nodes(func: ast.AST):
    """The nodes of ``func``'s body, not of a function or class inside it."""
    todo: List[ast.AST] = list(getattr(func, "body", []))
    while todo:
        node = todo.pop()
        yield node
        todo.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, _SCOPES))


def _bindings(func: ast.AST) -> Dict[str, Optional[List[ast.AST]]]:
    """Each name the body binds: the values of its plain assignments, None where it is bound
    otherwise too."""
    out: Dict[str, Optional[List[ast.AST]]] = {}
    plain: Set[int] = set()
    nodes = list(_own_nodes(func))
    for node in nodes:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else []
        if targets and all(isinstance(t, ast.Name) for t in targets):
            for t in targets:
                plain.add(id(t))
                seen = out.setdefault(t.id, [])  # type: ignore[attr-defined]
                if seen is not None:
                    seen.append(node.value)
    for node in nodes:
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)) and id(node) not in plain:
            out[node.id] = None
    return out


def own_layout(func: ast.AST) -> bool:
    """Is the layout of every ``return`` of ``func`` (a method) independent of its
    parameters' layouts (conditions in the module doc)?"""
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    a = func.args
    params = [p.arg for p in a.posonlyargs + a.args][1:] + [p.arg for p in a.kwonlyargs]
    params += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
    binds = _bindings(func)
    returns = [n for n in _own_nodes(func) if isinstance(n, ast.Return)]
    if not returns or any(r.value is None for r in returns):
        return False
    active: Set[str] = set()

    def dep(node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            if node.id in params:
                return True
            if node.id not in binds:
                return False  # a global, a builtin: as untraced as everywhere
            values = binds[node.id]
            if values is None:
                return True
            if node.id in active:
                return False  # a rebinding from itself (``h = h.to(d)``): its other values decide
            active.add(node.id)
            try:
                return any(dep(v) for v in values)
            finally:
                active.discard(node.id)
        if isinstance(node, ast.Attribute) and node.attr in _ATTRS:
            return False
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id == "len":
                return False
            if isinstance(f, ast.Attribute):
                if f.attr in _OWN:
                    return False
                if isinstance(f.value, ast.Name) and f.value.id == "torch" and f.attr in _FACTORIES:
                    return False
                if f.attr in _SIZE_ARGS or f.attr in _CASTS:
                    return dep(f.value) or any(dep(k.value) for k in node.keywords
                                               if k.arg in (None, "memory_format")) \
                        or f.attr in _CASTS and any(dep(x) for x in node.args[2:])  # .to(d, t, nb, cp, fmt)
        if isinstance(node, ast.Slice):
            return False  # bounds are ints
        if isinstance(node, _SCOPES):
            return True
        return any(dep(c) for c in ast.iter_child_nodes(node))

    return not any(dep(r.value) for r in returns if r.value is not None)
