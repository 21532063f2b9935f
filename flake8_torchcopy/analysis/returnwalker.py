"""The data-flow walker run on another module's function, for the cross-module summaries.

:func:`walker_of` walks a module's body once (the environment its functions see) with
:class:`~.flow.FlowWalker`, walking no function unless asked; :meth:`returns_tensor` then
walks one function, recording what each of its ``return`` statements evaluates to, and
says whether every one is a tensor (its parameters unknown).  The class is made when first
needed: flow imports exprs, which imports the summaries.
"""
from __future__ import annotations

import ast
from typing import Any, List, Optional

from .values import TENSOR, Env, Value

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

        def may_match(self, node: ast.AST) -> bool:
            return node is self.target

        def def_outer(self, func) -> Env:
            return self.scope_outer()  # any function may be asked about later

        def s_Return(self, s):
            out = super().s_Return(s)
            if self.target is not None and self.function_of == id(self.target):
                self.returned.append(self.cache.get(id(s.value)) if s.value is not None else None)
            return out

        def function(self, func, outer, jit) -> None:
            saved = self.function_of
            self.function_of = id(func)
            try:
                super().function(func, outer, jit)
            finally:
                self.function_of = saved

        def returns_tensor(self, func: ast.AST) -> bool:
            got = self.returns_of(func) or []
            return bool(got) and all(v is not None and v.kind == TENSOR for v in got)

        def returns_of(self, func: ast.AST) -> Optional[List[Optional[Value]]]:
            """What each ``return`` of ``func`` evaluates to (None: not walked)."""
            entry = self.walked.get(id(func))
            if entry is None:
                return None
            self.target, self.returned, self.deferred = func, [], []
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
    w.returned = []
    try:
        w.run()  # the module body; functions are only recorded (may_match is False)
    except RecursionError:
        w.walked = {}
    return w


def module_returns(ev, func: ast.AST) -> Optional[list]:
    """What each ``return`` of ``func`` (a function of the module ``ev`` walks) evaluates to,
    its parameters unknown, by one walker of returns per module (:func:`walker_of`, kept on
    ``ev``); None where it was not walked."""
    walker = ev.__dict__.get("_method_walker")
    if walker is None:
        walker = ev.__dict__["_method_walker"] = walker_of(ev.source, ev.path or "", ev.tree)
        walker.no_self_methods = True
    return walker.returns_of(func)


def walked_returns(ev, func: ast.AST) -> Optional[Value]:
    """A call of the module-level ``func`` (of the module ``ev`` walks) where every ``return``
    of it is a tensor by the data-flow walk of the function, its parameters unknown (``y =
    torch.zeros(n); return y * 2``), it ends in a ``return`` and its name is bound once
    (:mod:`.returns`): a tensor, with the caveat a returned value carries; None otherwise.
    Only asked where the function's text names ``torch`` (nothing else makes a tensor from
    nothing); the walker of returns asks no further (its calls keep to return forms)."""
    from .returns import def_bound_once, exits_by_return
    if not getattr(ev, "walks_returns", True) or not exits_by_return(func) or not _returns_may_be_tensors(func) \
            or "torch" not in ev.idx.text(func) or not def_bound_once(func, ev.static_qualname):  # type: ignore[arg-type]
        return None
    values = module_returns(ev, func)
    if not values or any(v is None or v.kind != TENSOR for v in values):
        return None
    return Value(TENSOR, caveat=next((v.caveat for v in values if v.caveat), None))


#: return values that are never a tensor (a literal, a display, a test, a string, a function)
_NEVER_TENSOR = (ast.Constant, ast.Tuple, ast.List, ast.Dict, ast.Set, ast.JoinedStr, ast.Compare,
                 ast.BoolOp, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)


def _returns_may_be_tensors(func: ast.AST) -> bool:
    """A quick look before the walk: no ``return`` gives a form that is never a tensor, or a
    parameter as it came (the walk knows nothing of it)."""
    a = func.args  # type: ignore[attr-defined]
    params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    for node in ast.walk(func):
        if isinstance(node, ast.Return):
            v = node.value
            if v is None or isinstance(v, _NEVER_TENSOR) or isinstance(v, ast.Name) and v.id in params:
                return False
    return True
