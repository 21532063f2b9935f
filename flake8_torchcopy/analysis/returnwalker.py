"""The data-flow walker run on another module's function, for the cross-module summaries.

:func:`walker_of` walks a module's body once (the environment its functions see) with
:class:`~.flow.FlowWalker`, walking no function unless asked; :meth:`returns_tensor` then
walks one function, recording what each of its ``return`` statements evaluates to, and
says whether every one is a tensor (its parameters unknown), or, where every ``return`` is a
tuple display of one length (``return vals, vecs``; :func:`tuple_length`), at which
positions every one holds a tensor (:func:`tuple_shape`).  The class is made when first
needed: flow imports exprs, which imports the summaries.
"""
from __future__ import annotations

import ast
from typing import Any, List, Optional, Tuple, Union

from .nodeindex import walk
from .returns import own_nodes
from .values import NOT, TENSOR, UNKNOWN_VALUE, Env, Value

#: what a function's calls return, as the summaries answer: True a tensor, a tuple of bools
#: a tuple of that length with a tensor where True (``return vals, vecs``), False neither
Shape = Union[bool, Tuple[bool, ...]]

_RETURN_WALKER: Optional[Any] = None


def _return_walker_class() -> Any:
    """:class:`~.flow.FlowWalker`, walking no function unless asked, recording what each
    ``return`` of the function asked about evaluates to (every time it is walked)."""
    global _RETURN_WALKER
    if _RETURN_WALKER is not None:
        return _RETURN_WALKER
    from .flow import FlowWalker  # flow imports exprs, which imports the summaries

    class ReturnWalker(FlowWalker):
        target: Optional[ast.AST] = None
        function_of: Optional[int] = None
        walks_returns = False  # a call's value by return forms only (.walked_returns)
        returned: List[Optional[Value]] = []  # set per walk (returns_tensor)
        returned_at: List[ast.Return] = []  # the statement of each (.somereturns)

        def may_match(self, node: ast.AST) -> bool:
            return node is self.target

        def def_outer(self, func) -> Env:
            return self.scope_outer()  # any function may be asked about later

        def s_Return(self, s):
            out = super().s_Return(s)
            if self.target is not None and self.function_of == id(self.target):
                self.returned.append(self.cache.get(id(s.value)) if s.value is not None else None)
                self.returned_at.append(s)
            return out

        def function(self, func, outer, jit) -> None:
            saved = self.function_of
            self.function_of = id(func)
            try:
                super().function(func, outer, jit)
            finally:
                self.function_of = saved

        def returns_shape(self, func: ast.AST) -> Shape:
            """True: every return of ``func`` is a tensor; the tensor positions where every
            return is a tuple display of one length (:func:`tuple_length`); else False."""
            n = tuple_length(func)
            if n is None and not _returns_may_be_tensors(func):
                return False
            got = self.returns_of(func) or []
            if n is not None:
                return tuple_shape(got, n) or False
            return bool(got) and all(v is not None and v.kind == TENSOR for v in got)

        def returns_of(self, func: ast.AST) -> Optional[List[Optional[Value]]]:
            """What each ``return`` of ``func`` evaluates to (None: not walked)."""
            entry = self.walked.get(id(func))
            if entry is None:
                return None
            self.target, self.returned, self.returned_at, self.deferred = func, [], [], []
            try:
                self.function(func, entry[1], entry[2])
            except RecursionError:
                return None
            finally:
                self.target, self.deferred = None, []
            return self.returned

    _RETURN_WALKER = ReturnWalker
    return ReturnWalker


def walker_of(source: str, path: str, tree: ast.Module) -> Any:
    """A walker of the module (``source``, parsed: ``tree``) that has walked its body and
    recorded its functions, ready for ``returns_tensor(func)``."""
    from ..engine import DEFAULT_OPTIONS
    from .visitor import NO_VISITOR

    w = _return_walker_class()(source, tree, NO_VISITOR, DEFAULT_OPTIONS)
    w.path = path
    w.returned, w.returned_at = [], []
    try:
        w.run()  # the module body; functions are only recorded (may_match is False)
    except RecursionError:
        w.walked = {}
    return w


def module_returns(ev, func: ast.AST, forward: bool = False) -> Optional[list]:
    """What each ``return`` of ``func`` (a function of the module ``ev`` walks) evaluates to,
    its parameters unknown, by one walker of returns per module (:func:`walker_of`, kept on
    ``ev``); None where it was not walked.  ``forward``: an ``nn.Module``'s ``forward``,
    whose every torch.nn instance counts (:mod:`.nnclasses`)."""
    walker = ev.__dict__.get("_method_walker")
    if walker is None:
        walker = ev.__dict__["_method_walker"] = walker_of(ev.source, ev.path or "", ev.tree)
        walker.no_self_methods = True
    return summarised(walker, func, forward, walker.returns_of)


def summarised(walker, func: ast.AST, forward: bool, ask):
    """``ask(func)`` with the walker summarising a ``forward`` (``forward``) or not."""
    walker.summarising_forward = forward
    try:
        return ask(func)
    finally:
        walker.summarising_forward = False


def walked_returns(ev, func: ast.AST) -> Optional[Value]:
    """A call of the module-level ``func`` (of the module ``ev`` walks) where every ``return``
    of it is a tensor by the data-flow walk of the function, its parameters unknown (``y =
    torch.zeros(n); return y * 2``), it ends in a ``return`` and its name is bound once
    (:mod:`.returns`): a tensor, with the caveat a returned value carries; None otherwise.
    Only asked where the function's text names ``torch`` (nothing else makes a tensor from
    nothing); the walker of returns asks no further (its calls keep to return forms)."""
    from .returns import def_bound_once, exits_by_return
    if not getattr(ev, "walks_returns", True) or not exits_by_return(func):
        return None
    n = tuple_length(func)
    if n is None and not _returns_may_be_tensors(func) \
            or "torch" not in ev.idx.text(func) or not def_bound_once(func, ev.static_qualname):  # type: ignore[arg-type]
        return None
    values = module_returns(ev, func)
    if n is not None:
        shape = tuple_shape(values or [], n)
        if shape is None:
            return None
        rows = [v.elems for v in values or [] if v is not None and v.elems is not None]
        return tuple_value(shape, [next((r[i].caveat for r in rows if r[i].caveat), None) for i in range(n)],
                           [next((r[i].permuted_by for r in rows if r[i].permuted_by), None) for i in range(n)])
    if not values or any(v is None or v.kind != TENSOR for v in values):
        return None
    return Value(TENSOR, caveat=next((v.caveat for v in values if v.caveat), None),
                 permuted_by=next((v.permuted_by for v in values if v.permuted_by), None))  # never contiguous


def tuple_length(func: ast.AST) -> Optional[int]:
    """n where every ``return`` of ``func`` itself (not of a function inside it) is a tuple
    display of n items, none starred (``return vals, vecs``); else None.  (A function that
    may end otherwise is ruled out by the callers: it ends in a ``return``.)"""
    n: Optional[int] = None
    for node in own_nodes(func):
        if isinstance(node, ast.Return):
            v = node.value
            if not isinstance(v, ast.Tuple) or not v.elts or any(isinstance(e, ast.Starred) for e in v.elts) \
                    or n is not None and len(v.elts) != n:
                return None
            n = len(v.elts)
    return n


def tuple_shape(values: List[Optional[Value]], n: int) -> Optional[Tuple[bool, ...]]:
    """At which of the n positions every recorded return (tuple displays of n items) holds a
    tensor; None where none does, or a return was not recorded."""
    if not values or any(v is None or v.elems is None or len(v.elems) != n for v in values):
        return None
    rows = [v.elems for v in values if v is not None and v.elems is not None]
    shape = tuple(all(r[i].kind == TENSOR for r in rows) for i in range(n))
    return shape if any(shape) else None


def tuple_value(shape: Tuple[bool, ...], caveats: List[Optional[str]],
                permuted: Optional[List[Optional[str]]] = None) -> Value:
    """A call's value where its function returns a tuple of ``shape``: a tensor (with its
    caveat, and marked permuted where it was) at each True position, unknown at the others."""
    marks = permuted or [None] * len(shape)
    elems = tuple(Value(TENSOR, caveat=c, permuted_by=m) if t else UNKNOWN_VALUE
                  for t, c, m in zip(shape, caveats, marks))
    item = Value(TENSOR, caveat=next((c for c in caveats if c), None),
                 permuted_by=next((m for m in marks if m), None)) if all(shape) else None
    return Value(NOT, elems=elems, item=item)


#: return values that are never a tensor (a literal, a display, a test, a string, a function)
_NEVER_TENSOR = (ast.Constant, ast.Tuple, ast.List, ast.Dict, ast.Set, ast.JoinedStr, ast.Compare,
                 ast.BoolOp, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)


def _returns_may_be_tensors(func: ast.AST) -> bool:
    """A quick look before the walk: no ``return`` gives a form that is never a tensor, or a
    parameter as it came (the walk knows nothing of it)."""
    a = func.args  # type: ignore[attr-defined]
    params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    for node in walk(func):
        if isinstance(node, ast.Return):
            v = node.value
            if v is None or isinstance(v, _NEVER_TENSOR) or isinstance(v, ast.Name) and v.id in params:
                return False
    return True
