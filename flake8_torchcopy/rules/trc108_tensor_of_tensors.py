"""TRC108: ``torch.tensor([a, b])`` of tensors; use ``torch.stack([a, b])``."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ._common import code, hole, replace_fix, short
from .base import CallWord, Example, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context


class TensorOfTensors(Rule):
    code = "TRC108"
    name = "tensor-of-tensors"
    summary = "`torch.tensor([a, b])` (or `torch.as_tensor`) of tensors: use `torch.stack([a, b])`"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = "`torch.tensor([a, b])` of tensors"
    table_fix = "`torch.stack([a, b]).detach()`"
    table_safety = "unsafe"
    rationale = (
        "`torch.tensor([a, b, ...])` with tensor elements converts each element through "
        "Python scalars: it is slow, works only for 0-d and 1-element tensors, raises for "
        "larger ones, and cuts the autograd graph. `torch.stack` does it in one kernel. A list "
        "that mixes a tensor with numbers or items not known is reported too, without a fix, and "
        "so is one with an item that is a tensor on some paths."
    )
    fix_safety = (
        "Unsafe: for 0-d elements `torch.stack([a, b]).detach()` is exact, but 1-element 1-d "
        "elements give shape (2, 1) instead of (2,), and mixed dtypes or devices may differ. The "
        "`.detach()` keeps torch.tensor's cut of the graph; drop it if gradients should flow."
    )
    triggers = (("tensor",),)  # also catches `from torch import tensor as T`
    function_triggers = ((CallWord("tensor(", {"tensor", "as_tensor"}),),)

    VALID = (
        "import torch\ny = torch.tensor([1.0, 2.0])\n",
        "import torch\nx = torch.randn(3)\ny = torch.tensor([x.sum().item(), 2.0])\n",
        "import torch\ndef f(a, b):\n    return torch.tensor([a, b])\n",
    )
    INVALID = (
        Example(
            code="import torch\nx = torch.randn(3)\na = x.sum()\nb = x.mean()\ny = torch.tensor([a, b])\n",
            fixed="import torch\nx = torch.randn(3)\na = x.sum()\nb = x.mean()\ny = torch.stack([a, b]).detach()\n",
            unsafe=True,
            verify=("torch.tensor([a, b])", "torch.stack([a, b]).detach()"),
            inputs={"a": "tensor:rank=0", "b": "tensor:rank=0"},
            note="exact for 0-d elements; 1-element 1-d elements change the shape",
        ),
        Example(
            code="import torch\nx = torch.randn(3)\ny = torch.as_tensor([x.sum(), x.mean()])\n",
            fixed="import torch\nx = torch.randn(3)\ny = torch.stack([x.sum(), x.mean()]).detach()\n",
            unsafe=True,
            note="torch.as_tensor of a list of tensors goes through Python scalars too",
        ),
        Example(
            code="import torch\ndef f(logits, step):\n    loss = torch.mean(logits)\n"
            "    return torch.tensor([loss, step])\n",
            note="a tensor among other items: reported, no fix (raises when the tensor has more "
            "than one element, and its graph is cut)",
        ),
        Example(
            code="import torch\ndef f(logits, c, v):\n    s = torch.mean(logits) if c else v\n"
            "    return torch.as_tensor([1, s])\n",
            note="a tensor on some paths (what the other binds is not known): reported, no fix",
        ),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        q = ctx.qualname(node.func)
        if q not in ("torch.tensor", "torch.as_tensor") or len(node.args) != 1:
            return
        lst = node.args[0]
        if not isinstance(lst, (ast.List, ast.Tuple)) or not lst.elts:
            return
        kinds = [None if isinstance(e, ast.Starred) else ctx.tensor_kind(e) for e in lst.elts]
        if None in kinds:
            tensors = [ctx.text(e) for e, k in zip(lst.elts, kinds) if k is not None]
            if tensors:  # a tensor among numbers (or items not known)
                ctx.report(self.code, node,
                           f"{q}([...]) of the tensor {short(', '.join(tensors), 30)} and "
                           "other items goes through Python scalars: it raises for tensors of "
                           "more than one element and drops their graph; build it from tensors "
                           "with torch.stack or torch.cat")
                return
            some = [ctx.text(e) for e, k in zip(lst.elts, kinds)
                    if k is None and not isinstance(e, ast.Starred) and ctx.tensor_on_a_path(e)]
            if some:  # a tensor on some paths (the others may be anything): no fix
                ctx.report(self.code, node,
                           f"{short(', '.join(some), 30)} {'is a tensor' if len(some) == 1 else 'are tensors'} "
                           f"on some paths to {q}([...]): there it goes through Python scalars, "
                           "raises for tensors of more than one element and drops their graph")
            return
        torch = ctx.torch_name()
        fix = None
        elems = ", ".join(ctx.text(e) for e in lst.elts)
        replacement = f"torch.stack([{short(elems, 30)}])"
        if torch is not None and not node.keywords:
            items = [part for i, e in enumerate(lst.elts) for part in ((", " if i else ""), hole(ctx, e))]
            replacement = code(f"{torch}.stack([", *items, "]).detach()")
            fix = replace_fix(ctx, node, replacement, False, f"Replace with `{short(replacement)}`")
        ctx.report(self.code, node,
                   f"use {short(replacement)} instead of {q}([...]) of tensors: it goes "
                   "through Python scalars and raises for tensors of more than one element", fix)


RULE = TensorOfTensors()
