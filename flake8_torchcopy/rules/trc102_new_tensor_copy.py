"""TRC102: ``x.new_tensor(t)`` on a tensor; use ``t.detach().clone()`` or ``.to(..., copy=True)``."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ._common import (code, copy_expression, copy_fix_safety, hole, is_simple, keywords, plain_tensor,
                      replace_fix, runs_clean, same_expr, short)
from .base import Example, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context


class NewTensorCopy(Rule):
    code = "TRC102"
    name = "new-tensor-copy"
    summary = "`x.new_tensor(t)` on a tensor: use `t.detach().clone()` / `t.detach().to(..., copy=True)`"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = "`x.new_tensor(t)` on a tensor"
    table_fix = "`t.detach().clone()` / `t.detach().to(dtype=x.dtype, device=x.device, copy=True)`"
    table_safety = "as TRC101"
    rationale = (
        "`x.new_tensor(t)` copy-constructs from a tensor like `torch.tensor(t)`: it warns "
        "and is slower (medians of 5 runs: 1.55x the time of `t.detach().clone()` for one "
        "element, 1.1x-1.2x at 65,536). `x.new_tensor(t)` gives a tensor with x's dtype and device: the exact "
        "equivalent is `t.detach().to(dtype=x.dtype, device=x.device, copy=True)`, and "
        "`t.detach().clone()` when x and t are the same expression. `x.new_tensor([1, 2])` "
        "with list data is normal use and is never reported."
    )
    fix_safety = (
        "As TRC101: safe when `t` is a plain tensor by data flow (not only by an isinstance "
        "check, which a Tensor subclass passes), outside TorchScript and in a module that sets "
        "no default device (and not where a handler may catch the RuntimeError `new_tensor` "
        "raises for a conjugate-view or sparse compressed x). `x.new_tensor` returns x's class "
        "and the fix reads x twice: unless "
        "x and t are the same expression, x must also be a plain tensor held in a name; an "
        "attribute (it may be a property) or an unproven x gives an unsafe fix. An explicit "
        "`dtype=` or `device=` wins over x's. When x is not a plain name or attribute chain "
        "(it would be evaluated twice), no fix. The fix reads x after the argument: an "
        "argument that may have side effects (`:=`, a call: `x.new_tensor((x := y) + 1)`) gives an "
        "unsafe fix, and so does a `dtype=`/`device=` that calls anything but `torch.device`: "
        "the fix evaluates it after `t.detach()`, which a call resizing t in place would not see. "
        "A `dtype=`/`device=` that may be None gives an unsafe fix: `x.new_tensor(t, dtype=None)` "
        "takes x's dtype, `t.detach().to(dtype=None, ...)` keeps t's (the same for the device)."
    )
    triggers = (("new_tensor",),)
    function_triggers = (("new_tensor(",),)

    VALID = (
        "import torch\nx = torch.zeros(3)\ny = x.new_tensor([1, 2, 3])\n",
        "import torch\nimport numpy as np\nx = torch.zeros(3)\ny = x.new_tensor(np.ones(3))\n",
        "import torch\ndef f(x, data):\n    return x.new_tensor(data)\n",
    )
    INVALID = (
        Example(
            code="import torch\nt = torch.randn(3)\ny = t.new_tensor(t)\n",
            fixed="import torch\nt = torch.randn(3)\ny = t.detach().clone()\n",
            verify=("t.new_tensor(t)", "t.detach().clone()"),
        ),
        Example(
            code="import torch\nx = torch.zeros(2, dtype=torch.float64)\nt = torch.randn(2)\ny = x.new_tensor(t)\n",
            fixed="import torch\nx = torch.zeros(2, dtype=torch.float64)\nt = torch.randn(2)\n"
            "y = t.detach().to(dtype=x.dtype, device=x.device, copy=True)\n",
            verify=("x.new_tensor(t)", "t.detach().to(dtype=x.dtype, device=x.device, copy=True)"),
        ),
        Example(
            code="import torch\nx = torch.zeros(2)\nt = torch.randn(2)\ny = x.new_tensor(t, dtype=torch.float16)\n",
            fixed="import torch\nx = torch.zeros(2)\nt = torch.randn(2)\n"
            "y = t.detach().to(dtype=torch.float16, device=x.device, copy=True)\n",
            verify=("x.new_tensor(t, dtype=torch.float16)",
                    "t.detach().to(dtype=torch.float16, device=x.device, copy=True)"),
        ),
        Example(
            code="import torch\ndef f(c, s):\n    x = torch.zeros(2)\n    t = torch.randn(3) if c else s\n"
            "    return x.new_tensor(t)\n",
            note="a tensor on some paths (what the others bind is not known): reported, no fix",
        ),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr != "new_tensor" or len(node.args) != 1:
            return
        arg = node.args[0]
        if isinstance(arg, ast.Starred):
            return
        kind = ctx.tensor_kind(arg)
        if ctx.is_not_tensor(func.value):
            return
        if kind is None:
            if ctx.tensor_on_a_path(arg):  # and, when "mixed", provably not on the others
                t, xt = short(ctx.text(arg), 24), short(ctx.atom_text(func.value), 24)
                others = " (and not on others)" if ctx.tensor_on_some_path(arg) else ""
                ctx.report(self.code, node,
                           f"{t} is a tensor on some paths to {xt}.new_tensor({t}){others}: "
                           "there it copy-constructs from a tensor (slower, warns)")
            return
        kw = keywords(node)
        if kw is None:
            return
        x = func.value
        if same_expr(x, arg):
            replacement = copy_expression(ctx, arg, kw)
        elif is_simple(x):
            replacement = copy_expression(ctx, arg, kw, code(hole(ctx, x), ".dtype"),
                                          code(hole(ctx, x), ".device"))
        else:
            replacement = None
        t = short(ctx.text(arg), 24)
        xt = short(ctx.atom_text(x), 24)
        if replacement is None:
            ctx.report(self.code, node,
                       f"{xt}.new_tensor({t}) copy-constructs from a tensor (slower, warns): use "
                       f"{short(ctx.atom_text(arg), 24)}.detach().to(dtype={xt}.dtype, device={xt}.device, copy=True)")
            return
        # x.new_tensor keeps x's class, and the fix reads x twice: x must be a plain
        # tensor held in a name (an attribute may be a property)
        safe = copy_fix_safety(ctx, arg, kind, kw) and (
            same_expr(x, arg) or (isinstance(x, ast.Name) and plain_tensor(ctx, x)
                                  and runs_clean(ctx, arg)
                                  and all(_never_none(ctx, kw[k].value) for k in ("dtype", "device") if k in kw)))
        ctx.report(self.code, node,
                   f"use {short(replacement)} instead of {xt}.new_tensor({t}): copy-constructing "
                   "from a tensor is slower and warns",
                   replace_fix(ctx, node, replacement, safe, f"Replace with `{short(replacement)}`"))


def _never_none(ctx, node: ast.AST) -> bool:
    """Is ``node`` (a ``dtype=``/``device=`` of ``new_tensor``) certainly not None?  A constant
    other than None, a torch attribute (``torch.float16``), ``torch.device(...)``, or the
    ``.dtype``/``.device`` of a plain tensor.  (None means x's dtype or device there, and the
    rewrite's ``.to(dtype=None)`` keeps t's.)"""
    if isinstance(node, ast.Constant):
        return node.value is not None
    q = ctx.qualname(node.func if isinstance(node, ast.Call) else node) or ""
    if isinstance(node, ast.Call):
        return q == "torch.device"
    if q.startswith("torch."):
        return True
    return isinstance(node, ast.Attribute) and node.attr in ("dtype", "device") \
        and ctx.is_tensor(node.value) and plain_tensor(ctx, node.value)


RULE = NewTensorCopy()
