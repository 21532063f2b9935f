"""TRC112: what a ``.to(...)``/``.cuda(...)`` after a factory asks for (a device, a dtype,
both, another tensor's, or something a name does not tell), from its arguments alone."""
from __future__ import annotations

import ast
import re
from typing import Optional

from ._common import keywords

DTYPES = frozenset(f"torch.{n}" for n in """
    float float32 float64 double float16 half bfloat16 int int8 int16 int32 int64 long short
    uint8 bool complex64 complex128 cfloat cdouble""".split())


def move_target(node: ast.Call, kw: dict, ctx) -> Optional[tuple]:
    """(kind, value) of a ``.to``/``.cuda``: ``("device", text)``, ``("dtype", text)``,
    ``("both", (device text, dtype text))``, ``("tensor", text of the tensor)`` or
    ``("unknown", None)``; a value of None when the fix cannot use it; None when the call
    is not a move or conversion the rule judges.  ``non_blocking=`` of a constant or a name
    is dropped: a fresh host tensor is pageable memory, whose copy is not asynchronous for
    the host, and a factory built on the device copies nothing."""
    kw = dict(kw)
    flag = kw.pop("non_blocking", None)
    if flag is not None and not isinstance(flag.value, (ast.Constant, ast.Name)):
        return None  # non_blocking=f(): the fix would drop a call
    if node.func.attr == "cuda":  # type: ignore[attr-defined]
        dev = kw.pop("device", None)
        args = node.args + ([dev.value] if dev is not None else [])
        if kw or len(args) > 1:
            return None  # memory_format=: a copy with options
        if not args:
            return "device", '"cuda"'
        a = args[0]
        if isinstance(a, ast.Constant) and type(a.value) is int:
            return "device", f'"cuda:{a.value}"'
        return "device", None  # .cuda(rank): a device, as an expression the fix won't move
    if len(node.args) == 2 and not kw:
        return _device_and_dtype(node.args[0], node.args[1], ctx)
    if set(kw) == {"device", "dtype"} and not node.args or set(kw) == {"dtype"} and len(node.args) == 1:
        # .to(device=d, dtype=t), .to(d, dtype=t): with dtype= the first argument is a device
        # (.to(tensor, dtype=t), .to(dtype, dtype=t) raise: checked with torch)
        dev = node.args[0] if node.args else kw["device"].value
        if isinstance(dev, ast.Constant) and dev.value is None or on_the_host(ctx.text(dev)):
            return None  # .to(None, dtype=t), .to("cpu", dtype=t): a conversion on the host
        return "both", (ctx.text(dev), ctx.text(kw["dtype"].value))
    if len(node.args) + len(kw) != 1:
        return None
    if kw:
        k, v = next(iter(kw.items()))
        if k not in ("device", "dtype"):
            return None
        a = v.value
    else:
        a = node.args[0]
    if kw and k == "device":
        return "device", ctx.text(a)  # .to(device=d) takes what a factory's device= takes
    if isinstance(a, ast.Constant) and isinstance(a.value, str):
        return "device", ctx.text(a)
    if isinstance(a, ast.Call) and ctx.qualname(a.func) == "torch.device":
        return "device", ctx.text(a)
    if isinstance(a, ast.Attribute) and a.attr == "device" and not kw and ctx.is_tensor(a.value):
        return "device", ctx.text(a)  # .to(x.device) of a tensor x: a device
    named = _named_device(a, ctx) if isinstance(a, ast.Name) and not kw else None
    if named == "host" and ctx.fix_blocker is None:
        return None  # device = torch.device("cpu"), then .to(device): the tensor itself
    if named == "device":
        return "device", ctx.text(a)  # device = x.device (its one binding), then .to(device)
    if ctx.qualname(a) in DTYPES and (not kw or k == "dtype"):
        return "dtype", ctx.text(a)
    if kw:  # .to(dtype=d): a dtype, maybe one the factory does not support
        return "dtype", None
    # .to(other) of a tensor: its dtype and device, a copy unless it is on the host in the
    # default dtype (x.to(t) is x): what may have been built on the host is not reported
    if ctx.may_be_host_made(a):
        return None
    if ctx.is_tensor(a):
        if ctx.fix_blocker is not None:
            return None
        return "tensor", ctx.text(a) if isinstance(a, (ast.Name, ast.Attribute)) else None
    return "unknown", None


def _named_device(name: ast.Name, ctx) -> Optional[str]:
    """``"device"`` when ``name`` is bound once in its function, to ``x.device`` of a plain
    tensor ``x`` or to ``torch.device(...)``; ``"host"`` when to ``"cpu"`` or
    ``torch.device("cpu")``; None otherwise."""
    v = ctx.only_assignment(name)
    if v is None:
        return None
    if isinstance(v, ast.Constant) and isinstance(v.value, str) or \
            isinstance(v, ast.Call) and ctx.qualname(v.func) == "torch.device":
        return "host" if on_the_host(ctx.text(v)) else "device"  # .to("cuda:0"): a string is a device
    if isinstance(v, ast.Attribute) and v.attr == "device" and ctx.fix_caveat(v.value) is None:
        return "device"
    return None


def _device_and_dtype(a: ast.AST, b: ast.AST, ctx) -> Optional[tuple]:
    """``.to(a, b)``: ``to(device, dtype)``, or ``to(dtype, non_blocking)``,
    ``to(other, non_blocking)`` (checked with torch): a move or a conversion unless both
    are None (``.to(None, None)`` is the tensor itself) or ``b`` is a flag; ``("both", ...)``
    when ``b`` is a dtype (written out, or ``x.dtype``: of a tensor, a module, anything that
    has one; ``.to(dtype, b)`` of a dtype ``b`` raises)."""
    if isinstance(b, ast.Constant) or isinstance(a, ast.Constant) and (a.value is None or on_the_host(ctx.text(a))):
        return None  # .to(x, True): non_blocking; .to(None, d), .to("cpu", d): a conversion
    if ctx.qualname(a) in DTYPES or ctx.is_tensor(a):
        return None  # .to(torch.float64, flag), .to(t, flag): b is non_blocking
    if ctx.qualname(b) in DTYPES or isinstance(b, ast.Attribute) and b.attr == "dtype":
        # .to(d, torch.float16), .to(x.device, x.dtype): a dtype second, so to(device, dtype)
        # (non_blocking takes only a bool: .to(torch.float64, torch.float16) raises)
        return "both", (ctx.text(a), ctx.text(b))
    return "unknown", None


def on_the_host(device_text: str) -> bool:
    """``"cpu"``, ``'cpu:0'``, ``torch.device("cpu")``, ``torch.device(type="cpu")``,
    ``torch.device("cpu", 0)``: where the factory builds anyway."""
    return _HOST.fullmatch(device_text) is not None


_HOST = re.compile(r"""(torch\.device\()?\s*(type\s*=\s*)?["']cpu(:\d+)?["']\s*"""
                   r"""(,\s*(index\s*=\s*)?\d+\s*)?,?\s*\)?""")


# casts only a tensor has (a numpy array has ``astype``, no ``.long()``), and the methods that
# keep a tensor a tensor, through which ``torch.tensor(m.sum())`` of ``m = (p == x).long()`` is
# still one: ``torch.tensor(t)`` builds where ``t`` is, maybe the target device already
TENSOR_CASTS = frozenset({"long", "int", "float", "double", "half", "bfloat16", "bool", "short",
                          "byte", "char"})
_KEEPS_TENSOR = TENSOR_CASTS | {"sum", "mean", "prod", "abs", "flatten", "squeeze", "unsqueeze",
                                 "contiguous", "clone", "detach", "t", "view", "reshape"}


def cast_like_a_tensor(a: ast.AST, ctx, depth: int = 0) -> bool:
    """``a`` is, or is a tensor-keeping method of, a tensor-only cast (``x.long()``), through
    names bound once: a tensor on every path that does not raise, unless some object defines
    the cast of its own (a reason to stay quiet, not a proof)."""
    while isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and a.func.attr in _KEEPS_TENSOR:
        if a.func.attr in TENSOR_CASTS and not a.args and not a.keywords:
            return True
        a = a.func.value
    if isinstance(a, ast.Name) and depth < 3:
        bound = ctx.only_assignment(a)
        return bound is not None and cast_like_a_tensor(bound, ctx, depth + 1)
    return False


def fails_alike(ctx, kind: str, dev: Optional[ast.AST], dtype: Optional[ast.AST]) -> bool:
    """Where the move fails, does the factory given ``device=``/``dtype=`` raise what the move
    raises?  ``dev`` is its first argument or ``device=`` (None: none), ``dtype`` its dtype.
    Measured on a build without CUDA: ``.cuda()``, ``.to("cuda")`` and ``device="cuda"`` all
    raise the same AssertionError, but ``.cuda(0)`` a RuntimeError and ``.to("mps")`` another
    RuntimeError than ``device="mps"``.  The device of a tensor (``.to(x.device)``) exists; any
    other device, an index or a name bound otherwise is not known to fail alike.  A tensor's
    dtype (``.to(t)``, ``.to(d, t.dtype)``) may be one ``ones`` rejects otherwise:
    ``torch.ones(3).to(t)`` of a ``torch.quint4x2`` ``t`` raises a RuntimeError,
    ``torch.ones(3, dtype=t.dtype)`` a NotImplementedError."""
    if kind == "tensor" or kind == "both" and ctx.qualname(dtype) not in DTYPES and ctx.text(dtype) != "None":
        return False
    if kind == "dtype" or dev is None:
        return True
    if isinstance(dev, ast.Name):
        dev = ctx.only_assignment(dev)  # device = x.device, device = torch.device("cuda")
    if isinstance(dev, ast.Attribute) and dev.attr == "device":
        return ctx.is_tensor(dev.value)
    if isinstance(dev, ast.Call) and ctx.qualname(dev.func) == "torch.device" and len(dev.args) == 1 \
            and not dev.keywords:
        dev = dev.args[0]
    return isinstance(dev, ast.Constant) and dev.value in ("cuda", "meta")


def may_be_tensor(a: ast.AST, ctx) -> bool:
    """Is ``a`` shown a tensor on some path (an annotation only when trusted), or a tensor-only
    cast (an untrusted annotation is not enough: callers pass lists where it says Tensor)?
    ``torch.tensor(t)`` copies ``t`` on its own device (checked with torch on meta).  An
    arithmetic of one (``n / k`` with ``n`` a tensor on some path) is one there too."""
    if isinstance(a, ast.BinOp):
        return may_be_tensor(a.left, ctx) or may_be_tensor(a.right, ctx)
    if isinstance(a, ast.UnaryOp):
        return may_be_tensor(a.operand, ctx)
    return ctx.tensor_kind(a) is not None or ctx.tensor_on_a_path(a) or cast_like_a_tensor(a, ctx) \
        or reduction_of_unknown(a, ctx)


#: reductions: of a tensor, a 0-d tensor on its device (of a numpy array, a numpy scalar)
_REDUCTIONS = frozenset("sum mean prod max min amax amin norm std var logsumexp nansum nanmean".split())


def reduction_of_unknown(a: ast.AST, ctx, depth: int = 0) -> bool:
    """``a`` is a reduction method of something not shown a non-tensor, or an arithmetic of
    one, or a name every plain binding of which is one or a number (``loss_l1 =
    self.l1_loss(p, t).sum() / n`` or ``0.0``, ``self.l1_loss`` not followed: a decorated
    class): maybe a tensor on its device, so ``torch.tensor(a)`` may build there
    (a reason to stay quiet, not a proof: a numpy array's ``sum`` is lost)."""
    if isinstance(a, ast.BinOp):
        return reduction_of_unknown(a.left, ctx, depth) or reduction_of_unknown(a.right, ctx, depth)
    if isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and a.func.attr in _REDUCTIONS:
        return not ctx.is_not_tensor(a.func.value) and ctx.qualname(a.func) is None
    if isinstance(a, ast.Name) and depth < 2:  # every plain binding a reduction or a number
        values = ctx.some_assignments(a)
        return any(reduction_of_unknown(v, ctx, depth + 1) for v in values) and all(
            isinstance(v, ast.Constant) and isinstance(v.value, (int, float)) or reduction_of_unknown(v, ctx, depth + 1)
            for v in values)
    return False


#: ``Context.fix_blocker`` where the module may put a default device in force (a setter its
#: text names, or a ``with`` of something a device flows into: where the ``with`` is not
#: around it, ``.to("cpu")`` of a host factory is quiet)
DEFAULT_DEVICE = "the module may set a default device"

#: how a report says what the move does, by :func:`move_target`'s kind
MOVE_VERBS = {"device": "moves it", "both": "moves and converts it", "unknown": "moves or converts it"}


def device_move(node: ast.Call, ctx) -> Optional[tuple]:
    """:func:`move_target` of ``node`` where it may move a tensor built on the host to a
    device (not a bare conversion, not to the host, no ``*args``), and no default device may
    be in force around it (the tensor may be built on that device already): else None."""
    kw = keywords(node)
    if kw is None or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    what = move_target(node, kw, ctx)
    if what is None or what[0] not in MOVE_VERBS \
            or what[0] == "device" and what[1] is not None and on_the_host(what[1]):
        return None
    if ctx.fix_blocker == DEFAULT_DEVICE and ctx.default_device_near(node):
        return None
    return what


# factories that check their data on the host (torch.tensor unpacks it: a ragged list or an int
# beyond int64 raises; full and scalar_tensor convert the fill value: 1e40 to float32 raises) and
# skip that on the meta device, which holds no data: torch.tensor([[1, 2], [3]], device="meta")
# is a (2, 2) tensor (checked with torch)
CHECKS_DATA = frozenset({"tensor", "full", "scalar_tensor"})


def never_meta(node: ast.Call, dev: Optional[ast.AST], ctx) -> bool:
    """The move's target is certainly not the meta device: ``.cuda()``, a string literal, a
    ``torch.device`` of one, a conditional choosing between such, or a name bound once to one
    (``device = torch.device("cuda" if cuda else "cpu")``); not ``x.device``: a meta tensor's
    is meta."""
    if node.func.attr == "cuda":  # type: ignore[attr-defined]
        return True
    if isinstance(dev, ast.Name):
        dev = ctx.only_assignment(dev)
    return _not_meta(dev, ctx)


def _not_meta(dev: Optional[ast.AST], ctx) -> bool:
    if isinstance(dev, ast.Call) and ctx.qualname(dev.func) == "torch.device" and dev.args:
        dev = dev.args[0]
    if isinstance(dev, ast.IfExp):
        return _not_meta(dev.body, ctx) and _not_meta(dev.orelse, ctx)
    return isinstance(dev, ast.Constant) and isinstance(dev.value, str) and not dev.value.startswith("meta")


def tame_data(name: str, args: list, fkw: dict, ctx) -> bool:
    """Factory data the host accepts: numbers of at most 1e38 (0 to 127 under ``dtype=``),
    in a rectangular display for ``torch.tensor``, or a numpy array (converted whole before
    the meta device is looked at: checked with torch): nothing for the meta device to skip."""
    bound = (0, 127) if "dtype" in fkw else (-1e38, 1e38)

    def tame(a: ast.AST) -> bool:
        sign = 1
        if isinstance(a, ast.UnaryOp) and isinstance(a.op, ast.USub):
            a, sign = a.operand, -1
        v = a.value if isinstance(a, ast.Constant) else None
        return type(v) in (int, float, bool) and bound[0] <= sign * float(v) <= bound[1]  # type: ignore[arg-type]
    if name == "tensor":
        data = args[0] if args else None
        if data is not None and ctx.is_array(data) and "dtype" not in fkw:
            return True
        rows = data.elts if isinstance(data, (ast.List, ast.Tuple)) else None
        inner = [r.elts for r in rows or () if isinstance(r, (ast.List, ast.Tuple))]
        if rows and len(inner) == len(rows):
            return len({len(r) for r in inner}) == 1 and all(tame(e) for r in inner for e in r)
        return rows is not None and all(tame(e) for e in rows) or data is not None and tame(data)
    if name == "full":
        value = args[1] if len(args) > 1 else fkw["fill_value"].value if "fill_value" in fkw else None
    else:
        value = args[0] if args else fkw["s"].value if "s" in fkw else None
    return value is not None and tame(value)
