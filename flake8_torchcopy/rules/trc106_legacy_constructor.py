"""TRC106: ``torch.Tensor(t)`` / ``torch.FloatTensor(t)`` on a tensor: aliases, doesn't copy."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ._common import LEGACY_CONSTRUCTOR_NAMES, short
from .base import CallWord, Example, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context


class LegacyConstructor(Rule):
    code = "TRC106"
    name = "legacy-constructor-alias"
    summary = "`torch.Tensor(t)` on a tensor aliases it: use `t.detach().clone()` or `t`"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = "`torch.Tensor(t)`, `torch.FloatTensor(t)`… on a tensor (aliases it)"
    table_fix = "–"
    table_safety = "–"
    rationale = (
        "The legacy constructors `torch.Tensor(t)`, `torch.FloatTensor(t)` and friends do not "
        "copy a tensor argument: the result *aliases* t (writes show through) and keeps its "
        "autograd graph (`AliasBackward0`). `torch.FloatTensor(t)` raises unless t is float32. "
        "`torch.Tensor(2, 3)` (a size constructor) is not reported."
    )
    fix_safety = (
        "No automatic fix: code that relies on the alias wants `t` (or `t.view_as(t)`), code that "
        "expected a copy wants `t.detach().clone()`; only the author knows which."
    )
    triggers = (("Tensor",),)
    function_triggers = ((CallWord("Tensor(", LEGACY_CONSTRUCTOR_NAMES, data_only=True),),)  # not DTensor(

    VALID = (
        "import torch\nt = torch.Tensor(2, 3)\n",
        "import torch\nt = torch.FloatTensor([1.0, 2.0])\n",
        "import torch\ndef f(n):\n    return torch.Tensor(n)\n",
    )
    INVALID = (
        Example(code="import torch\nx = torch.randn(3)\ny = torch.Tensor(x)\n"),
        Example(code="import torch\nx = torch.ones(2, 2)\ny = torch.FloatTensor(x.float())\n"),
        Example(code="import torch\ndef f(data):\n"
                     "    x = torch.ones(2) if data is None else [1.0, 2.0]\n    return torch.Tensor(x)\n",
                note="a tensor on one path, a list on the other: reported, no fix"),
        Example(code="import torch\ndef f(c, data):\n"
                     "    x = torch.zeros(3) if c else data\n    return torch.Tensor(x)\n",
                note="a tensor on some paths (what the others bind is not known): reported"),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        q = ctx.qualname(node.func)
        if q is None or ctx.legacy_constructor(node.func) is None or len(node.args) != 1 or node.keywords:
            return
        arg = node.args[0]
        ctor = q.replace("torch.", "", 1)
        if ctx.tensor_kind(arg) is None:
            if ctx.tensor_on_a_path(arg):  # and, when "mixed", provably not on the others
                t, a = short(ctx.text(arg), 24), short(ctx.atom_text(arg), 24)
                others = " (and not on others)" if ctx.tensor_on_some_path(arg) else ""
                ctx.report(self.code, node,
                           f"{t} is a tensor on some paths to torch.{ctor}({t}){others}"
                           f": there it does not copy but aliases {t} and keeps its "
                           f"autograd graph; use {a}.detach().clone() for a copy")
            return
        t, a = short(ctx.text(arg), 24), short(ctx.atom_text(arg), 24)
        ctx.report(self.code, node,
                   f"torch.{ctor}({t}) does not copy: it aliases {t} and keeps its autograd graph; "
                   f"use {a}.detach().clone() for a copy, or {t} itself")


RULE = LegacyConstructor()
