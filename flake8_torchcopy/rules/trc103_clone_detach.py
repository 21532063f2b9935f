"""TRC103: ``t.clone().detach()``; use ``t.detach().clone()``."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ..finding import SAFE, UNSAFE, Fix
from ._common import args_run_clean, code, detach_after, hole, plain_tensor, replace_fix, short, swap_edit
from .base import CalledThen, Example, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context


class CloneDetach(Rule):
    code = "TRC103"
    name = "clone-then-detach"
    summary = "`t.clone().detach()`: use `t.detach().clone()`"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = "`t.clone().detach()`"
    table_fix = "`t.detach().clone()`"
    table_safety = "safe"
    rationale = (
        "`t.clone().detach()` and `t.detach().clone()` give identical tensors, but with grad "
        "mode on and `t.requires_grad`, the clone first records a `CloneBackward0` node in "
        "the autograd graph that `detach()` then throws away: about 1 µs per call on CPU "
        "(1.35x the time of `t.detach().clone()` for small tensors that require grad; no "
        "difference without requires_grad). PyTorch's own warning "
        "recommends `detach().clone()` (pytorch/pytorch PRs 140264 and 144270). Where recording "
        "is certainly off (in a `with torch.no_grad():`/`inference_mode()` body or a function "
        "decorated with one, with nothing in between turning it back on) the clone records "
        "nothing, and the rule is quiet; so it is where `t` is certainly detached (`p.detach()`, "
        "indexes, views and joins of such, through names that nothing changes in place), `p.data` "
        "(`p.data.T` too), "
        "or of a dtype that cannot require grad (a comparison `(t != -100)`, a cast `t.long()`, "
        "the indices of `values, idx = torch.max(t, dim)` (`min`, `sort`, `topk`...; "
        "`torch.topk(t, k, dim).indices`), "
        "`t.bool()`, `self.X` of a buffer its class registers as `torch.full((n,), -100)` or "
        "with an integer `dtype=` and the module rebinds nowhere: only floating point and "
        "complex tensors can)."
    )
    fix_safety = (
        "Safe when the data flow proves `t` a plain tensor on every path: the results are "
        "then identical (values, dtype, device, strides, requires_grad=False, no grad_fn). "
        "Where `t` is not proven a tensor, or only by an isinstance check (a Tensor subclass "
        "may override `clone`), the fix is unsafe: other classes have `clone`/`detach` methods "
        "that do not commute (a graph batch whose `detach()` works in place). `torch.Tensor.clone(t)`, "
        "`torch.ops.aten.clone(t)` and `super().clone()` are not reported. Arguments of `clone` "
        "(`memory_format=`) move with it, and the rest of the chain, comments and line breaks "
        "are kept; an argument that calls anything but `torch.device` (or binds with `:=`) "
        "makes the fix unsafe: it then runs after the detach, and a call that resizes t in "
        "place (`t.unsqueeze_(0)`) would change what the original clones, not the fix."
    )
    triggers = (("clone", "detach"),)
    # in a function: ``.detach()`` of what a ``clone(...)`` returns, chained
    function_triggers = ((CalledThen(("detach",), {"clone"}),),)

    VALID = (
        "import torch\nx = torch.randn(3)\ny = x.detach().clone()\ny = torch.detach(x).clone()\n",
        "import torch\nx = torch.randn(3)\ny = x.clone()\nz = x.detach()\n",
        "cfg = {'a': 1}.copy()\n",
        "import torch\nt = torch.randn(3)\ny = torch.Tensor.clone(t).detach()\n",
        "import torch\nclass T(torch.Tensor):\n    def clone(self):\n        return super().clone().detach()\n",
        "import torch\ny = [1, 2].copy()\n",
        # grad recording is off: the clone records no node
        "import torch\n@torch.no_grad()\ndef f(t: torch.Tensor):\n    return t.clone().detach()\n",
        "import torch\nw = torch.randn(3, requires_grad=True)\nwith torch.inference_mode():\n"
        "    y = w.clone().detach()\n",
    )
    INVALID = (
        Example(
            code="import torch\nw = torch.randn(3, requires_grad=True)\ny = w.clone().detach()\n",
            fixed="import torch\nw = torch.randn(3, requires_grad=True)\ny = w.detach().clone()\n",
            verify=("t.clone().detach()", "t.detach().clone()"),
        ),
        Example(
            code="import torch\ndef f(t):\n    return t.clone(memory_format=torch.contiguous_format).detach().requires_grad_()\n",
            fixed="import torch\ndef f(t):\n    return t.detach().clone(memory_format=torch.contiguous_format).requires_grad_()\n",
            verify=("t.clone(memory_format=torch.contiguous_format).detach()",
                    "t.detach().clone(memory_format=torch.contiguous_format)"),
            inputs={"t": "tensor:float"},
            unsafe=True,
            note="t is a parameter: it may be another class with its own clone/detach",
        ),
        Example(
            code="import torch\ng = torch.ones(2, requires_grad=True)\nbuf = torch.clone(g).detach()\n",
            fixed="import torch\ng = torch.ones(2, requires_grad=True)\nbuf = g.detach().clone()\n",
            verify=("torch.clone(t).detach()", "t.detach().clone()"),
        ),
        Example(
            code="import torch\ndef f(w):\n    return (w  # the weights\n            .clone()\n            .detach())\n",
            fixed="import torch\ndef f(w):\n    return (w  # the weights\n            .detach()\n            .clone())\n",
            unsafe=True,
            note="w is a parameter: the fix keeps comments and line breaks, and is unsafe",
        ),
        Example(
            code="import torch\nclass Batch:\n    def detach(self):\n        return self\n"
            "def f(b):\n    return b.clone().detach()\n",
            fixed="import torch\nclass Batch:\n    def detach(self):\n        return self\n"
            "def f(b):\n    return b.detach().clone()\n",
            unsafe=True,
            note="b is not proven a tensor (graph batches have their own clone and detach): unsafe fix",
        ),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        inner = detach_after(node, ("clone",))
        if inner is None:
            return
        receiver = inner.func.value  # type: ignore[attr-defined]  # detach_after: func is an Attribute
        if ctx.is_not_tensor(receiver) or any(isinstance(a, ast.Starred) for a in inner.args):
            return
        if ctx.recording_off(node):
            return  # under no_grad/inference_mode the clone records nothing: no node to save
        q = ctx.qualname(receiver)
        if q == "torch":
            if len(inner.args) == 1 and not ctx.certainly_no_grad(inner.args[0]):
                self.check_function_form(node, inner, ctx)
            return
        if ctx.certainly_no_grad(receiver):
            return  # a detached tensor: the clone records no node either
        if ctx.calls_foreign_methods(receiver):
            return  # `d.del_("index")` elsewhere: a TensorDict or the like, no plain tensor
        if q is not None or _is_super(receiver):
            return  # torch.Tensor.clone(t), torch.ops.aten.clone(t), super().clone(): not a method of t
        edit, args_text = swap_edit(ctx, node, inner)
        edits = (edit,)
        r = short(ctx.atom_text(receiver), 24)  # (a * b).clone(): keep the parentheses
        a = short(args_text.strip(), 40)
        before, after = f"{r}.clone{a}.detach()", f"{r}.detach().clone{a}"
        # exact only for a plain tensor: another class's clone/detach (a graph batch whose
        # detach works in place, a Tensor subclass overriding clone) may not commute
        ctx.report(
            self.code, node,
            f"use {after} instead of {before}: the clone records a graph node that detach "
            "throws away",
            Fix(edits, SAFE if plain_tensor(ctx, receiver) and args_run_clean(ctx, inner) else UNSAFE,
                "Swap to `.detach().clone()`"),
        )

    def check_function_form(self, node: ast.Call, inner: ast.Call, ctx: Context) -> None:
        """``torch.clone(t, **kw).detach()`` -> ``t.detach().clone(**kw)``."""
        if len(inner.args) != 1:
            return
        t = inner.args[0]
        kw = ", ".join(ctx.text(k) for k in inner.keywords)
        kw_parts = [part for i, k in enumerate(inner.keywords)
                    for part in ((", " if i else ""), f"{k.arg}=" if k.arg else "**", hole(ctx, k.value))]
        after = code(hole(ctx, t, atom=True), ".detach().clone(", *kw_parts, ")")
        before = f"torch.clone({short(ctx.text(t), 24)}{', ' if kw else ''}{short(kw, 30)}).detach()"
        ctx.report(self.code, node,
                   f"use {short(after)} instead of {before}: the clone records a graph node that "
                   "detach throws away",
                   replace_fix(ctx, node, after, plain_tensor(ctx, t) and args_run_clean(ctx, inner),
                               "Swap to `.detach().clone()`"))


def _is_super(node: ast.AST) -> bool:
    """``super()`` or ``super(C, self)``: the call resolves to the parent's method."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "super")


RULE = CloneDetach()
