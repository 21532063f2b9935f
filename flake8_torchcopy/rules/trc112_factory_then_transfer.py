"""TRC112: ``torch.zeros(n).to(device)``, ``torch.tensor(data).cuda()``: build it there."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from ._common import LEGACY_CONSTRUCTOR_NAMES, call_with_keyword, keywords, short, text_fix
from ._trc112_chain import HOST_ATTRS, HOST_VIEWS, NOT_VIEWS, op_args, plain_arg, through_host_ops, view_kept
from ._trc112_computed import POINTWISE, computed_factory, report_computed
from ._trc112_joined import JOINS, host_factory, joined_factories, report_joined
from ._trc112_moves import (
    CHECKS_DATA,
    DEFAULT_DEVICE,
    DTYPES,
    TENSOR_CASTS,
    fails_alike,
    move_target,
    never_meta,
    on_the_host,
    tame_data,
)
from .base import CalledThen, Example, Rule, calls_pattern

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context

# factories whose values do not depend on the device that computes them (the same tensor
# built on the host and moved, or built on the device)
# (scalar_tensor, as full, fills with the number converted on the host: at::empty().fill_(s))
_DEVICE_EXACT = frozenset({"zeros", "ones", "full", "eye", "tensor", "scalar_tensor"})
# ... and on the dtype they are computed in (torch.full((3,), 0.1).to(torch.float64) is not
# torch.full((3,), 0.1, dtype=torch.float64); zeros, ones, eye are: checked with torch)
_DTYPE_EXACT = frozenset({"zeros", "ones", "eye"})
# (not the *_like factories: they build on their argument's device, not the host)
_FACTORIES = _DEVICE_EXACT | {"empty", "arange", "linspace", "logspace", "rand", "randn", "randint",
                              "randperm"}
_FACTORY_NAMES = calls_pattern(_FACTORIES | LEGACY_CONSTRUCTOR_NAMES, attributes=_FACTORIES)
_RANDOM = frozenset({"rand", "randn", "randint", "randperm"})
# factories whose points, computed in an integer dtype, are not their float points converted
_SPACED = frozenset({"linspace", "logspace"})


class FactoryThenTransfer(Rule):
    code = "TRC112"
    name = "factory-then-transfer"
    summary = "`torch.zeros(n).to(device)`: use `torch.zeros(n, device=device)`"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = "`torch.zeros(n).to(device)`, `torch.tensor(data).cuda()`"
    table_fix = "`torch.zeros(n, device=device)`"
    table_safety = "safe for factories whose values don't depend on the device"
    rationale = (
        "`torch.zeros(n).cuda()` builds the tensor in host memory and then copies it to the "
        "device: an allocation, a fill and a host-to-device transfer where one allocation on "
        "the device would do. Passing `device=` (and `dtype=`) to the factory builds it where "
        "it is used. The same goes for `torch.tensor(data).to(device)`, and for `torch.cat`/`torch.stack` "
        "of host factories moved after the join (`torch.cat([torch.ones(n, 1), torch.zeros(n, 1)]).to(d)`)."
    )
    fix_safety = (
        "Safe for factories whose values do not depend on where they are computed "
        "(`zeros`, `ones`, `full`, `eye`, `tensor`, `scalar_tensor`; `arange` of int literals), of arguments "
        "that are literals or proven not tensors (an unknown size may be a "
        "`__torch_function__` object, which would see the `device=`), moved "
        "by `.cuda()`, `.cuda(i)`, `.cuda(device=i)`, `.to(device=d)` (any `d`: the keyword says it is a device) "
        "or `.to(d)` where `d` is a string literal "
        "or a `torch.device(...)` call, or `.to(x.device)` of a proven tensor `x` (unsafe when `x` "
        "may be a subclass or a `__torch_function__` object, which may have a `.device` of its own), "
        "or `.to(d)` of a name `d` its function binds once, by `d = x.device` of a plain tensor, "
        "`d = torch.device(...)` or `d = \"cuda:1\"` (bound to the host: not reported); "
        "a `.to(dtype)` of a torch dtype folds into `dtype=` "
        "only for `zeros`, `ones`, `eye` (`torch.full((3,), 0.1).to(torch.float64)` "
        "is 0.10000000149, `torch.full((3,), 0.1, dtype=torch.float64)` is 0.1), and is not "
        "reported for `linspace`/`logspace`, whose points computed in another dtype are others "
        "(`torch.linspace(0, 128, 15).to(torch.int)` truncates 63.99 to 63, `dtype=torch.int` "
        "gives 64). A move to the CPU of a tensor built on the host is the tensor itself: not "
        "reported (unless the module names a default-device setter or a `with` surrounds it). Random "
        "factories draw other numbers on another device, `empty` holds whatever memory held, "
        "and `.to(x)` of a name may be a "
        "device, a dtype or a tensor: reported without a fix; so is `.to(t)` of a proven tensor "
        "(its device and dtype; after `zeros`, `ones`, `eye` it folds into `device=t.device, "
        "dtype=t.dtype`, safe for a plain tensor `t` after `ones` only: `torch.zeros(3).to(t)` of a "
        "`torch.bits8` `t` raises, `torch.zeros(3, dtype=torch.bits8)` does not, `eye` of a `uint16` `t` "
        "the other way), unless the module shows `t` built on the host "
        "(a factory with no `device=`, `.cpu()`), where `x.to(t)` may be `x` itself, and `.to(a, b)` "
        "of two names (`.to(dtype, flag)`, `.to(t, flag)`, `.to(None, dtype)` are "
        "not reported). The legacy constructors (`torch.Tensor([...])`, `torch.LongTensor(n, m)`) "
        "of data or sizes are factories too, reported without a fix (`torch.Tensor` takes "
        "no `dtype=`, and `device=` only of the host: `torch.Tensor([1], device='cuda')` raises; "
        "of a tensor it aliases it: not reported), and so is a factory "
        "moved through its name on the next statement (`p = torch.tensor(a)`, then "
        "`p = p.to(d)`). `torch.tensor(t)` of a tensor (proven, on some path, an arithmetic of one, a reduction "
        "`x.sum()` of an `x` not shown a non-tensor, or a tensor-only "
        "cast such as `(p == x).long().sum()`) copies it on "
        "t's device, maybe the target already: TRC101's, not reported. Factories with `requires_grad=` "
        "are TRC111's, with `device=`/`out=`/`pin_memory=` not reported. The fix is unsafe where "
        "the module may set a default device (the factory would build there first: under "
        "`torch.device('meta')` `.to('cpu')` raises) or replace the factory (`torch.zeros = f`), and neither is a "
        "factory with `dtype=` followed by a `.to()` that may convert (`torch.arange(n, "
        "dtype=torch.int64).to(dtype)` computes exact integers, then casts on purpose). "
        "`.to(device=d, dtype=t)`, `.to(d, dtype=t)` and `.to(d, t)` of a dtype `t` (written out, or "
        "`x.dtype`: `.to(dtype, flag)` takes no dtype as its flag) fold both into `zeros`, `ones`, `eye` (unsafe "
        "unless `t` is a torch dtype written out, or after `ones` a plain tensor's `x.dtype`: "
        "`.to()` on the host rejects dtypes the factory builds, "
        "`torch.uint1`, and `eye` rejects some `.to()` takes, `torch.uint16`); after the other factories, "
        "or a factory with `dtype=`, they are reported without a fix (pass `device=`, the conversion "
        "stays). `non_blocking=` of a constant or a name is dropped: a fresh host tensor is pageable "
        "memory, whose copy the host waits for, and a factory built on the device copies nothing. "
        "Factories with `generator=` are not reported: they draw on the generator's device. "
        "A join (`torch.cat`, `concat`, `concatenate`, `stack`, only `dim=` besides) of a display whose "
        "every item is such a factory (maybe through host views) is reported without a fix when moved to "
        "a device or to a name that does not tell (not to the host, not a bare `.to(dtype)`: the pieces' "
        "dtypes promote before it), and not where a default device may be in force around it. "
        "A factory computed on before its move (torch's unary pointwise ops, `torch.log2(t)`, `t.sqrt()`, "
        "and `.type(T)` of a dtype or a CPU type: `torch.log2(torch.arange(2, k + 2).type(torch.FloatTensor)).to(d)`) "
        "is reported the same way, without a fix (a device's math may round otherwise, and "
        "`.type(torch.FloatTensor)` of a device tensor copies it back to the host). "
        "Unsafe under a handler of RuntimeError/AssertionError where it fails otherwise (`.cuda(0)`, quint4x2). "
        "Views and casts between the factory and the move are looked through when they keep "
        "the tensor dense (`view`, `reshape`, `unsqueeze`, `squeeze`, `flatten`, `t`, "
        "`transpose`, `permute`, `contiguous`, `.T`, `.mT`, indexes of only `None`, `...` and `:` "
        "(`[None]`, `[:, None]`), `.int()`-style casts): `.to()` keeps the strides "
        "of a dense tensor, so `torch.tensor(m, device=d).view(-1, 1, 1)` has the values, dtype, "
        "device and strides of `torch.tensor(m).view(-1, 1, 1).to(d)` (it is a view of a tensor "
        "nothing else holds, where the move gave a fresh one: unsafe unless the result is at once an "
        "operand of arithmetic or a comparison, as `detach_()` raises on a view, and so does an in-place "
        "change with grad of a view made under `no_grad`). Not through `expand`, slices or other indexes "
        "(the move materialises them). A cast in between is safe only after `zeros`, `ones`, "
        "`eye` (a float out of an integer's range casts to what the device's hardware gives), and "
        "ops with arguments other than numbers and names make the fix unsafe (the device would "
        "be read before them); so does a device given by a call other than `torch.device(...)` "
        "or by `:=` (`.to(device=pick())`): it would run before the factory, which may raise "
        "(`torch.zeros(-1)`). `tensor`, `full` and `scalar_tensor` built on the meta device check "
        "no data (`torch.tensor([[1, 2], [3]], device=\"meta\")` is a (2, 2) tensor, on the host a "
        "ValueError; `torch.full((3,), 1e40, device=\"meta\")` does not overflow): their fix is unsafe "
        "unless the target is certainly not meta (`.cuda()`, a string literal or `torch.device` of one) "
        "or the data is numbers in a rectangle (0 to 127 under `dtype=`) or a numpy array (converted "
        "whole first)."
    )
    triggers = (("torch", ".to("), ("torch", ".cuda("))
    # in a function: a call's result or a name moved, and a factory by name (``from torch
    # import zeros`` too); a join (torch.cat([...]).to(d)) only where called by its name
    function_triggers = ((CalledThen(("to", "cuda"), _FACTORIES | LEGACY_CONSTRUCTOR_NAMES,
                                     HOST_VIEWS | NOT_VIEWS | HOST_ATTRS | {"[", "type"},
                                     itself=True, aliased=True, called=JOINS | POINTWISE), _FACTORY_NAMES),)

    VALID = (
        "import torch\nx = torch.zeros(3, device='cuda')\n",
        "import torch\ndef f(x):\n    return torch.zeros_like(x).to(x.device)\n",
        "import torch\nx = torch.zeros(3, device='cpu').to('cuda')\n",
        "import torch\nt = torch.randn(3)\ny = t.to('cuda')\n",
        "import torch\nx = torch.zeros(3, requires_grad=True).cuda()\n",
        "import torch\ndef f(n, dtype):\n    return torch.arange(n, dtype=torch.int64).to(dtype)\n",
        # built on the host already: .to("cpu") returns the tensor itself
        "import torch\nx = torch.tensor([1]).to('cpu')\n",
        # .to(t) of a tensor built on the host in the default dtype: x.to(t) is x
        "import torch\ny = torch.randn(3)\nx = torch.zeros(3).to(y)\n",
        # linspace computed in int32 is not linspace truncated: dtype= would change the points
        "import torch\ndef split(n, k):\n    return torch.linspace(0, n, k + 1).to(torch.int)\n",
        # .to() materialises an expanded tensor: device= on the factory would keep it expanded
        "import torch\nmask = torch.ones(3, 1).expand(3, 4).cuda()\n",
        # a view before a conversion: dtype= on the factory is not the same
        "import torch\nm = torch.tensor([0.5, 1.5]).view(-1, 1).to(torch.int64)\n",
    )
    INVALID = (
        Example(
            code="import torch\nx = torch.zeros(3, 4).to('cuda')\n",
            fixed="import torch\nx = torch.zeros(3, 4, device='cuda')\n",
        ),
        Example(
            code="import torch\nmask = torch.ones(8, dtype=torch.bool).to(device='cuda')\n",
            fixed="import torch\nmask = torch.ones(8, dtype=torch.bool, device='cuda')\n",
        ),
        Example(
            code="import torch\nidx = torch.tensor([1, 2, 3]).to(torch.device('cuda'))\n",
            fixed="import torch\nidx = torch.tensor([1, 2, 3], device=torch.device('cuda'))\n",
        ),
        Example(
            code="import torch\ndef f():\n    y = torch.randn(3, device='cuda')\n"
            "    return torch.ones(3).to(y.device)\n",
            fixed="import torch\ndef f():\n    y = torch.randn(3, device='cuda')\n"
            "    return torch.ones(3, device=y.device)\n",
            note="the device of a proven tensor",
        ),
        Example(
            code="import torch\ndef f():\n    y = torch.randn(3, device='cuda')\n"
            "    return y - torch.tensor([123.675, 116.28, 103.53]).view(-1, 1, 1).to(y.device)\n",
            fixed="import torch\ndef f():\n    y = torch.randn(3, device='cuda')\n"
            "    return y - torch.tensor([123.675, 116.28, 103.53], device=y.device).view(-1, 1, 1)\n",
            note="a view in between: built on the device, then viewed there (same strides); safe as "
            "an operand (a view held by a name may meet detach_(), which raises on a view)",
        ),
        Example(
            code="import torch\nacc = torch.zeros(5).to(torch.float64)\n",
            fixed="import torch\nacc = torch.zeros(5, dtype=torch.float64)\n",
            verify=("torch.zeros(5).to(torch.float64)", "torch.zeros(5, dtype=torch.float64)"),
        ),
        Example(
            code="import torch\ndef f(x):\n    return torch.zeros(2, 3).to(device=x.device, dtype=torch.float16)\n",
            fixed="import torch\ndef f(x):\n    return torch.zeros(2, 3, device=x.device, dtype=torch.float16)\n",
            verify=("torch.zeros(2, 3).to(device=x.device, dtype=torch.float16)",
                    "torch.zeros(2, 3, device=x.device, dtype=torch.float16)"),
            note="a device and a dtype: zeros are zeros in every dtype",
        ),
        Example(
            code="import torch\ndef f():\n    y = torch.randn(3, device='cuda').half()\n"
            "    return torch.ones(3).to(y)\n",
            fixed="import torch\ndef f():\n    y = torch.randn(3, device='cuda').half()\n"
            "    return torch.ones(3, device=y.device, dtype=y.dtype)\n",
            verify=("torch.ones(3).to(y)", "torch.ones(3, device=y.device, dtype=y.dtype)"),
            inputs={"y": "tensor:dtype=float16|float64|int32|bool"},
            note="the device and dtype of a proven tensor",
        ),
        Example(
            code="import torch\nr = torch.ones(8).cuda(non_blocking=True)\n",
            fixed="import torch\nr = torch.ones(8, device=\"cuda\")\n",
            note="a fresh host tensor is pageable: non_blocking= changes nothing, and nothing is copied now",
        ),
        Example(
            code="import torch\ndef f(device, dim):\n"
            "    return torch.arange(0, dim, 2, dtype=torch.int64).to(device=device, dtype=torch.float)\n",
            note="computed in int64 on purpose, then converted: pass device= only; no fix",
        ),
        Example(
            code="import torch\ndef f(device):\n    return torch.zeros(3).to(device)\n",
            note="device may be a device, a dtype or a tensor: reported without a fix",
        ),
        Example(
            code="import torch\ndef f(x):\n    y = x.float()\n    return torch.zeros(3).to(y)\n"
            "f(torch.randn(3))\n",
            note="the device and dtype of a tensor not built on the host here: no fix",
        ),
        Example(
            code="import torch\ndef f(img):\n    return torch.Tensor([[1, 2, 1]]).to(img.device, img.dtype)\n",
            note="a legacy constructor, then .to(device, dtype): no fix",
        ),
        Example(
            code="import torch\ndef f(x):\n    d = torch.zeros(2, 3)\n    return torch.eye(*d.shape).to('cuda')\n",
            fixed="import torch\ndef f(x):\n    d = torch.zeros(2, 3)\n    return torch.eye(*d.shape, device='cuda')\n",
            note="sizes unpacked into the factory: its other parameters are keyword-only",
        ),
        Example(
            code="import torch\ndef f(n):\n    return torch.cat([torch.ones(n, 1), torch.zeros(n, 1)]).cuda()\n",
            note="every piece built on the host, joined, then moved: build each on the device and join "
                 "them there (the same dtype promotion, sizes and strides); no fix",
        ),
        Example(
            code="import torch\nnoise = torch.randn(4).cuda()\n",
            note="a random factory draws other numbers on the device: no fix",
        ),
        Example(
            code="import torch\nx = torch.full((3,), 0.1).to(torch.float64)\n",
            note="0.1 computed in float32 then converted is not 0.1 in float64: no fix",
        ),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr in ("to", "cuda")):
            return
        inner, chain = through_host_ops(func.value)
        through_name = inner is None and not chain and _rebinds_itself(node, ctx)
        if through_name:  # p = torch.tensor(...) / p = p.to(d): through a name, on the next line
            inner, chain = through_host_ops(through_name)
        if inner is None:
            return
        if not through_name and (pieces := joined_factories(inner, ctx, _FACTORIES)):
            report_joined(self.code, node, inner, pieces, ctx, _RANDOM)
            return
        if not through_name and (made := computed_factory(inner, ctx, _FACTORIES)):
            report_computed(self.code, node, func.value, *made, ctx, _RANDOM)
            return
        if host_factory(inner, ctx, _FACTORIES) is None:
            return
        q = ctx.qualname(inner.func) or ""
        name = q[len("torch."):]
        legacy = ctx.legacy_constructor(inner.func) == name
        fkw = keywords(inner) or {}
        tkw = keywords(node)
        if tkw is None or any(isinstance(a, ast.Starred) for a in node.args):
            return
        what = move_target(node, tkw, ctx)
        if what is None:
            return
        kind, value = what
        if through_name and kind == "dtype":
            return  # p = torch.tensor(ints); p = p.to(torch.int64): most likely a no-op
        if legacy and kind == "dtype":
            return  # torch.DoubleTensor(d).to(torch.float64): its dtype is in its name
        if chain and kind == "dtype":
            return  # a dtype= on the factory is not a cast after a view, or after another cast
        if kind == "device" and value is not None and on_the_host(value) and not ctx.may_replace_torch(name) \
                and (ctx.fix_blocker is None
                     or ctx.fix_blocker == DEFAULT_DEVICE and not ctx.default_device_near(node)):
            return  # .to("cpu") of a tensor built on the host is the tensor itself: no copy
        if kind == "dtype" and name in _SPACED:
            return  # points computed in the target dtype are others (an int linspace truncates)
        if kind == "dtype" and "dtype" not in fkw and value in ("torch.float", "torch.float32"):
            return  # float32 is the default: most likely a no-op
        if kind not in ("device", "both") and "dtype" in fkw:
            return  # arange(n, dtype=torch.int64).to(dtype): computed exactly, then cast on purpose
        if kind in ("both", "tensor") and "dtype" not in fkw and not chain:  # 0 and 1 in any dtype
            fixable = name in _DTYPE_EXACT
        else:
            fixable = kind == "device" and name in _DEVICE_EXACT or kind == "dtype" and name in _DTYPE_EXACT \
                and "dtype" not in fkw
        if name == "arange" and kind == "device":
            fixable = all(isinstance(a, ast.Constant) and type(a.value) is int for a in inner.args) \
                and not fkw
        f = short(ctx.text(inner), 32)
        t = short(ctx.text(node)[len(ctx.text(func.value)):] if through_name
                  else ctx.text(node)[len(ctx.text(inner)):], 32)
        if through_name:
            f = f"{ctx.text(func.value)} = {f}; {ctx.text(func.value)}"
        verb = {"dtype": "converts it", "device": "moves it", "both": "moves and converts it"}.get(
            kind, "moves or converts it")
        if kind == "unknown" or value is None or not fixable or legacy or through_name:
            caveat = " (a random factory then draws other numbers)" if name in _RANDOM and kind != "dtype" else ""
            advice = f"pass {kind + '=' if kind in ('device', 'dtype') else 'device=/dtype='} to torch.{name}"
            if kind == "both" and not fixable or kind == "tensor" and chain:  # dtype= on the factory is
                # another computation (and, before a view, no cast after it)
                advice = f"pass device= to torch.{name} (the conversion stays)"
            if legacy:  # torch.Tensor takes no dtype=, and device= only of the host (checked with torch)
                advice = ("build it there: torch.tensor(data, dtype=..., device=...) or torch.empty(sizes, "
                          "dtype=..., device=...) (a legacy constructor's device= takes only the host)")
            elif chain and kind == "unknown" and len(node.args) == 1:  # dtype= on the factory: not a cast after
                advice = f"if {short(ctx.text(node.args[0]))} is a device, pass device= to torch.{name}"
            ctx.report(self.code, node, f"{f}{t} builds the tensor on the host and then {verb}: "
                       f"{advice}{caveat}")
            return
        # built where it is used only if torch's factory is what runs, on the device named
        safe = all(_known_arg(a, ctx) for a in (inner.args[1:] if name == "tensor" else inner.args))
        tkw_values = {k.arg: k.value for k in node.keywords}
        if len(node.args) == 2:  # .to(d, t): t is the dtype
            tkw_values["dtype"] = node.args[1]
        dev = node.args[0] if node.args else tkw_values.get("device", tkw_values.get("dtype"))
        if kind == "tensor" and ctx.fix_caveat(node.args[0]) is not None or kind == "device" and node.args \
                and isinstance(dev, ast.Attribute) and dev.attr == "device" and ctx.fix_caveat(dev.value) is not None:
            safe = False  # t, x.device of what may be a subclass or a __torch_function__ object
        if name in CHECKS_DATA and not never_meta(node, dev, ctx) and not tame_data(name, inner.args, fkw, ctx):
            safe = False  # on the meta device the data is not checked: ragged lists, overflows
        if kind == "tensor" and name != "ones":  # t of any dtype: zeros(3).to(t) of a torch.bits8 t
            safe = False  # raises, zeros(3, dtype=torch.bits8) does not; eye of a uint16 t the other way
        if any(d is not None and not _inert(d, ctx) for d in (dev, tkw_values.get("dtype"))):
            safe = False  # now evaluated before the factory runs (and raises: torch.zeros(-1))
        if kind == "both" and not (ctx.qualname(dt := tkw_values["dtype"]) in DTYPES or ctx.text(dt) == "None"
                                   or name == "ones"
                                   and isinstance(dt, ast.Attribute) and dt.attr == "dtype"
                                   and ctx.is_tensor(dt.value) and ctx.fix_caveat(dt.value) is None):
            safe = False  # a dtype .to() rejects on the host may be one the factory builds (torch.uint1)
        if chain:  # the device is now read before the ops' arguments, and a cast of a float
            # out of an integer's range (nan, 1e10 to int) gives what the device's hardware gives
            safe = safe and all(plain_arg(a) for c in chain for a in op_args(c)) \
                and not (any(isinstance(c, ast.Call) and getattr(c.func, "attr", None) in TENSOR_CASTS for c in chain)
                         and name not in _DTYPE_EXACT) and not view_kept(chain, node, ctx)
        # last: these scan the whole module the first time (2 s on 25,000 lines; a mode would see no `to`)
        safe = safe and ctx.module_caveat is None and ctx.fix_blocker is None and not ctx.may_replace_torch(name) \
            and (fails_alike(ctx, kind, dev, tkw_values.get("dtype")) or not ctx.device_error_may_be_handled)
        kwd = {"both": "device={}, dtype={}".format(*value) if kind == "both" else "",
               "tensor": f"device={value}.device, dtype={value}.dtype"}.get(kind, f"{kind}={value}")
        new = call_with_keyword(ctx, inner, kwd) + ctx.source[ctx.end(inner):ctx.end(func.value)]
        ctx.report(self.code, node,
                   f"use {short(new)} instead of {f}{t}: built where it is used, with no host copy",
                   text_fix(ctx, node, new, safe,
                            f"Pass {kind + '=' if kind in ('device', 'dtype') else 'device= and dtype='} "
                            f"to torch.{name}"))


def _rebinds_itself(node: ast.Call, ctx) -> Optional[ast.AST]:
    """The factory call in ``p = torch.tensor(...)`` when ``node`` is ``p.to(...)`` in
    ``p = p.to(...)`` on the statement right after it (nothing reads ``p`` in between,
    and the host tensor is not read after: the name now holds the moved one)."""
    recv = node.func.value  # type: ignore[attr-defined]
    if not isinstance(recv, ast.Name) or any(
            isinstance(n, ast.Name) and n.id == recv.id for a in node.args + [k.value for k in node.keywords]
            for n in ast.walk(a)):
        return None
    pair = ctx.statement_and_previous(node)
    if pair is None:
        return None
    before, stmt = pair
    if not (_assigns(stmt, recv.id) and stmt.value is node and _assigns(before, recv.id)):
        return None
    return before.value if isinstance(before.value, ast.Call) else None


def _assigns(stmt: ast.AST, name: str) -> bool:
    return isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
        and stmt.targets[0].id == name


def _known_arg(a: ast.AST, ctx) -> bool:
    """A factory argument that cannot be a ``__torch_function__`` object, which would see
    the ``device=`` the fix adds (``torch.zeros(obj)`` returns what ``obj`` says): a
    literal, a value proven not a tensor, or a display of such."""
    if isinstance(a, (ast.Tuple, ast.List)):
        return all(_known_arg(e, ctx) for e in a.elts)
    if isinstance(a, (ast.UnaryOp, ast.Starred)):
        return _known_arg(a.operand if isinstance(a, ast.UnaryOp) else a.value, ctx)
    if isinstance(a, ast.Subscript):  # x.size()[:-1]: a slice of a torch.Size
        return _known_arg(a.value, ctx) and _known_arg(a.slice, ctx)
    if isinstance(a, ast.Slice):
        return all(p is None or _known_arg(p, ctx) for p in (a.lower, a.upper, a.step))
    return isinstance(a, ast.Constant) or ctx.is_not_tensor(a)


def _inert(node: ast.AST, ctx) -> bool:
    """An expression whose evaluation does nothing a factory that raises first would have
    prevented: constants, names, attributes, ``torch.device(...)`` of such (no other call,
    no ``:=``)."""
    if isinstance(node, ast.Call):
        return ctx.qualname(node.func) == "torch.device" and all(
            _inert(a, ctx) for a in node.args + [k.value for k in node.keywords])
    if isinstance(node, ast.Attribute):
        return _inert(node.value, ctx)
    return isinstance(node, (ast.Constant, ast.Name))


RULE = FactoryThenTransfer()
