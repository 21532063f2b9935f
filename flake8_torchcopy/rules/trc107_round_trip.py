"""TRC107: copies through Python or numpy (``torch.tensor(t.tolist())``, ``t.numpy()``)."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional, Tuple

from ._common import code, copy_expression, copy_fix_safety, hole, keywords, replace_fix, short
from .base import Example, Rule, calls_pattern

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context

_PASS_THROUGH = ("detach", "cpu")
# the constructors the round trip comes back through: called, or handed to a name
_BACK = calls_pattern({"tensor", "from_numpy"}, attributes={"tensor", "from_numpy"})


def _unwrap(node: ast.AST) -> Optional[Tuple[ast.AST, str, bool, bool]]:
    """``t[.detach()][.cpu()].numpy()`` / ``.tolist()`` -> (t, last method, moved to cpu, detached)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("tolist", "numpy") and not node.args and not node.keywords):
        return None
    last = node.func.attr
    base = node.func.value
    cpu = detached = False
    while (isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute)
           and base.func.attr in _PASS_THROUGH and not base.args and not base.keywords):
        cpu = cpu or base.func.attr == "cpu"
        detached = detached or base.func.attr == "detach"
        base = base.func.value
    return base, last, cpu, detached


def _not_empty(ctx, node: ast.AST) -> bool:
    """Is every size of the tensor ``node`` a known number of 1 or more?  Through numpy an
    empty tensor comes back with zero strides (``torch.zeros(3, 0).t()``: (0, 0), where
    ``detach().clone()`` gives (1, 1)); sizes read off a binding hold only where nothing
    changes them in place (``t.resize_(0, 3)``, ``t.data = e``, ``shrink(t)``)."""
    sizes = ctx.value(node).sizes
    return sizes is not None and all(not m.powers and m.coef >= 1 for m in sizes) and all(
        ctx.array_stays_put(n, tensor=True) for n in ast.walk(node) if isinstance(n, ast.Name) and ctx.is_tensor(n))


_SOME = "some paths"  # the base is a tensor on some paths only


class RoundTrip(Rule):
    code = "TRC107"
    name = "round-trip-copy"
    summary = "copy through `.tolist()`/`.numpy()`: use `t.detach().clone()`"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = "`torch.tensor(t.tolist())`, `torch.tensor(t.numpy())`, `torch.from_numpy(t.numpy())`…"
    table_fix = ('`t.detach().clone()` (`.to(device="cpu", copy=True)` after `.cpu()`; the alias '
                 '`torch.from_numpy(t.numpy())` → `t.detach()`)')
    table_safety = ("safe for the copies through `.numpy()`; unsafe via `.tolist()` (dtype) and for "
                    "the alias `torch.from_numpy(t.numpy())` (inference mode)")
    rationale = (
        "`torch.tensor(t.tolist())` copies every element through a Python object, and "
        "changes the dtype on the way: float64, float16 and bfloat16 become float32 (float64 "
        "loses precision), int8/16/32 and uint8 become int64, complex128 becomes complex64. "
        "`torch.tensor(t.numpy())` and `torch.from_numpy(t.numpy()).clone()` make a copy through "
        "numpy, raise for tensors that require grad, for bfloat16 and for CUDA tensors without "
        "`.cpu()`. `torch.from_numpy(t.numpy())` is just `t.detach()`: an alias, not a copy."
    )
    fix_safety = (
        "Through `.numpy()`: safe (where the original runs, the result is equal; the rewrite "
        "also runs where `numpy()` raises) when `t` is a tensor by data flow whose every size "
        "is a known number of 1 or more (an empty tensor comes back through numpy with zero "
        "strides, `detach().clone()` keeps others; sizes read off a binding that nothing changes in "
        "place: no `t.resize_(0, 3)`, `t.set_(e)`, `t.data = e`, no call `t` is handed to) and, for "
        "`torch.tensor`, the TRC101 conditions hold; unsafe inside a `try` whose handler may catch "
        "the RuntimeError or TypeError numpy raises (`except TypeError:` a bfloat16 fallback), or in "
        "a function the module calls inside one, and in a module that may trace its functions "
        "(`torch.jit.trace`, `torch.onnx.export`: the trace keeps what `numpy()` returned as a "
        "constant, the rewrite stays an op on `t`). Through `.tolist()`: unsafe, because the "
        "dtype can change (the rewrite keeps t's dtype; the original may not). The alias form "
        "`torch.from_numpy(t.numpy())` → `t.detach()` is unsafe: under `torch.inference_mode()` "
        "the original returns an inference tensor and the rewrite a normal one."
    )
    triggers = (("tolist",), ("numpy(",))
    # in a function: the way out, and the way back in around it
    function_triggers = (("tolist", _BACK), ("numpy(", _BACK))

    VALID = (
        "import torch\nimport numpy as np\na = np.zeros(3)\ny = torch.tensor(a.tolist())\n",
        "import torch\nx = torch.randn(3)\nvals = x.tolist()\n",
        "import torch\ny = torch.tensor([1, 2]).numpy()\n",
    )
    INVALID = (
        Example(
            code="import torch\nt = torch.randn(3)\ny = torch.tensor(t.tolist())\n",
            fixed="import torch\nt = torch.randn(3)\ny = t.detach().clone()\n",
            unsafe=True,
            verify=("torch.tensor(t.tolist())", "t.detach().clone()"),
        ),
        Example(
            code="import torch\nt = torch.randn(3)\ny = torch.tensor(t.cpu().numpy())\n",
            fixed="import torch\nt = torch.randn(3)\ny = t.detach().to(device=\"cpu\", copy=True)\n",
            verify=("torch.tensor(t.cpu().numpy())", "t.detach().to(device=\"cpu\", copy=True)"),
        ),
        Example(
            code="import torch\nt = torch.randn(3)\ny = torch.from_numpy(t.detach().numpy()).clone()\n",
            fixed="import torch\nt = torch.randn(3)\ny = t.detach().clone()\n",
            verify=("torch.from_numpy(t.detach().numpy()).clone()", "t.detach().clone()"),
        ),
        Example(
            code="import torch\nt = torch.randn(3)\ny = torch.from_numpy(t.numpy())\n",
            fixed="import torch\nt = torch.randn(3)\ny = t.detach()\n",
            unsafe=True,
            verify=("torch.from_numpy(t.numpy())", "t.detach()"),
            note="under torch.inference_mode() the original returns an inference tensor and "
            "t.detach() a normal one (found by the verifier)",
        ),
        Example(
            code="import torch\ndef f(c, s):\n    t = torch.randn(3) if c else s\n"
            "    return torch.tensor(t.tolist())\n",
            note="a tensor on some paths (what the others bind is not known): reported, no fix",
        ),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        q = ctx.qualname(node.func)
        if q == "torch.tensor" and len(node.args) == 1:
            self.check_tensor(node, ctx)
        elif (isinstance(node.func, ast.Attribute) and node.func.attr == "clone"
              and not node.args and not node.keywords and isinstance(node.func.value, ast.Call)
              and ctx.qualname(node.func.value.func) == "torch.from_numpy"):
            self.check_from_numpy(node, node.func.value, ctx, cloned=True)
        elif q == "torch.from_numpy":
            self.check_from_numpy(node, node, ctx, cloned=False)

    @staticmethod
    def _base(ctx, arg: ast.AST):
        got = _unwrap(arg)
        if got is None:
            return None
        base, last, cpu, detached = got
        kind = ctx.tensor_kind(base)
        if kind is None and detached and not ctx.is_not_tensor(base):
            kind = "tensor"
        if kind is None:  # a tensor on some paths only: reported, no fix
            return (base, last, cpu, _SOME) if ctx.tensor_on_a_path(base) else None
        return base, last, cpu, kind

    def check_tensor(self, node: ast.Call, ctx: Context) -> None:
        got = self._base(ctx, node.args[0])
        kw = keywords(node)
        if got is None or kw is None:
            return
        base, last, cpu, kind = got
        if kind is _SOME:
            return self.report_some(node, ctx, base, last)
        replacement = copy_expression(ctx, base, kw, device_default='"cpu"' if cpu else None)
        safe = last == "numpy" and copy_fix_safety(ctx, base, kind, kw) and _not_empty(ctx, base) \
            and not ctx.numpy_error_may_be_handled and not ctx.may_trace
        self.report(node, ctx, base, last, replacement, safe)

    def check_from_numpy(self, node: ast.Call, inner: ast.Call, ctx: Context, cloned: bool) -> None:
        if len(inner.args) != 1 or inner.keywords:
            return
        got = self._base(ctx, inner.args[0])
        if got is None or got[1] != "numpy":
            return
        base, last, cpu, kind = got
        if kind is _SOME:
            return self.report_some(node, ctx, base, last)
        t = hole(ctx, base, atom=True)
        if cloned:
            replacement = code(t, '.detach().to(device="cpu", copy=True)' if cpu else ".detach().clone()")
        else:
            replacement = code(t, ".detach().cpu()" if cpu else ".detach()")
        # the alias form differs under inference_mode (inference tensor vs normal): unsafe
        safe = cloned and kind == "tensor" and ctx.fix_caveat(base) is None and _not_empty(ctx, base) \
            and not ctx.numpy_error_may_be_handled and not ctx.may_trace
        self.report(node, ctx, base, last, replacement, safe, alias=not cloned)

    def report_some(self, node, ctx: Context, base, last) -> None:
        b = short(ctx.text(base), 24)
        others = " (and not on others)" if ctx.tensor_on_some_path(base) else ""
        ctx.report(self.code, node, f"{b} is a tensor on some paths to this round trip through "
                   f".{last}(){others}: there use {short(ctx.atom_text(base), 24)}.detach().clone()")

    def report(self, node, ctx: Context, base, last, replacement, safe, alias=False) -> None:
        why = ("it is an alias of the tensor, not a copy" if alias else
               f"a copy through {'Python lists changes the dtype and is slow' if last == 'tolist' else 'numpy is slower and raises for requires_grad and bfloat16'}")
        if replacement is None:
            a = short(ctx.atom_text(base), 24)
            ctx.report(self.code, node, f"round trip through .{last}(): {why}; use {a}.detach().clone()")
            return
        ctx.report(self.code, node,
                   f"use {short(replacement)} instead of a round trip through .{last}(): {why}",
                   replace_fix(ctx, node, replacement, safe, f"Replace with `{short(replacement)}`"))


RULE = RoundTrip()
