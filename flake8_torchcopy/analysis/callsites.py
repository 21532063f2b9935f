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
calls keeps a safe fix.  Where the module is in a package on disk, what the package's other
modules pass such a function is joined in too (:mod:`.projectcallers`; asked only where it
could matter: see :func:`parameter_seeds`), and a function they alone call gets seeds
from them; where one of them may reach it unseen, its parameters stay unknown.

The walker computes the entry values in rounds (:class:`.flow.ModuleWalk`):
the first round starts every parameter unknown, each next round walks again the functions
whose parameters the previous one learnt something about, and the rounds stop when
nothing changes or after :data:`MAX_ROUNDS` walks.  Every round's result is sound (it
starts from facts), so the bound costs reach, never precision.
"""
from __future__ import annotations

import ast
from typing import Callable, Dict, List, Optional, Sequence, Set

from .paramlayouts import carried, seeded
from .values import NOT, NOT_VALUE, OTHER_MODULE, TENSOR, UNKNOWN, UNKNOWN_VALUE, Value, join

MAX_ROUNDS = 3

#: the caveat on a parameter of a module-level function or a method: the module shows its
#: calls here, not those of other modules (reflection, a test importing the helper)
UNSEEN_CALLERS = "only this module's calls are seen, and other modules may call the function"

BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")  # the statement lists of a node


class ClosedFunction:
    """A closed function, its parameters and every call of it in the module."""

    __slots__ = ("node", "positional", "named", "defaults", "calls", "public", "external", "layout_only")

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
        self.external: Optional[List[Dict[str, Value]]] = None  # what the project's other
        # modules pass it, call by call (.projectcallers); None: not looked at; PENDING: not yet
        self.layout_only = False  # a public method (.closedness): only a layout travels into it

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

    def passed(self, call: ast.Call, cache: Dict[int, Value]) -> Dict[str, Value]:
        """What ``call`` passes each parameter it gives a value (its default's included; unknown
        where not evaluated), a permuted layout as its order (:func:`.paramlayouts.carried`)."""
        return {p: carried(cache.get(id(a)) or UNKNOWN_VALUE, p, (id(call), p), call.lineno)
                for p, a in self.arguments(call).items() if a is not None}


#: :attr:`ClosedFunction.external` until asked; :data:`UNSEEN`: asked, and unknown
PENDING: list = []
UNSEEN: list = []
Others = Callable[[List["ClosedFunction"]], Dict[int, Optional[List[Dict[str, Value]]]]]


def _informative(c: ClosedFunction, records: List[Dict[str, Value]]) -> bool:
    """Could what other modules pass ``c`` make a parameter known: it has no call here, or
    its calls here make one a tensor, not a tensor or mixed (a join with an unknown stays
    unknown; one with an annotated tensor is at best annotated, which seeds nothing)?"""
    if not c.calls:
        return True
    for p in c.params:
        values = [r[p] for r in records if p in r]
        if len(values) != len(records):
            continue
        v = values[0]
        for w in values[1:]:
            v = join(v, w)
        if v.kind == TENSOR or v.kind == NOT or v.mixed:
            return True
    return False


class CallSites:
    """The calls the walker records: ``calls`` maps ``id(call)`` to the closed function
    called; ``callers`` holds ``id()`` of every function around such a call (the walker
    walks them even where no rule can match, to see what they pass); ``extra``: the closed
    functions called only in other modules of the project."""

    __slots__ = ("calls", "callers", "extra", "others")

    def __init__(self, calls: Dict[int, ClosedFunction], callers: Set[int],
                 extra: Sequence[ClosedFunction] = (), others: Optional[Others] = None) -> None:
        self.calls = calls
        self.callers = callers
        self.extra = extra
        self.others = others  # asked for what other modules pass a function (PENDING)

    def ask_others(self, funcs: List[ClosedFunction]) -> None:
        """Ask what the project's other modules pass each of ``funcs`` (all at once: each
        module is looked at once), setting :attr:`ClosedFunction.external` (UNSEEN: unknown)."""
        found = {} if self.others is None else self.others(funcs)
        for c in funcs:
            got = found.get(id(c.node))
            c.external = UNSEEN if got is None else got

    def functions(self) -> List[ClosedFunction]:
        """Every closed function whose calls are recorded or known from elsewhere."""
        by_func: Dict[int, ClosedFunction] = {id(c.node): c for c in self.calls.values()}
        by_func.update((id(c.node), c) for c in self.extra)
        return list(by_func.values())


NO_CALLSITES = CallSites({}, set())


def parameter_seeds(sites: CallSites, passed: Dict[int, Dict[str, Value]]) -> Dict[int, Dict[str, Value]]:
    """``{id(def): {parameter: value on entry}}`` from what every call passed; a function
    one of whose calls was not walked (dead code, a branch never evaluated) gets none.
    Only the kind travels (sizes are the caller's symbols), and a tensor passed with a
    permuted layout stays marked so, so it is never assumed contiguous.  A caveat on what
    a call passes (it may be a Tensor subclass...) stays on the parameter, and a tensor
    parameter of a function other modules may call (:attr:`ClosedFunction.public`) gets
    :data:`UNSEEN_CALLERS`: a fix that rests on it is unsafe, the finding stays.  What the
    project's other modules pass a module-level function (:attr:`ClosedFunction.external`)
    is asked for only where the calls here make some parameter known (a join with an
    unknown stays unknown) or there are none here, and joined in (a tensor then carries
    :data:`~.values.OTHER_MODULE`); unknown there, the function gets no seeds.  An instance of
    a torch.nn module class (:mod:`.nnmodules`) travels as its tag where every call passes one
    of the same class (``_train(nn.MSELoss(), ...)``): its outputs carry their own caveat."""
    out: Dict[int, Dict[str, Value]] = {}
    here: Dict[int, List[Dict[str, Value]]] = {}  # id(def) -> what each call here passes
    for c in sites.functions():
        maybe = [passed.get(id(call)) for call in c.calls]
        records = [r for r in maybe if r is not None]
        if len(records) == len(maybe):
            here[id(c.node)] = records
    ask = [c for c in sites.functions() if c.external is PENDING and id(c.node) in here
           and _informative(c, here[id(c.node)])]  # else what other modules pass would not matter
    if ask:
        sites.ask_others(ask)
    for c in sites.functions():
        key = id(c.node)
        if key not in here:
            continue
        records = here[key]
        if c.external is not None:
            if c.external is PENDING or c.external is UNSEEN:
                continue  # not asked (it would not matter), or another module may pass anything
            records = records + c.external
        if not records:
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
                caveat = v.caveat or (OTHER_MODULE if c.external else UNSEEN_CALLERS if c.public else None)
                made = seeded(values, Value(TENSOR, permuted_by=permuted, caveat=caveat), p, (key, p))
                if made.sizes is not None or not c.layout_only:  # a public method: a layout or nothing
                    params[p] = made
            elif c.layout_only:
                continue
            elif v.kind == NOT:
                params[p] = NOT_VALUE
            elif v.kind == UNKNOWN and v.mixed:
                params[p] = Value(UNKNOWN, mixed=True)
            elif v.kind == UNKNOWN and v.nnmod is not None:  # every call passes the same nn class
                params[p] = Value(UNKNOWN, nnmod=v.nnmod)  # its outputs carry their own caveat
        if params:
            out[key] = params
    return out
