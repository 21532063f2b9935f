"""Does a tensor certainly not require grad?  (TRC103: a clone of it records no node.)

``t.clone().detach()`` costs a graph node only where ``t`` requires grad.  Some values never
do (checked with torch in ``tests/test_grad_free.py``): the result of ``.detach()`` or
``torch.detach(t)``; an index of such a value (``p[i]``, ``p[:k]``), a reshaping or
conversion method of it (``view``, ``to``, ``float``, ...) or attribute (``.T``, ``.mT``,
``.H``, ``.mH``, ``.real``, ``.imag``: ``p.data.T``), and ``torch.cat``/``torch.stack`` of a
list or tuple display of such values; and, whatever they are computed from, a comparison
(``(t != -100)``: a bool tensor) and a cast to an integer or bool dtype (``t.long()``,
``t.bool()``), ``t.data`` (a tensor sharing ``t``'s storage outside autograd, a parameter's
too; the ``.data`` of another object, a ``PackedSequence``'s, may require grad: a miss there),
the indices of ``torch.topk(t, k, dim=1)`` (``max``, ``sort``...: unpacked, ``_, i = ...``,
or read as ``.indices``), and ``self.X`` of an integer or bool buffer its class registers
(:mod:`.intbuffers`): only floating point and complex tensors can require grad.  A name
is followed to every binding in the scope that binds it: each must be a plain assignment of such a value (no parameter,
unpacking, ``for``, augmented assignment, ``global``), and no read of the name may change
it in place: a method or function ending in ``_`` (``p.requires_grad_()``,
``p.view(-1).add_(w)``, ``torch.Tensor.add_(p, w)``; ``p.__iadd__(w)``, ``setattr(p, ...)``,
``operator.iadd(p, w)`` too) or a store or delete through it
(``p[0] = w``, ``p.requires_grad = True``).  (``op(..., out=p)`` cannot: torch raises
where an operand requires grad.)  Where that fails, the binding every path to the read runs
last is followed instead (:mod:`.gradreach`: ``d_p = p.grad.data`` at the top of an
optimizer's loop, rebound later in it).

Factories (``torch.zeros(3)``, ``torch.randn(3)``) do not require grad either, but are not
followed: ``x = torch.randn(3); x.clone().detach()`` stays reported (a choice left open:
it is the project's example of the rule).

Only a "yes" quiets a report, so the answer errs to "no".  What it cannot see: a view of
the name bound to another name and changed in place there, or the name handed to a
function that changes it; then ``p`` may require grad and a report is lost (a miss, never
a wrong report).  Past ``_DEPTH`` steps the answer is "no".
"""
from __future__ import annotations

import ast
from typing import Callable, Dict, Optional

from .gradreach import dominating_value
from .hostmade import _bindings_in
from .intbuffers import int_literal, integral_buffer
from .nodeindex import parents as parents_of
from .scopes import enclosing_scope

Qualname = Callable[[ast.AST], Optional[str]]

#: torch functions joining a display of tensors into a new one
JOINS = frozenset("cat concat concatenate stack hstack vstack".split())
#: methods whose result requires grad only where their receiver does
SAME_GRAD = frozenset("""
    view reshape unsqueeze squeeze flatten transpose permute t contiguous expand repeat
    narrow select clone to cpu cuda float double half bfloat16 long int short bool
    """.split())
#: attributes whose result requires grad only where their receiver does (``p.data.T``)
SAME_GRAD_ATTRS = frozenset("T mT H mH real imag".split())
#: casts to an integer or bool dtype: their result never requires grad, whatever the receiver
INTEGRAL_CASTS = frozenset("bool long int short byte char".split())
#: comparisons that give a bool tensor (``is``/``in`` give a Python bool)
_COMPARISONS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_DEPTH = 12
#: in-place changes not named with a closing ``_``: ``setattr``, ``operator``'s, their dunders
_INPLACE_OTHERS = frozenset("""
    iadd isub imul itruediv ifloordiv imod ipow imatmul iand ior ixor ilshift irshift idiv iconcat
    setitem delitem setattr delattr
    """.split())
_INPLACE_OTHERS |= frozenset(f"__{n}__" for n in _INPLACE_OTHERS)
#: (values, indices) pairs: always, and only with a dim (``torch.max(x)`` is one tensor)
_ALWAYS_INDEXED = frozenset("sort topk kthvalue cummax cummin".split())
_INDEXED_WITH_DIM = frozenset("max min mode median nanmedian".split())


def certainly_no_grad(tree: ast.AST, node: ast.AST, qualname: Qualname, depth: int = 0,
                      seen: Optional[Dict[str, bool]] = None, alias: bool = False) -> bool:
    """Does ``node`` certainly not require grad (see the module's docstring)?  ``seen``: the
    answer for each name followed already (False while it is being followed: a cycle);
    ``alias``: ``node`` is (a view of) what a followed binding stored, so a name in it must
    stay unchanged in place after that binding too (``x = y; y.requires_grad_()``)."""
    seen = {} if seen is None else seen
    if depth > _DEPTH:
        return False

    def further(n: ast.AST, aliased: bool = alias) -> bool:
        return certainly_no_grad(tree, n, qualname, depth + 1, seen, aliased)

    if isinstance(node, ast.Subscript):
        return further(node.value)
    if isinstance(node, ast.Name):
        return _name_no_grad(tree, node, further, seen, alias)
    if isinstance(node, ast.Compare):
        return all(isinstance(op, _COMPARISONS) for op in node.ops)
    if isinstance(node, ast.Attribute):
        if node.attr == "data":
            return True  # t.data: never requires grad (a PackedSequence's .data may: a miss)
        if node.attr == "indices" and _gives_indices(node.value):
            return True  # torch.topk(x, 5, dim=1).indices: int64
        if node.attr in SAME_GRAD_ATTRS:
            return further(node.value)  # p.data.T: requires grad only where p.data does
        return integral_buffer(tree, node, qualname)  # self.X of an integer buffer the class registers
    if not isinstance(node, ast.Call):
        return False
    func, kws = node.func, {k.arg for k in node.keywords}
    q = qualname(func) or ""
    if q == "torch.detach":
        return True
    if q.startswith("torch.") and q[6:] in JOINS:
        items = node.args[0] if node.args else None
        return ("out" not in kws and None not in kws and isinstance(items, (ast.List, ast.Tuple))
                and bool(items.elts) and all(further(e, False) for e in items.elts))
    if q or not isinstance(func, ast.Attribute):
        return False
    if func.attr == "detach" or func.attr in INTEGRAL_CASTS:
        return not node.args and not node.keywords
    return func.attr in SAME_GRAD and further(func.value)


def _name_no_grad(tree: ast.AST, name: ast.Name, further: Callable[..., bool],
                  seen: Dict[str, bool], alias: bool) -> bool:
    scope = enclosing_scope(tree, name)
    while True:
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = scope.args
            if any(p.arg == name.id for p in a.posonlyargs + a.args + a.kwonlyargs) \
                    or name.id in (getattr(a.vararg, "arg", None), getattr(a.kwarg, "arg", None)):
                return _dominated(scope, name, further, seen, alias)  # a parameter, unless rebound before
        values = list(_bindings_in(scope, name.id, unpacked=True))
        if values or isinstance(scope, ast.Module):
            break
        scope = enclosing_scope(tree, scope)
    key = f"{name.id}@{id(scope)}"
    if key not in seen:
        seen[key] = False
        seen[key] = bool(values) and not any(v is None for v in values) \
            and not _changed_in_place(scope, name.id) \
            and all(v is not None and (_indices(v, name.id) if isinstance(v, ast.Assign) else further(v, True))
                    for v in values)
    return seen[key] or _dominated(scope, name, further, seen, alias)


def _dominated(scope: ast.AST, name: ast.Name, further: Callable[..., bool],
               seen: Dict[str, bool], alias: bool) -> bool:
    """Is the binding every path to this read runs last (:mod:`.gradreach`) free of grad?
    Where the read is (a view of) a value another binding stores (``alias``), that binding
    may outlive the read: the name must change in place nowhere in its scope
    (``x = y.view(-1); y.mul_(w); x.clone().detach()``: ``x`` requires grad, checked with torch)."""
    if alias and _changed_in_place(scope, name.id):
        return False
    key = f"@{id(name)}"
    if key not in seen:
        seen[key] = False
        value = dominating_value(scope, name, _mutating_chain, lambda n: further(n, False))
        seen[key] = value is not None and further(value, True)
    return seen[key]


def _indices(assign: ast.Assign, name: str) -> bool:
    """Is ``name`` the indices of ``values, name = torch.max(x, dim)`` (``min``, ``sort``,
    ``topk``, ``kthvalue``, ``mode``, ``median``, ``cummax``, ``cummin`` with a dim; their
    methods too)?  An int64 tensor, which never requires grad (checked with torch).  A dim
    must be written (an int, ``dim=``): ``torch.max(a, b)`` of two tensors is elementwise."""
    if len(assign.targets) != 1:
        return False
    target = assign.targets[0]
    return (isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == 2
            and isinstance(target.elts[1], ast.Name) and target.elts[1].id == name
            and not (isinstance(target.elts[0], ast.Name) and target.elts[0].id == name)
            and _gives_indices(assign.value))


def _gives_indices(call: ast.AST) -> bool:
    """Is ``call`` a (values, indices) pair of :func:`_indices` (``torch.topk(x, 5, dim=1)``)?"""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and not any(isinstance(a, ast.Starred) for a in call.args)
            and all(k.arg is not None for k in call.keywords)):
        return False
    fn = call.func.attr
    function = isinstance(call.func.value, ast.Name) and call.func.value.id == "torch"
    dims = call.args[1:] if function else call.args
    if fn in _ALWAYS_INDEXED:
        return True
    if fn not in _INDEXED_WITH_DIM:
        return False
    return any(k.arg == "dim" for k in call.keywords) or bool(dims) and int_literal(dims[0])


def _changed_in_place(scope: ast.AST, name: str) -> bool:
    """May a read of ``name`` anywhere in ``scope`` (nested scopes too) change it in place, or a
    nested scope rebind it (``global``/``nonlocal``)?"""
    parents = parents_of(scope)
    for n in ast.walk(scope):
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == name:
            return True  # p += w: in place for a tensor
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            return True  # a nested def or class rebinding it (nonlocal p; p = w): not seen as a binding here
        if isinstance(n, ast.Name) and n.id == name and _mutating_chain(n, parents):
            return True
    return False


def _mutating_chain(node: ast.AST, parents: Dict[int, ast.AST]) -> bool:
    """Does the chain of attributes, indexes and calls read from ``node`` change it in place?"""
    child, parent = node, parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.Call) and child in parent.args and _inplace_name(parent.func):
            return True  # torch.Tensor.add_(p, w), torch.nn.init.zeros_(p)
        if isinstance(parent, ast.Attribute) and parent.value is child:
            if not isinstance(parent.ctx, ast.Load) or _inplace_name(parent):
                return True
        elif isinstance(parent, ast.Subscript) and parent.value is child:
            if not isinstance(parent.ctx, ast.Load):
                return True
        elif not (isinstance(parent, ast.Call) and parent.func is child):
            return False
        child, parent = parent, parents.get(id(parent))
    return False


def _inplace_name(func: ast.AST) -> bool:
    """``add_``, ``requires_grad_``, ``zeros_``: an in-place method or function (not a dunder
    but the in-place ones, ``__iadd__``, ``__setitem__``); ``setattr(p, "requires_grad", True)``,
    ``operator.iadd(p, w)``, ``operator.setitem(p, 0, w)`` (each makes ``p`` require grad)."""
    n = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return n.endswith("_") and not n.endswith("__") or n in _INPLACE_OTHERS
