"""TRC111: ``torch.zeros(n, requires_grad=True).cuda()``: the result is not a leaf."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ._common import call_without_keyword, keywords, short, text_fix
from .base import CalledThen, Example, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context

# methods that move or convert a tensor (a copy unless it is already there / of that dtype)
_TRANSFERS = frozenset({"to", "cuda", "cpu", "float", "double", "half", "bfloat16", "long", "int",
                        "type", "xpu", "mps"})
# ... and those that only move it (after requires_grad_() of a tensor whose dtype is not known)
_MOVES = frozenset({"to", "cuda", "xpu", "mps"})
_FACTORIES = frozenset("""
    zeros ones empty full eye arange linspace logspace rand randn randint randperm normal tensor
    zeros_like ones_like empty_like full_like rand_like randn_like randint_like""".split())


class LeafLostToTransfer(Rule):
    code = "TRC111"
    name = "leaf-lost-to-transfer"
    summary = "`torch.zeros(n, requires_grad=True).cuda()`: the result is not a leaf"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = "`torch.zeros(n, requires_grad=True).cuda()`: not a leaf, `.grad` stays None"
    table_fix = "`torch.zeros(n).cuda().requires_grad_()`"
    table_safety = "unsafe (changes what backward does, on purpose)"
    rationale = (
        "A factory with `requires_grad=True` makes a leaf; a `.cuda()`, `.to(device)`, "
        "`.to(dtype)` or `.double()` that moves or converts it returns a new tensor computed "
        "from that leaf, which is not a leaf: after `backward()` its `.grad` stays None (the "
        "gradient goes to the host tensor nobody holds), and an optimizer given it never "
        "updates it. A `.to()` that neither moves nor converts returns the leaf itself, so the "
        "report says when it bites; `.float()` of a factory without `dtype=` and `.cpu()` of one "
        "without `device=` (the defaults: most likely no-ops) are not reported. Wrapping the "
        "chain in `nn.Parameter(...)` makes a leaf and is not reported. The same holds for a proven "
        "tensor flagged by `requires_grad_()` and then moved (`.to`, `.cuda`: "
        "`torch.eye(n).repeat(k, 1).requires_grad_().cuda()`, `x.clone().requires_grad_().to(d)`); "
        "of something not proven a tensor it is not reported (`Module.requires_grad_()` returns "
        "the module, whose `.cuda()` moves it in place), nor before a cast (its dtype is not known). "
        "Nothing is reported in a module that calls `retain_grad()`, which fills the `.grad` of a "
        "tensor that is not a leaf."
    )
    fix_safety = (
        "Unsafe, on purpose: the fix makes the result a leaf, which changes what `backward()` "
        "does. `torch.zeros(n, requires_grad=True).to(d)` becomes "
        "`torch.zeros(n).to(d).requires_grad_()`: the same values (random factories draw the "
        "same numbers on the host), now a leaf on `d`."
    )
    triggers = (("requires_grad",),)
    # in a function: the keyword, and a factory's result moved (``.cuda(``, ``.to(``...),
    # chained (the factory by a local alias too), or ``.requires_grad_()`` moved
    function_triggers = (("requires_grad", CalledThen(_TRANSFERS, _FACTORIES, aliased=True,
                                                       called={"requires_grad_"})),)

    VALID = (
        "import torch\nw = torch.zeros(3, device='cuda', requires_grad=True)\n",
        "import torch\nw = torch.nn.Parameter(torch.zeros(3, requires_grad=True).cuda())\n",
        "import torch\nfrom torch import nn\nw = nn.Parameter(torch.randn(3, requires_grad=True).to('cuda'))\n",
        "import torch\nw = torch.zeros(3).cuda().requires_grad_()\n",
        "import torch\nw = torch.zeros(3, requires_grad=False).cuda()\n",
        "import torch\nw = torch.zeros(3, requires_grad=True).float()\n",
    )
    INVALID = (
        Example(
            code="import torch\nw = torch.rand(3, requires_grad=True).cuda()\n",
            fixed="import torch\nw = torch.rand(3).cuda().requires_grad_()\n",
            unsafe=True,
            note="the fix makes w a leaf: it changes what backward() does, on purpose",
        ),
        Example(
            code="import torch\ndef f(device):\n    return torch.randn(4, 4, requires_grad=True).to(device)\n",
            fixed="import torch\ndef f(device):\n    return torch.randn(4, 4).to(device).requires_grad_()\n",
            unsafe=True,
            note="random factories keep their values: the numbers are drawn on the host as before",
        ),
        Example(
            code="import torch\nw = torch.ones(2, requires_grad=True).double()\n",
            fixed="import torch\nw = torch.ones(2).double().requires_grad_()\n",
            verify=("torch.ones(2, requires_grad=True).double().is_leaf",
                    "torch.ones(2).double().requires_grad_().is_leaf"),
            unsafe=True,
            note="a conversion is not a leaf either",
        ),
        Example(
            code="import torch\ndef f(n, k):\n    return torch.eye(n).repeat(k, 1).requires_grad_().cuda()\n",
            fixed="import torch\ndef f(n, k):\n    return torch.eye(n).repeat(k, 1).cuda().requires_grad_()\n",
            unsafe=True,
            note="flagged, then moved: the copy is not a leaf; the fix flags the moved tensor",
        ),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr in _TRANSFERS):
            return
        inner = func.value
        if not isinstance(inner, ast.Call) or "retain_grad" in ctx.source:
            return  # ``w.retain_grad()`` fills the .grad of a tensor that is not a leaf
        q = ctx.qualname(inner.func) or ""
        if isinstance(inner.func, ast.Attribute) and inner.func.attr == "requires_grad_":
            self.check_flagged(node, inner, ctx)
            return
        if not (q.startswith("torch.") and q[len("torch."):] in _FACTORIES):
            return
        kw = keywords(inner)
        if kw is None or "requires_grad" not in kw:
            return
        rg = kw["requires_grad"].value
        if isinstance(rg, ast.Constant) and not rg.value:
            return
        if self.wrapped_in_parameter(ctx, node):
            return
        if func.attr == "float" and "dtype" not in kw or func.attr == "cpu" and "device" not in kw:
            return  # float32 and the host are the defaults: most likely a no-op that keeps the leaf
        f = short(ctx.text(inner), 40)
        m = func.attr
        factory = call_without_keyword(ctx, inner, "requires_grad")
        transfer = ctx.source[ctx.end(inner):ctx.end(node)]
        is_true = isinstance(rg, ast.Constant) and rg.value is True
        new = f"{factory}{transfer}.requires_grad_({'' if is_true else ctx.text(rg)})"
        fix = text_fix(ctx, node, new, False, "Make the moved tensor the leaf") if factory else None
        ctx.report(self.code, node,
                   f"{f}.{m}(...) is not a leaf when it moves or converts: its .grad stays None after "
                   f"backward(); use {short(new, 60)}", fix)

    def check_flagged(self, node: ast.Call, flag: ast.Call, ctx: Context) -> None:
        """``x.clone().requires_grad_().cuda()``, ``torch.eye(n).repeat(k, 1).requires_grad_().to(d)``:
        a proven tensor made to require grad, then moved (``.to``, ``.cuda``, ``.xpu``, ``.mps``;
        not a cast, which its dtype, not known, may make a no-op).  ``requires_grad_()`` of a
        leaf makes it a leaf that requires grad, of a tensor with a graph it keeps it one: the
        moved copy has a graph either way, so its ``.grad`` stays None.  The unsafe fix flags the
        moved tensor instead, where the flagged one is a call's result (of a name or an
        attribute, the tensor it holds would no longer be flagged)."""
        m = node.func.attr  # type: ignore[attr-defined]
        recv = flag.func.value  # type: ignore[attr-defined]
        kw = keywords(flag)
        if m not in _MOVES or kw is None or len(flag.args) + len(kw) > 1 or not ctx.is_tensor(recv):
            return
        rg = flag.args[0] if flag.args else kw["requires_grad"].value if "requires_grad" in kw else None
        if rg is not None and not (isinstance(rg, ast.Constant) and rg.value is True):
            return  # requires_grad_(False), or a flag not known
        if self.wrapped_in_parameter(ctx, node):
            return
        transfer = ctx.source[ctx.end(flag):ctx.end(node)]
        new = f"{ctx.text(recv)}{transfer}.requires_grad_()"
        shown = short(new.replace("\\\n", ""))  # a line continued by a backslash: one line
        fix = text_fix(ctx, node, new, False, "Make the moved tensor the leaf") if isinstance(recv, ast.Call) else None
        ctx.report(self.code, node,
                   f"{short(ctx.text(flag).replace(chr(92) + chr(10), ''))}.{m}(...) is not a leaf when it moves: "
                   f"its .grad stays None after backward(); {'use' if fix else 'move it first:'} {shown}", fix)

    @staticmethod
    def wrapped_in_parameter(ctx, node: ast.AST) -> bool:
        """``nn.Parameter(<node>)``: Parameter makes a leaf of whatever it wraps."""
        before = ctx.source[:ctx.start(node)].rstrip()
        return before.endswith("Parameter(") or before.endswith("Buffer(")


RULE = LeafLostToTransfer()
