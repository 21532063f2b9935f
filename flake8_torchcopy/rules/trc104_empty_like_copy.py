"""TRC104: ``torch.empty_like(t).copy_(t)``; use ``t.clone()``."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ._common import code, hole, is_simple, plain_tensor, replace_fix, same_expr, short
from .base import CalledThen, Example, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context


class EmptyLikeCopy(Rule):
    code = "TRC104"
    name = "empty-like-copy"
    summary = "`torch.empty_like(t).copy_(t)`: use `t.clone()`"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = "`torch.empty_like(t).copy_(t)`"
    table_fix = "`t.clone()`"
    table_safety = "safe"
    rationale = (
        "`torch.empty_like(t).copy_(t)` is `t.clone()` in two calls: the same values, dtype, "
        "device and strides, and gradients flow into `t` through `CopyBackwards` just as "
        "through `CloneBackward0`. It is slower (1.4x-1.7x the time of a clone for small "
        "tensors that require grad). It is *not* `t.detach().clone()`, which would cut the gradient."
    )
    fix_safety = (
        "Safe when `empty_like` gets only `t` and `copy_` gets only `t` (no `dtype=`, "
        "`memory_format=`, `non_blocking=`) and `t` is a name the data flow proves a plain "
        "tensor. The result's `_version` counter is 0 instead of 1. The original evaluates `t` "
        "twice: an attribute (it may be a property) or an unproven `t` (a Tensor subclass may "
        "override `clone`) gives an unsafe fix; a `t` with calls in it (`next(it)`, "
        "`torch.randn(3)`) gets no fix. Unsafe too where a handler may catch a RuntimeError: "
        "`torch.empty_like(t).copy_(t)` of an MKLDNN tensor raises one (a NotImplementedError), "
        "`t.clone()` copies it. Otherwise reported without a fix."
    )
    triggers = (("empty_like", "copy_"),)
    # in a function: ``.copy_(`` of what ``empty_like(...)`` returns (a local alias too)
    function_triggers = ((CalledThen(("copy_",), {"empty_like"}, aliased=True),),)

    VALID = (
        "import torch\nt = torch.randn(3)\nu = torch.randn(3)\ny = torch.empty_like(t).copy_(u)\n",
        "import torch\nt = torch.randn(3)\ny = torch.empty_like(t)\ny.copy_(t)\n",
    )
    INVALID = (
        Example(
            code="import torch\nt = torch.randn(3, requires_grad=True)\ny = torch.empty_like(t).copy_(t)\n",
            fixed="import torch\nt = torch.randn(3, requires_grad=True)\ny = t.clone()\n",
            verify=("torch.empty_like(t).copy_(t)", "t.clone()"),
        ),
        Example(
            code="import torch\ndef f(t):\n    return torch.empty_like(t).copy_(t, non_blocking=True)\n",
            fixed=None,
        ),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "copy_") or len(node.args) != 1:
            return
        inner = func.value
        if not (isinstance(inner, ast.Call) and ctx.qualname(inner.func) == "torch.empty_like"
                and inner.args and same_expr(inner.args[0], node.args[0])):
            return
        t = inner.args[0]
        exact = len(inner.args) == 1 and not inner.keywords and not node.keywords
        text = short(ctx.text(t), 24)
        replacement = code(hole(ctx, t, atom=True), ".clone()")
        conv = [k for k in inner.keywords if k.arg in ("dtype", "device")]
        if len(inner.args) > 1 or len(conv) != len(inner.keywords):
            return  # a layout or requires_grad request: not a plain copy
        if conv:
            args = ", ".join(f"{k.arg}={ctx.text(k.value)}" for k in conv)
            ctx.report(self.code, node,
                       f"use {text}.to({short(args, 40)}, copy=True) instead of torch.empty_like(...)"
                       f".copy_({text}): one call, same result and gradient")
            return
        # the original evaluates t twice and calls empty_like and copy_; the fix evaluates it
        # once and calls t.clone(): exact for a plain tensor in a name (an attribute may be a
        # property, a call runs twice; a subclass may override clone)
        if exact and not is_simple(t):
            exact = False
        # torch.empty_like(t).copy_(t) of an MKLDNN t raises NotImplementedError, t.clone() copies
        safe = isinstance(t, ast.Name) and plain_tensor(ctx, t) and not ctx.error_may_be_handled
        fix = replace_fix(ctx, node, replacement, safe, f"Replace with `{short(replacement)}`") if exact else None
        ctx.report(self.code, node,
                   f"use {text}.clone() instead of torch.empty_like({text}).copy_({text}): one call, "
                   "same result and gradient", fix)


RULE = EmptyLikeCopy()
