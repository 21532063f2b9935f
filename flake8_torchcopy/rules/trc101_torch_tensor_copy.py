"""TRC101: ``torch.tensor(t)`` on a tensor; use ``t.detach().clone()``."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ._common import copy_expression, copy_fix_safety, keywords, replace_fix, short
from .base import CallWord, Example, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context


class TorchTensorCopy(Rule):
    code = "TRC101"
    name = "torch-tensor-copy"
    summary = "`torch.tensor(t)` on a tensor: use `t.detach().clone()`"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = "`torch.tensor(t)` on a tensor"
    table_fix = "`t.detach().clone()`; with `dtype=`/`device=`: `t.detach().to(dtype=…, device=…, copy=True)`"
    table_safety = "safe on data-flow evidence, no default device, not TorchScript"
    rationale = (
        "`torch.tensor(t)` copy-constructs from a tensor: it emits `UserWarning: To copy "
        "construct from a tensor, it is recommended to use sourceTensor.detach().clone()` "
        "and is slower (medians of 5 runs: 1.5x-2.4x the time of `t.detach().clone()` for a "
        "1-element tensor, 1.5x-1.75x at 1,024 elements, 1.1x at 65,536; equal from about a "
        "million elements, "
        "where the copy is memory-bound). With `dtype=`/`device=` the exact equivalent is "
        "`t.detach().to(dtype=…, device=…, copy=True)`; without `copy=True`, `.to()` "
        "would alias `t` when nothing changes."
    )
    fix_safety = (
        "Safe when the data flow proves the argument a plain tensor on every path (assigned "
        "from a torch factory, or computed by torch calls, tensor methods or arithmetic from "
        "such tensors, every argument known: a size, index or `dtype=` that is a 0-dim "
        "subclass or a `__torch_function__` object decides the result's class): "
        "`torch.tensor` makes a Tensor subclass plain while `detach().clone()` "
        "keeps its class, so a value proven only by `isinstance`/`torch.is_tensor` (a subclass "
        "passes), by an `assert` (gone under `python -O`) or derived from a parameter gets an "
        "unsafe fix. The module must not be able to set a default device "
        "(`torch.tensor` builds on it, `detach().clone()` stays on t's device): no "
        "`set_default_device`/`set_default_tensor_type`, no `__enter__`/`enter_context`, no "
        "`with` item that mentions `device` or a name, attribute or function of the module "
        "bound to something that does (`dev = torch.device`, `from torch import device as D`). "
        "The fix assumes that code in *other* modules does not call this one under a default "
        "device (`with torch.device(\"meta\"): build()`): a file cannot see its callers. The "
        "module must not replace `torch.tensor` (`torch.tensor = f`, `setattr`), nor rebind "
        "`torch` or an imported `tensor` (a second module-level binding, a star import, "
        "`exec`/`globals()`), and the call must not be inside `@torch.jit.script` (nor the module script "
        "a function by a call: `torch.jit.script(f)`). Keywords "
        "keep their written order; a `requires_grad=` written before a keyword with side "
        "effects gets no fix; a `dtype=`/`device=` that calls anything but `torch.device` gets "
        "an unsafe one (the fix evaluates it after `t.detach()`: a call that resizes t in place, "
        "`t.unsqueeze_(0)`, changes what the original copies, not the fix). With "
        "`--trust-annotations`, a parameter annotated `torch.Tensor` "
        "counts as a tensor and the fix is unsafe. Unsafe too where a handler may catch a "
        "RuntimeError (`torch.tensor` of an MKLDNN tensor raises one, its rewrite copies), in a "
        "module that may enter a torch function or dispatch mode (it sees other ops) or rebind "
        "its imports dynamically (`globals()[\"torch\"] = ...`). `pin_memory=` has no one-call "
        "equivalent: reported, not fixed."
    )
    triggers = (("tensor",),)  # also catches `from torch import tensor as T`
    function_triggers = ((CallWord("tensor(", {"tensor"}, data_only=True),),)  # not as_tensor(, is_tensor(

    VALID = (
        "import torch\ndata = [1.0, 2.0]\ny = torch.tensor(data)\n",
        "import torch\nimport numpy as np\na = np.zeros(3)\ny = torch.tensor(a)\n",
        "import torch\nx = torch.randn(3)\ny = torch.tensor(x.shape)\nz = torch.tensor(x.sum().item())\n",
        "import torch\ndef f(x):\n    if isinstance(x, torch.Tensor):\n        return x.detach().clone()\n"
        "    return torch.tensor(x)\n",
        "import torch\ndef f(x: torch.Tensor):\n    return torch.tensor(x)\n",
        "def tensor(x):\n    return x\nimport torch\nt = torch.ones(2)\ny = tensor(t)\n",
        "import torch\nx = torch.ones(2)\ny = torch.as_tensor(x)\n",
        "import torch\ny = torch.tensor(torch.pi)\nz = torch.tensor(torch.finfo(torch.float32).eps)\n",
    )
    INVALID = (
        Example(
            code="import torch\ndef f(x):\n    if not torch.is_tensor(x):\n        x = 1.0\n"
            "    return torch.tensor(x)\n",
            note="a tensor on one path, a float on the other: reported, no fix",
        ),
        Example(
            code="import torch\ndef f(self, stop):\n    zero = torch.tensor(0.0)\n"
            "    w = zero if stop else self.weight\n    return torch.tensor(w)\n",
            note="a tensor on one path, a value not known on the other: on the first it "
            "copy-constructs from a tensor whatever the other binds; reported, no fix",
        ),
        Example(
            code="import torch\ndef dist(a):\n    if len(a) == 0:\n        return 0\n"
            "    return torch.zeros(len(a)).sum()\ndef use(xs):\n    return torch.tensor(dist(xs))\n",
            note="a module function's return: an int on its early path, a tensor at its end (no "
            "flag or type test picks the path): reported, no fix",
        ),
        Example(
            code="import torch\nt = torch.randn(3)\ny = torch.tensor(t)\n",
            fixed="import torch\nt = torch.randn(3)\ny = t.detach().clone()\n",
            verify=("torch.tensor(t)", "t.detach().clone()"),
        ),
        Example(
            code="import torch as th\nw = th.zeros(4, 4)\ny = th.tensor(w, dtype=th.float64)\n",
            fixed="import torch as th\nw = th.zeros(4, 4)\ny = w.detach().to(dtype=th.float64, copy=True)\n",
            verify=("torch.tensor(w, dtype=torch.float64)", "w.detach().to(dtype=torch.float64, copy=True)"),
        ),
        Example(
            code="from torch import tensor, randn\nx = randn(2) * 3\ny = tensor(x, requires_grad=True)\n",
            fixed="from torch import tensor, randn\nx = randn(2) * 3\ny = x.detach().clone().requires_grad_()\n",
            verify=("torch.tensor(x, requires_grad=True)", "x.detach().clone().requires_grad_()"),
            inputs={"x": "tensor:float"},
        ),
        Example(
            code="import torch\ndef f(x):\n    if not torch.is_tensor(x):\n        return None\n"
            "    return torch.tensor(x, device='cpu')\n",
            fixed="import torch\ndef f(x):\n    if not torch.is_tensor(x):\n        return None\n"
            "    return x.detach().to(device='cpu', copy=True)\n",
            verify=("torch.tensor(x, device='cpu')", "x.detach().to(device='cpu', copy=True)"),
            unsafe=True,
            note="is_tensor proves a tensor, not a plain one: torch.tensor makes a subclass plain",
        ),
        Example(
            code="import torch\ntorch.set_default_device('cpu')\nt = torch.ones(3)\ny = torch.tensor(t)\n",
            fixed="import torch\ntorch.set_default_device('cpu')\nt = torch.ones(3)\ny = t.detach().clone()\n",
            unsafe=True,
            note="the module sets a default device, which torch.tensor would move the copy to",
        ),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        if ctx.qualname(node.func) != "torch.tensor" or len(node.args) != 1:
            return
        arg = node.args[0]
        if isinstance(arg, ast.Starred):
            return
        kind = ctx.tensor_kind(arg)
        if kind is None:
            if ctx.tensor_on_some_path(arg):
                t = short(ctx.text(arg), 24)
                ctx.report(self.code, node,
                           f"{t} is a tensor on some paths to torch.tensor({t}) (and not on others): "
                           "there it copy-constructs from a tensor (slower, warns)")
            elif ctx.tensor_on_a_path(arg):
                t = short(ctx.text(arg), 24)
                ctx.report(self.code, node,
                           f"{t} is a tensor on some paths to torch.tensor({t}): there it "
                           "copy-constructs from a tensor (slower, warns)")
            return
        kw = keywords(node)
        if kw is None:
            return
        replacement = copy_expression(ctx, arg, kw)
        t = short(ctx.text(arg), 24)
        if replacement is None:
            message = (f"torch.tensor({t}) copy-constructs from a tensor (slower, warns): "
                       f"use {short(ctx.atom_text(arg), 24)}.detach().clone() and pin_memory() if needed")
            ctx.report(self.code, node, message)
            return
        safe = copy_fix_safety(ctx, arg, kind, kw)
        message = (f"use {short(replacement)} instead of torch.tensor({t}): copy-constructing "
                   "from a tensor is slower and warns")
        ctx.report(self.code, node, message,
                   replace_fix(ctx, node, replacement, safe, f"Replace with `{short(replacement)}`"))


RULE = TorchTensorCopy()
