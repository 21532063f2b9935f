"""TRC112: a host factory computed on before its move (recbole ``ract.py:180``:
``torch.log2(torch.arange(2, k + 2).type(torch.FloatTensor)).to(d)``): the tensor is built,
cast and computed on the host, then copied.  Built on the device, the same ops run there;
reported without a fix (a device's pointwise math may round otherwise than the host's, and
``.type(torch.FloatTensor)`` of a device tensor copies it back to the host: checked with torch).

Looked through: torch's unary pointwise functions of one positional argument
(``torch.log2(t)``) and the same methods with none (``t.sqrt()``), whose result is a tensor of
``t``'s shape on ``t``'s device, and ``.type(T)`` of a torch dtype or a CPU legacy type
(``.type(torch.cuda.FloatTensor)`` moves by itself), besides the views and casts
:func:`._trc112_chain.through_host_ops` follows.
"""
from __future__ import annotations

import ast
from typing import AbstractSet, Optional, Tuple

from ._common import LEGACY_CONSTRUCTOR_NAMES, short
from ._trc112_chain import through_host_ops
from ._trc112_joined import host_factory
from ._trc112_moves import DTYPES, MOVE_VERBS, device_move

#: unary pointwise ops: one tensor in, a tensor of its shape on its device out
POINTWISE = frozenset("""
    abs ceil cos cosh exp exp2 expm1 floor frac log log10 log1p log2 neg reciprocal round rsqrt
    sigmoid sign sin sinh sqrt square tan tanh trunc""".split())
#: what ``.type(T)`` casts on the host: a torch dtype, a CPU legacy type (not ``torch.Tensor``)
HOST_TYPES = DTYPES | frozenset(f"torch.{n}" for n in LEGACY_CONSTRUCTOR_NAMES - {"Tensor"})


def _computed_on(node: ast.Call, ctx) -> Optional[ast.AST]:
    """The tensor ``node`` computes on when it is a pointwise op or a host ``.type()`` cast;
    None otherwise (``out=``, a keyword, an op the module may replace: not followed)."""
    func = node.func
    if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    q = ctx.qualname(func) or ""
    if q.startswith("torch.") and q[6:] in POINTWISE and len(node.args) == 1 and not ctx.may_replace_torch(q[6:]):
        return node.args[0]  # torch.log2(t)
    if not isinstance(func, ast.Attribute) or q:
        return None
    if ctx.may_replace_torch(func.attr):
        return None  # torch.Tensor.sqrt = f
    if func.attr in POINTWISE and not node.args:
        return func.value  # t.log2()
    t = ctx.qualname(node.args[0]) if func.attr == "type" and len(node.args) == 1 else None
    if t in HOST_TYPES and not ctx.may_replace_torch(t[6:]):  # not torch.FloatTensor = torch.cuda.FloatTensor
        return func.value  # t.type(torch.FloatTensor)
    return None


def computed_factory(inner: ast.Call, ctx, factories: AbstractSet[str]) -> Optional[Tuple[ast.Call, str]]:
    """The host factory under ``inner`` (a call a move's receiver reaches through host views)
    and its name, where at least one op between computes on it on the host; None otherwise."""
    node: Optional[ast.AST] = inner
    computed = False
    for _ in range(12):
        if not isinstance(node, ast.Call):
            return None
        below = _computed_on(node, ctx)
        if below is None:
            break
        computed = True
        node, _chain = through_host_ops(below)
    if not computed or not isinstance(node, ast.Call):
        return None
    name = host_factory(node, ctx, factories)
    return (node, name) if name is not None else None


def report_computed(code: str, node: ast.Call, recv: ast.AST, factory: ast.Call, name: str, ctx,
                    random: AbstractSet[str]) -> None:
    """``torch.log2(torch.arange(n).float()).to(d)``: reported for a move to a device (or to
    what a name does not tell), never a bare conversion; not where a default device may be in
    force around it, or the factory replaced; no fix."""
    what = device_move(node, ctx)
    if what is None or ctx.may_replace_torch(name):
        return
    verb = MOVE_VERBS[what[0]]
    advice = f"pass device= to torch.{name} and compute there"
    if any(isinstance(n, ast.Call) and getattr(n.func, "attr", None) == "type" and n.args
           and ctx.qualname(n.args[0]) not in DTYPES for n in ast.walk(recv)):
        advice += " (cast with .to(dtype): .type() of a CPU type moves it back to the host)"
    if what[0] == "unknown" and len(node.args) == 1:  # .to(x): a device, a dtype or a tensor
        advice = f"if {short(ctx.text(node.args[0]))} is a device, {advice}"
    caveat = " (a random factory then draws other numbers)" if name in random else ""
    ctx.report(code, node,
               f"{short(ctx.text(recv))}{short(ctx.text(node)[len(ctx.text(recv)):])} builds the tensor on "
               f"the host (torch.{name}), computes on it there and then {verb}: {advice}{caveat}")
