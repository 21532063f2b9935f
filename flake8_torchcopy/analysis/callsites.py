"""Parameter summaries: what a closed function's parameters hold, joined over its calls.

``def _blur(imgs): ...`` called only as ``_blur(F.interpolate(x, ...))`` receives a
tensor: the walker may start ``_blur``'s body with ``imgs`` a tensor.  That holds only
when the module shows *every* call, so a function's calls count only when it is
**closed** (:mod:`.closedness` finds those functions and their calls).

A parameter's entry value is then the join of what every call passes, or of the
default where a call passes nothing: a tensor only when every call passes a tensor;
a tensor at some calls and provably something else at the others is "tensor on some
path" (reported without a fix).

A module shows every call only of a nested function (called only inside the function
that defines it): a private module-level function or a private method is still reached
from elsewhere (``getattr(mod, name)``, ``eval``, a test doing ``from pkg.mod import
_helper``, a subclass in another module).  So a finding that rests on the calls of one
of those is reported, and its fix is unsafe: such a parameter carries the caveat
:data:`UNSEEN_CALLERS` (:attr:`ClosedFunction.public`), and so does what is computed
from it, through the calls it is passed on to; only what rests on nested functions'
calls keeps a safe fix.

The walker computes the entry values in rounds (:class:`.flow.ModuleWalk`):
the first round starts every parameter unknown, each next round walks again the functions
whose parameters the previous one learnt something about, and the rounds stop when
nothing changes or after :data:`MAX_ROUNDS` walks.  Every round's result is sound (it
starts from facts), so the bound costs reach, never precision.
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Set

from .values import NOT, NOT_VALUE, TENSOR, UNKNOWN, Value, join

MAX_ROUNDS = 3

#: the caveat on a parameter of a module-level function or a method: the module shows its
#: calls here, not those of other modules (reflection, a test importing the helper)
UNSEEN_CALLERS = "only this module's calls are seen, and other modules may call the function"

BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")  # the statement lists of a node


class ClosedFunction:
    """A closed function, its parameters and every call of it in the module."""

    __slots__ = ("node", "positional", "named", "defaults", "calls", "public")  # public: see below

    def __init__(self, node: ast.AST, method: bool = False) -> None:
        self.node = node
        a = node.args  # type: ignore[attr-defined]
        every = [p.arg for p in a.posonlyargs + a.args]
        self.defaults: Dict[str, ast.expr] = dict(zip(every[len(every) - len(a.defaults):], a.defaults))
        self.defaults.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
        self.positional: List[str] = every[1:] if method else every  # a method's self is not passed
        if method:
            self.defaults.pop(every[0], None)
        self.named: Set[str] = {p.arg for p in a.args + a.kwonlyargs} & set(
            self.positional + [p.arg for p in a.kwonlyargs])
        self.calls: List[ast.Call] = []
        self.public = False  # other modules may call it (every function but a nested one):
        # the fixes of findings that rest on its calls are unsafe

    @property
    def params(self) -> List[str]:
        a = self.node.args  # type: ignore[attr-defined]
        return self.positional + [p.arg for p in a.kwonlyargs]

    def binds(self, call: ast.Call) -> bool:
        """Can every argument of ``call`` be matched to a parameter?"""
        if any(isinstance(a, ast.Starred) for a in call.args):
            return False
        if any(k.arg is None or k.arg not in self.named for k in call.keywords):
            return False
        return len(call.args) <= len(self.positional) or self.node.args.vararg is not None  # type: ignore[attr-defined]

    def arguments(self, call: ast.Call) -> Dict[str, Optional[ast.expr]]:
        """Each parameter's argument at ``call``: the passed node, else its default node
        (None when neither: the call would raise, and tells nothing)."""
        out: Dict[str, Optional[ast.expr]] = {p: self.defaults.get(p) for p in self.params}
        for p, a in zip(self.positional, call.args):
            out[p] = a
        for k in call.keywords:
            out[k.arg] = k.value  # type: ignore[index]
        return out


class CallSites:
    """The calls the walker records: ``calls`` maps ``id(call)`` to the closed function
    called; ``callers`` holds ``id()`` of every function around such a call (the walker
    walks them even where no rule can match, to see what they pass)."""

    __slots__ = ("calls", "callers")

    def __init__(self, calls: Dict[int, ClosedFunction], callers: Set[int]) -> None:
        self.calls = calls
        self.callers = callers


NO_CALLSITES = CallSites({}, set())


def parameter_seeds(sites: CallSites, passed: Dict[int, Dict[str, Value]]) -> Dict[int, Dict[str, Value]]:
    """``{id(def): {parameter: value on entry}}`` from what every call passed; a function
    one of whose calls was not walked (dead code, a branch never evaluated) gets none.
    Only the kind travels (sizes are the caller's symbols), and a tensor passed with a
    permuted layout stays marked so, so it is never assumed contiguous.  A caveat on what
    a call passes (it may be a Tensor subclass...) stays on the parameter, and a tensor
    parameter of a function other modules may call (:attr:`ClosedFunction.public`) gets
    :data:`UNSEEN_CALLERS`: a fix that rests on it is unsafe, the finding stays."""
    by_func: Dict[int, ClosedFunction] = {id(c.node): c for c in sites.calls.values()}
    out: Dict[int, Dict[str, Value]] = {}
    for key, c in by_func.items():
        maybe = [passed.get(id(call)) for call in c.calls]
        records = [r for r in maybe if r is not None]
        if len(records) != len(maybe):
            continue
        params: Dict[str, Value] = {}
        for p in c.params:
            values = [r[p] for r in records if p in r]
            if not values:
                continue
            v = values[0]
            for w in values[1:]:
                v = join(v, w)
            permuted = next((w.permuted_by for w in values if w.permuted_by), None)
            if v.kind == TENSOR:
                caveat = v.caveat or (UNSEEN_CALLERS if c.public else None)
                params[p] = Value(TENSOR, permuted_by=permuted, caveat=caveat)
            elif v.kind == NOT:
                params[p] = NOT_VALUE
            elif v.kind == UNKNOWN and v.mixed:
                params[p] = Value(UNKNOWN, mixed=True)
        if params:
            out[key] = params
    return out
