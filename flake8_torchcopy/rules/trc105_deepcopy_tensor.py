"""TRC105: ``copy.deepcopy(t)`` on a tensor; use ``t.detach().clone()`` or ``t.clone()``."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ._common import short
from .base import Example, Rule, calls_pattern

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context


class DeepcopyTensor(Rule):
    code = "TRC105"
    name = "deepcopy-tensor"
    summary = "`copy.deepcopy(t)` on a tensor: use `t.detach().clone()` or `t.clone()`"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = "`copy.deepcopy(t)` on a tensor"
    table_fix = "– (use `t.detach().clone()` or `t.clone()`)"
    table_safety = "–"
    rationale = (
        "`copy.deepcopy(t)` goes through Python's memo machinery: about 9x the time of "
        "`t.detach().clone()` for a 1-element tensor, 2.6x at 65,536 elements. It also does "
        "more than a copy: it keeps `requires_grad`, the `Parameter` type, `.grad` and Python "
        "attributes, copies the whole base storage of a view with the same strides and offset "
        "(an expanded tensor stays expanded), and raises on non-leaf tensors that require grad."
    )
    fix_safety = (
        "No automatic fix: which of `t.detach().clone()` (a plain copy) and `t.clone()` (keeps the "
        "graph) is meant depends on the code, and neither keeps `.grad` or Parameter-ness."
    )
    triggers = (("deepcopy",),)
    # in a function: a call (not a ``__deepcopy__`` method), or the function handed to a name
    function_triggers = ((calls_pattern({"deepcopy"}, attributes={"deepcopy"}),),)

    VALID = (
        "import copy\nimport torch\nmodel = torch.nn.Linear(2, 2)\nm2 = copy.deepcopy(model)\n",
        "import copy\ncfg = {'a': 1}\nc2 = copy.deepcopy(cfg)\n",
        "from copy import deepcopy\nimport torch\ndef f(state):\n    return deepcopy(state)\n",
        "import copy\nimport torch\ndef f(cfg):\n    for k, v in cfg.items():\n        copy.deepcopy(v)\n",
        "import copy\nimport torch\ndef f(rows):\n    for row in rows:\n        copy.deepcopy(row)\n",
        "import copy\nimport torch\ndef _get(x):\n    if x is None:\n        return None\n"
        "    return torch.as_tensor(x)\ndef f(v):\n    return copy.deepcopy(_get(v))\n",
        "import copy\nimport torch\ndef _keep(rows):\n    return [copy.deepcopy(r) for r in rows]\n"
        "def f(cfg):\n    return _keep([[1.0], [2.0]]), _keep(cfg.values())\n",
        # an optimizer's, scheduler's or GradScaler's state_dict() holds numbers and dicts
        "import copy\nimport torch\ndef backup(opt):\n"
        "    return {k: copy.deepcopy(v) for k, v in opt.state_dict().items()}\n",
        "import copy\nimport torch\ndef blur(imgs):\n    return [copy.deepcopy(im) for im in imgs]\n"
        "def f(x):\n    return blur(torch.nn.functional.interpolate(x, scale_factor=2))\n",
    )
    INVALID = (
        Example(code="import copy\nimport torch\nt = torch.randn(3)\ny = copy.deepcopy(t)\n"),
        Example(code="from copy import deepcopy\nimport torch\ndef f(x):\n"
                     "    assert isinstance(x, torch.Tensor)\n    return deepcopy(x)\n"),
        Example(code="import copy\nimport torch\ndef f():\n    x = torch.randn(4, 3)\n"
                     "    for a, b in zip(x.unbind(0), x.chunk(4)):\n        copy.deepcopy(b)\n",
                note="unbind/split/chunk yield tensors, through zip and enumerate"),
        Example(code="import copy\nimport torch\nfrom torch import nn\nclass M(nn.Module):\n"
                     "    def __init__(self):\n        super().__init__()\n"
                     "        self.register_buffer('mean', torch.zeros(3))\n"
                     "    def snapshot(self):\n        return copy.deepcopy(self.mean)\n",
                note="a class's own attribute, registered as a buffer in __init__"),
        Example(code="import copy\nimport torch\ndef _to_float(x):\n    return torch.as_tensor(x).float()\n"
                     "def f(v):\n    return copy.deepcopy(_to_float(v))\n",
                note="what a module-level function returns"),
        Example(code="import copy\nimport torch\nimport torch.nn.functional as F\ndef _blur(imgs):\n"
                     "    return [copy.deepcopy(im) for im in imgs]\n"
                     "def f(x):\n    return _blur(F.interpolate(x, scale_factor=2))\n",
                note="a private helper that every call in the module passes a tensor"),
        Example(code="import copy\nimport torch\ndef f(flag):\n"
                     "    w = torch.zeros(3) if flag else None\n    return copy.deepcopy(w)\n",
                note="a tensor on one path, None on the other: reported, no fix"),
        Example(code="import copy\nimport torch\ndef f(c, state):\n"
                     "    x = torch.zeros(3) if c else state\n    return copy.deepcopy(x)\n",
                note="a tensor on some paths (what the others bind is not known): reported"),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        if ctx.qualname(node.func) != "copy.deepcopy" or len(node.args) != 1:
            return
        arg = node.args[0]
        if ctx.tensor_kind(arg) is None:
            if ctx.tensor_on_a_path(arg):  # and, when "mixed", provably not on the others
                t, a = short(ctx.text(arg), 24), short(ctx.atom_text(arg), 24)
                others = " (and not on others)" if ctx.tensor_on_some_path(arg) else ""
                ctx.report(self.code, node,
                           f"{t} is a tensor on some paths to copy.deepcopy({t}){others}"
                           ": there the deepcopy is slow and also copies requires_grad, "
                           f".grad and the whole storage; use {a}.detach().clone() for tensors")
            return
        t, a = short(ctx.text(arg), 24), short(ctx.atom_text(arg), 24)
        ctx.report(self.code, node,
                   f"copy.deepcopy({t}) on a tensor is slow and also copies requires_grad, .grad and "
                   f"the whole storage: use {a}.detach().clone() (or {a}.clone() to keep the graph)")


RULE = DeepcopyTensor()
