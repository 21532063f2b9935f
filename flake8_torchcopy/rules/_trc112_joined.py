"""TRC112: which calls are host factories, and ``torch.cat([torch.ones(n, 1),
torch.zeros(n, 1)]).to(device)``: every piece built on the host, joined there, then the
result moved (build each piece on the device and join them there).

``torch.cat``/``torch.stack`` of pieces on one device promotes their dtypes the same way
and gives the same contiguous result on every device, so the pieces built on the device
and joined there make the tensor the move makes (checked with torch on the host and on
``meta``).  Reported without a fix: each factory needs its own ``device=``.
"""
from __future__ import annotations

import ast
from typing import AbstractSet, List, Optional

from ._common import keywords, short
from ._trc112_chain import through_host_ops
from ._trc112_moves import MOVE_VERBS, device_move, may_be_tensor

#: the joins of a sequence of tensors, as ``torch.<name>``, and the keywords they may have
JOINS = frozenset({"cat", "concat", "concatenate", "stack"})
_JOIN_KEYWORDS = frozenset({"dim", "axis"})


def host_factory(inner: ast.Call, ctx, factories: AbstractSet[str]) -> Optional[str]:
    """The name of the torch factory among ``factories`` (or a legacy constructor of data or
    sizes) that ``inner`` calls where it builds on the host: no ``device=``, ``out=``,
    ``pin_memory=``, ``requires_grad=`` (TRC111's), ``generator=`` (it draws on its own
    device), no ``torch.tensor(t)`` of what may be a tensor (built where ``t`` is: TRC101's)
    nor of ``*x``; None otherwise."""
    q = ctx.qualname(inner.func) or ""
    name = q[len("torch."):] if q.startswith("torch.") else None
    legacy = name is not None and ctx.legacy_constructor(inner.func) == name \
        and all(_data_arg(a, ctx) for a in inner.args)  # not torch.cuda.FloatTensor
    if name is None or name not in factories and not legacy:
        return None
    if name == "tensor" and inner.args and may_be_tensor(inner.args[0], ctx):
        return None  # torch.tensor(t) of a tensor builds where t is (TRC101's), maybe on the device
    fkw = keywords(inner)
    if fkw is None or name == "tensor" and any(isinstance(a, ast.Starred) for a in inner.args):
        return None  # torch.tensor(*x): its data may be a tensor
    # (sizes unpacked into a factory, torch.eye(*x.shape): its other parameters are keywords)
    if set(fkw) & {"device", "out", "pin_memory", "requires_grad", "generator"}:
        return None  # (a generator draws on its own device: torch.rand(n, generator=g) on the host on purpose)
    return name


def _data_arg(a: ast.AST, ctx) -> bool:
    """An argument of ``torch.Tensor(...)`` that is data or a size, never a tensor (which
    ``torch.Tensor(t)`` would alias, wherever it is)."""
    return isinstance(a, (ast.List, ast.Tuple, ast.ListComp, ast.Constant)) or ctx.is_not_tensor(a)


def joined_factories(join: ast.Call, ctx, factories: AbstractSet[str]) -> Optional[List[str]]:
    """The names of the host factories (:func:`host_factory`) that are every piece of
    ``join`` (``torch.cat([...])`` of a list or tuple display, each item a factory call,
    maybe through host views and casts), with only ``dim=``/``axis=`` besides; None otherwise
    (a piece that is anything else may be on the device already; ``out=`` writes where it says)."""
    q = ctx.qualname(join.func) or ""
    if not (q.startswith("torch.") and q[len("torch."):] in JOINS) or len(join.args) not in (1, 2) \
            or any(k.arg not in _JOIN_KEYWORDS for k in join.keywords):
        return None
    seq = join.args[0]
    if not isinstance(seq, (ast.List, ast.Tuple)) or not seq.elts:
        return None
    names = []
    for e in seq.elts:
        call, _ = through_host_ops(e)
        name = host_factory(call, ctx, factories) if call is not None else None
        if name is None:
            return None
        names.append(name)
    return names


def report_joined(code: str, node: ast.Call, join: ast.Call, pieces: List[str], ctx,
                  random: AbstractSet[str]) -> None:
    """``torch.cat([torch.ones(n), torch.zeros(n)]).to(d)``: reported for a move to a device
    (or to what a name does not tell), never a bare conversion (the pieces' dtypes promote
    before it); not where a default device may be in force around it, or a factory replaced;
    no fix."""
    what = device_move(node, ctx)
    if what is None or any(ctx.may_replace_torch(n) for n in set(pieces)):
        return
    verb = MOVE_VERBS[what[0]]
    made = ", ".join(f"torch.{n}" for n in dict.fromkeys(pieces))
    advice = f"pass device= to {made} and join the pieces there"
    if what[0] == "both":
        advice += " (the conversion stays)"
    if what[0] == "unknown" and len(node.args) == 1:  # .to(x): a device, a dtype or a tensor
        advice = f"if {short(ctx.text(node.args[0]))} is a device, {advice}"
    caveat = " (a random factory then draws other numbers)" if random & set(pieces) else ""
    ctx.report(code, node,
               f"{short(ctx.text(join))}{short(ctx.text(node)[len(ctx.text(join)):])} builds every piece on "
               f"the host, joins them there and then {verb}: {advice}{caveat}")
