"""TRC108: ``torch.tensor([a, b])`` of tensors; use ``torch.stack([a, b])``."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, List, Optional, Tuple

from ._common import LEGACY_CONSTRUCTOR_NAMES, code, hole, replace_fix, short
from .base import CallWord, Example, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context

_FUNCTIONS = frozenset({"torch.tensor", "torch.as_tensor"})
# what Context.tensor_kind and Context.list_item_kinds say of an item
TENSOR, ANNOTATED, SOME = "tensor", "annotated", "some"

class TensorOfTensors(Rule):
    code = "TRC108"
    name = "tensor-of-tensors"
    summary = "`torch.tensor([a, b])` (or `torch.as_tensor`, `torch.Tensor`...) of tensors: use `torch.stack([a, b])`"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = ("`torch.tensor(lst)` (also `as_tensor`, `Tensor`...) of a list of tensors: a literal "
                   "(nested too), a comprehension, a local list filled by appends, a `self.` list its class fills")
    table_fix = "`torch.stack(lst).detach()`"
    table_safety = "unsafe"
    rationale = (
        "`torch.tensor([a, b, ...])` with tensor elements converts each element through "
        "Python scalars: it is slow, works only for 0-d and 1-element tensors, raises for "
        "larger ones, and cuts the autograd graph. `torch.stack` does it in one kernel. The list "
        "may be written in the call (nested lists too), be a list comprehension whose item is a "
        "tensor (`[v * 2 for v in t]`: iterating a tensor yields tensors), or be a local list "
        "filled by `lst.append(tensor)` statements and never passed anywhere else, or a list held in "
        "an attribute (`self.log_weights`) that its class sets only to list displays and fills only "
        "by appends of tensors, which the module hands to nothing that could store into it (code "
        "elsewhere still may: every fix resting on it is unsafe). A local list of rows appended as "
        "displays (`boxes.append([xmin, ymin, xmax, ymax])`, never handed out or iterated) is a nested "
        "list: reported, no fix. "
        "`torch.as_tensor` and the legacy constructors of the host (`torch.Tensor`, "
        "`torch.FloatTensor`...) convert the same way. A list that mixes a tensor with numbers or "
        "items not known is reported too, without a fix, and so is one with an item that is a "
        "tensor on some paths."
    )
    fix_safety = (
        "Unsafe: for 0-d elements `torch.stack([a, b]).detach()` is exact, but 1-element 1-d "
        "elements give shape (2, 1) instead of (2,) (mixed with 0-d ones, torch.stack raises), and "
        "devices may differ. The "
        "`.detach()` keeps torch.tensor's cut of the graph; drop it if gradients should flow. A "
        "comprehension or a list filled by appends may be empty: `torch.tensor([])` is an empty "
        "float32 tensor, `torch.stack([])` raises. No fix with keywords (`dtype=`, `device=`), for "
        "nested lists, or for the legacy constructors, whose dtype is their own (float32 for "
        "`torch.Tensor` and `FloatTensor`; `LongTensor` raises for float tensors)."
    )
    triggers = (("tensor",), ("Tensor",))  # also catches `from torch import tensor as T`
    function_triggers = ((CallWord("tensor(", {"tensor", "as_tensor"}, data_only=True),),
                         (CallWord("Tensor(", LEGACY_CONSTRUCTOR_NAMES, data_only=True),))

    VALID = (
        "import torch\ny = torch.tensor([1.0, 2.0])\n",
        "import torch\nx = torch.randn(3)\ny = torch.tensor([x.sum().item(), 2.0])\n",
        "import torch\ndef f(a, b):\n    return torch.tensor([a, b])\n",
        "import torch\ndef f(t):\n    out = []\n    for v in t:\n        out.append(v.item())\n"
        "    return torch.tensor(out)\n",
        "import torch\ndef f(xs):\n    out = [torch.ones(())]\n    out.extend(xs)\n    return torch.tensor(out)\n",
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
        Example(
            code="import torch\nx = torch.randn(4, 3)\nout = []\nfor row in x:\n    out.append(row.sum())\n"
                 "y = torch.tensor(out)\n",
            fixed="import torch\nx = torch.randn(4, 3)\nout = []\nfor row in x:\n    out.append(row.sum())\n"
                  "y = torch.stack(out).detach()\n",
            unsafe=True,
            note="a local list filled only by appends of tensors (the rows of a tensor are tensors); "
                 "it may be empty, where torch.stack raises",
        ),
        Example(
            code="import torch\nclass Meter:\n    def __init__(self):\n        self.losses = []\n\n"
                 "    def update(self, loss):\n        self.losses.append(loss.detach().sum())\n\n"
                 "    def total(self):\n        return torch.tensor(self.losses)\n",
            fixed="import torch\nclass Meter:\n    def __init__(self):\n        self.losses = []\n\n"
                  "    def update(self, loss):\n        self.losses.append(loss.detach().sum())\n\n"
                  "    def total(self):\n        return torch.stack(self.losses).detach()\n",
            unsafe=True,
            note="a list attribute its class fills only with tensors (code in other modules may still "
                 "append to it); it may be empty, where torch.stack raises",
        ),
        Example(
            code="import torch\nx = torch.randn(3)\ny = torch.tensor([v * 2 for v in x])\n",
            fixed="import torch\nx = torch.randn(3)\ny = torch.stack([v * 2 for v in x]).detach()\n",
            unsafe=True,
            verify=("torch.tensor([v * 2 for v in x])", "torch.stack([v * 2 for v in x]).detach()"),
            inputs={"x": "tensor:rank=1"},
            note="the items of a 1-d tensor are 0-d tensors; an empty x gives an empty tensor in one "
                 "and raises in the other",
        ),
        Example(
            code="import torch\nx = torch.randn(3)\ny = torch.tensor([[x.sum(), x.mean()]])\n",
            note="nested lists: reported, no fix (build each row with torch.stack)",
        ),
        Example(
            code="import torch\nx = torch.randn(3)\ny = torch.FloatTensor([x.sum(), x.mean()])\n",
            note="a legacy constructor converts the same way, to its own dtype: reported, no fix",
        ),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        q = ctx.qualname(node.func)
        if q is None or not _constructor(ctx, node) or len(node.args) != 1:
            return
        arg = node.args[0]
        if isinstance(arg, (ast.List, ast.Tuple)):
            leaves = _display_leaves(ctx, arg)
        elif isinstance(arg, (ast.ListComp, ast.Name, ast.Attribute)):  # self.xs: filled by its class
            kinds = ctx.list_item_kinds(arg) or []
            if not any(kinds) or isinstance(arg, ast.Name) and not ctx.local_list(
                    arg, lambda c: _constructor(ctx, c), item_reads=True):
                return  # no tensor in it, or a list that may be filled where the analysis does not look
            leaves = [(None, k) for k in kinds]
        else:
            return
        if not leaves:
            return
        legacy = q not in _FUNCTIONS
        shown = f"{q}({ctx.text(arg)})" if not isinstance(arg, (ast.List, ast.Tuple)) else f"{q}([...])"
        certain = [t for t, k in leaves if k in (TENSOR, ANNOTATED)]
        if len(certain) < len(leaves):
            if certain:  # a tensor among numbers (or items not known)
                what = f"the tensor {short(', '.join(t for t in certain if t), 30)} and other items" \
                    if isinstance(arg, (ast.List, ast.Tuple)) else "tensors and other items"
                ctx.report(self.code, node,
                           f"{shown} of {what} goes through Python scalars: it raises for tensors "
                           "of more than one element and drops their graph; build it from tensors "
                           "with torch.stack or torch.cat")
                return
            some = [t or "" for t, k in leaves if k == SOME]
            if some and isinstance(arg, (ast.List, ast.Tuple)):  # a tensor on some paths: no fix
                ctx.report(self.code, node,
                           f"{short(', '.join(some), 30)} {'is a tensor' if len(some) == 1 else 'are tensors'} "
                           f"on some paths to {q}([...]): there it goes through Python scalars, "
                           "raises for tensors of more than one element and drops their graph")
            elif some:
                ctx.report(self.code, node,
                           f"the items of {ctx.text(arg)} are tensors on some paths to {q}(...): there "
                           "it goes through Python scalars, raises for tensors of more than one "
                           "element and drops their graph")
            return
        if legacy:  # float32 (the default dtype for torch.Tensor), float64...: no fix
            ctx.report(self.code, node,
                       f"{shown} of tensors goes through Python scalars: it raises for tensors of more "
                       "than one element and drops their graph; use torch.stack and convert its dtype")
            return
        if isinstance(arg, (ast.List, ast.Tuple)) and any(
                isinstance(e, (ast.List, ast.Tuple, ast.ListComp)) for e in arg.elts) \
                or isinstance(arg, ast.Name) and ctx.list_of_rows(arg):  # rows.append([x0, y0])
            ctx.report(self.code, node,
                       f"{shown} of nested lists of tensors goes through Python scalars: it raises for "
                       "tensors of more than one element and drops their graph; build each row with "
                       "torch.stack")
            return
        torch = ctx.torch_name()
        if not isinstance(arg, (ast.List, ast.Tuple)):  # a comprehension or a local list
            self.report_list(node, ctx, arg, shown, torch)
            return
        fix = None
        elems = ", ".join(ctx.text(e) for e in arg.elts)
        replacement = f"torch.stack([{short(elems, 30)}])"
        if torch is not None and not node.keywords:
            items = [part for i, e in enumerate(arg.elts) for part in ((", " if i else ""), hole(ctx, e))]
            fixed = code(f"{torch}.stack([", *items, "]).detach()")
            replacement = str(fixed)
            fix = replace_fix(ctx, node, fixed, False, f"Replace with `{short(replacement)}`")
        if fix is None:  # advice only: the items' ranks are not known
            replacement += " (torch.cat for 1-element 1-d tensors)"
        ctx.report(self.code, node,
                   f"use {short(replacement)} instead of {shown} of tensors: it goes "
                   "through Python scalars and raises for tensors of more than one element", fix)

    def report_list(self, node: ast.Call, ctx: Context, arg: ast.expr, shown: str,
                    torch: Optional[str]) -> None:
        """``torch.tensor(lst)`` of a list of tensors built by a comprehension or appends:
        an unsafe ``torch.stack(lst).detach()`` where no keyword is given (the list may be
        empty, where torch.stack raises, and its items 1-element 1-d tensors)."""
        if torch is None or node.keywords:
            ctx.report(self.code, node,
                       f"{shown} of a list of tensors goes through Python scalars: it raises for "
                       "tensors of more than one element and drops their graph; use torch.stack "
                       "(torch.cat for 1-element tensors)")
            return
        fixed = code(f"{torch}.stack(", hole(ctx, arg), ").detach()")
        fix = replace_fix(ctx, node, fixed, False, f"Replace with `{short(str(fixed))}`")
        ctx.report(self.code, node,
                   f"use {short(str(fixed))} instead of {shown} of a list of tensors: it goes "
                   "through Python scalars and raises for tensors of more than one element", fix)


def _constructor(ctx, call: ast.Call) -> bool:
    """``torch.tensor``, ``torch.as_tensor`` or a legacy constructor of the host
    (``torch.Tensor``, ``torch.FloatTensor``...; not ``torch.cuda.*``)."""
    q = ctx.qualname(call.func)
    return q in _FUNCTIONS or ctx.legacy_constructor(call.func) is not None and not q.startswith("torch.cuda.")


def _display_leaves(ctx, lst) -> List[Tuple[Optional[str], Optional[str]]]:
    """(text, kind) of the items of a list display, nested displays flattened: kind
    ``"tensor"``/``"annotated"``, ``"some"`` (a tensor on some paths) or None."""
    out: List[Tuple[Optional[str], Optional[str]]] = []
    for e in lst.elts:
        if isinstance(e, ast.Starred):
            out.append((None, None))
        elif isinstance(e, (ast.List, ast.Tuple)):
            out.extend(_display_leaves(ctx, e))
        elif isinstance(e, ast.ListComp):
            out.extend((ctx.text(e), k) for k in ctx.list_item_kinds(e) or [None])
        else:
            k = ctx.tensor_kind(e)
            out.append((ctx.text(e), k if k is not None else SOME if ctx.tensor_on_a_path(e) else None))
    return out


RULE = TensorOfTensors()
