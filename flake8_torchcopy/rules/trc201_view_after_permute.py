"""TRC201: ``.view(shape)`` that merges dims a permute/transpose/expand separated: it raises."""
from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from ..finding import SAFE, UNSAFE, Edit, Fix
from .base import Example, ModuleWord, Rule, WordPattern

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context


# a subscript that can leave a tensor's rows apart: a slice or an index of a later dim (a colon
# or an ellipsis, and a comma: ``x[:, :k]``, ``x[:, 0]``, ``x[..., 0]``) or a step (``x[::2]``);
# a part of the first dim alone (``x[:k]``, ``lines[1:]``) leaves a contiguous tensor contiguous
_CUT = WordPattern(r"\[[^\]\n]*(?::[^\]\n]*,|,[^\]\n]*:|::|\.\.\.\s*,)", needs="[")


class ViewAfterPermute(Rule):
    code = "TRC201"
    name = "view-after-permute"
    summary = "`.view()` after `.permute()`/`.transpose()` that raises: use `.reshape()`"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = "`.view()` after a permute/transpose/expand or a slice of a later dim that provably raises"
    table_fix = "`.reshape()`"
    table_safety = "safe"
    rationale = (
        "`view` works only when every target dim is a split of one source dim or a merge of "
        "dims adjacent in memory. After `.permute()`, `.transpose()`, `.t()`, `.mT`, "
        "`.movedim()` or `.expand()`, merging the dims they separated raises `RuntimeError: "
        "view size is not compatible with input tensor's size and stride` — often only for "
        "some shapes (it works when the dims in between have size 1, e.g. a batch or sequence "
        "length of 1 in a test). A part cut from a dim (`x[:, :k]`) is not adjacent in memory to "
        "the dim before it either: merging the two raises unless that dim is 1, the part is 1 "
        "or empty, or the slice keeps the whole dim. The analysis follows sizes symbolically (names unpacked from "
        "`x.shape`, `x.size(i)`, `self.` attributes, literals, `-1`, `t // k`, `int(t / k)`) and "
        "reports only views it proves to merge separated dims, naming the sizes that would "
        "have to be 1. Views it "
        "proves legal (same shape, splits, moves of size-1 dims) or cannot decide stay quiet."
    )
    fix_safety = (
        "Safe: `reshape` returns exactly the same view wherever `view` succeeds (checked on "
        "3,000 random strided tensors), and copies where `view` would raise. Code that relied "
        "on the exception, or writes into the result expecting the source to change, is the "
        "only case where behaviour differs — and there `view` raised anyway. A layout that "
        "rests on what a method of an instance of a project class returns gives an unsafe "
        "fix: a store not seen may replace the method, and another module may change. "
        "Inside a `try` "
        "body whose handler may catch a RuntimeError (`except RuntimeError`, `except Exception`, "
        "a bare `except`, a class not known to be another), or a `with` whose manager may "
        "swallow it (`contextlib.suppress`), the program relies on the error: the fix is unsafe "
        "there, and in a function the module may call inside such a `try` (by name, at any "
        "depth), or whose body may run elsewhere: a generator or coroutine (consumed or "
        "awaited inside a `try`, `gather(..., return_exceptions=True)`), a function with a "
        "decorator that may wrap it in a `try`, or one the module passes as a value "
        "(`map(merge, xs)`, `pool.submit(merge)`, a table of functions, a string for `getattr`); "
        "in a module with such a `try`, also in `forward` and dunder methods (`m(x)`, `a[i]` "
        "run them). A `finally` that "
        "returns, breaks or continues swallows the error too. A caller in another module "
        "catching it is not seen."
    )
    triggers = (("view(", "permute"), ("view(", "transpose"), ("view(", "swap"),
                ("view(", "movedim"), ("view(", "moveaxis"), ("view(", ".t("), ("view(", ".T"),
                ("view(", ".mT"), ("view(", ".mH"), ("view(", ".H"), ("view(", "expand"),
                ("view(", "batch_first"), ("view(", "chunk("), ("view(", "split("), ("view(", "unbind("),
                ("view(", "einsum("), ("view(", _CUT))
    # in a function, the one-letter attributes as whole words (``.T``, not ``.Tensor``); an
    # RNN built with batch_first (in __init__) anywhere in the module, called elsewhere, and
    # an einsum anywhere in it (its output returned by a helper, handed to another function)
    function_triggers = tuple(
        (view, WordPattern(re.escape(w) + r"(?!\w)", needs=w) if w in (".T", ".mT", ".mH", ".H")
         else ModuleWord(w) if w in ("batch_first", "einsum(")
         else w)
        for view, w in triggers)

    VALID = (
        "import torch\nx = torch.randn(2, 3, 4)\ny = x.transpose(1, 2).contiguous().view(2, 12)\n",
        "import torch\nx = torch.randn(2, 3, 4)\ny = x.transpose(1, 2).reshape(2, 12)\n",
        "import torch\ndef f(x):\n    b, hw, c = x.shape\n    h = w = 8\n"
        "    return x.transpose(1, 2).view(b, c, h, w)\n",
        "import torch\ndef f(q):\n    b, n, h, d = q.shape\n    return q.transpose(1, 2).view(b, h, n, d)\n",
        "import torch\nx = torch.randn(4, 4)\ny = x.t().view(torch.int32)\n",
        "import torch\ndef f(x, shape):\n    return x.permute(0, 2, 1).view(shape)\n",
        "import torch\nx = torch.randn(4, 1, 3)\ny = x.transpose(0, 1).view(4, 3)\n",
        "import torch\ndef f(x):\n    b, c, t = x.shape\n    x = x.transpose(1, 2)\n    return x.view(b, t, c)\n",
        "import torch\ndef f(x):\n    b, c, t = x.shape\n    y = x.transpose(1, 2)\n"
        "    return y.view(b, t // 2, 2, c)\n",
        "import torch\ndef f(x, height, width):\n    b, n, c = x.shape\n"
        "    return x.transpose(1, 2).view(b, c, height, width)\n",
        "import torch\ndef f(logits, target):\n    _, pred = logits.topk(5, 1, True, True)\n"
        "    correct = pred.eq(target.view(-1, 1).expand_as(pred))\n"
        "    return correct[:, :1].view(-1)\n",
    )
    INVALID = (
        Example(
            code="import torch\ndef heads(n):\n    q, k = torch.randn(n, 2, 12).chunk(2, dim=2)\n"
            "    return q.view(n, -1)\n",
            fixed="import torch\ndef heads(n):\n    q, k = torch.randn(n, 2, 12).chunk(2, dim=2)\n"
            "    return q.reshape(n, -1)\n",
            note="a piece of `chunk`/`split` along a dim that is not the first keeps the whole "
            "tensor's strides: its rows are not contiguous, and merging them raises",
        ),
        Example(
            code="import torch\ndef accuracy(output, target, maxk):\n"
            "    _, pred = output.topk(maxk, 1, True, True)\n    pred = pred.t()\n"
            "    correct = pred.eq(target.view(1, -1).expand_as(pred))\n"
            "    return [correct[:k].view(-1).float().sum() for k in range(1, maxk + 1)]\n",
            fixed="import torch\ndef accuracy(output, target, maxk):\n"
            "    _, pred = output.topk(maxk, 1, True, True)\n    pred = pred.t()\n"
            "    correct = pred.eq(target.view(1, -1).expand_as(pred))\n"
            "    return [correct[:k].reshape(-1).float().sum() for k in range(1, maxk + 1)]\n",
            note="the top-k accuracy helper of PyTorch's ImageNet example, copied into thousands "
            "of projects (and torch's own test utilities): `eq` lays its output out like the "
            "transposed `pred`, so the rows `correct[:k]` are not contiguous and the view raises "
            "for k > 1 and a batch above 1",
        ),
        Example(
            code="import torch\ndef local_masks(masks, l_t):\n    b, t, c, h, w = masks.shape\n"
            "    local = masks[:, :l_t]\n    return local.view(-1, c, h, w)\n",
            fixed="import torch\ndef local_masks(masks, l_t):\n    b, t, c, h, w = masks.shape\n"
            "    local = masks[:, :l_t]\n    return local.reshape(-1, c, h, w)\n",
            note="from pytorchcv's ProPainter: the first `l_t` frames of each clip are not "
            "contiguous when there are more, so merging the batch with them raises unless the "
            "batch is 1, `l_t` is 1 (or 0), or the slice keeps every frame",
        ),
        Example(
            code="import torch\ndef flat(x):\n    b, n, c = x.shape\n    y = x.transpose(1, 2)\n"
            "    try:\n        return y.view(b, -1)\n    except RuntimeError:\n        return None\n",
            fixed="import torch\ndef flat(x):\n    b, n, c = x.shape\n    y = x.transpose(1, 2)\n"
            "    try:\n        return y.reshape(b, -1)\n    except RuntimeError:\n        return None\n",
            unsafe=True,
            note="the except arm relies on the error the view raises: unsafe fix",
        ),
        Example(
            code="import torch\ndef f(self, x):\n    b, n, c = x.shape\n"
            "    q = k = v = x.view(b, n, self.heads, c // self.heads).transpose(1, 2)\n"
            "    attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)\n"
            "    return (attn @ v).transpose(1, 2).view(b, n, c)\n",
            fixed="import torch\ndef f(self, x):\n    b, n, c = x.shape\n"
            "    q = k = v = x.view(b, n, self.heads, c // self.heads).transpose(1, 2)\n"
            "    attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)\n"
            "    return (attn @ v).transpose(1, 2).reshape(b, n, c)\n",
        ),
        Example(
            code="import torch\ndef f(x, k):\n    b, c, t = x.shape\n    x = x.transpose(1, 2)\n"
            "    return x.view(b, x.size(1) // k, -1)\n",
            fixed="import torch\ndef f(x, k):\n    b, c, t = x.shape\n    x = x.transpose(1, 2)\n"
            "    return x.reshape(b, x.size(1) // k, -1)\n",
        ),
        Example(
            code="import torch\ndef f(x, k):\n"
            "    return x.transpose(1, 2).view(x.size(0), x.size(2) // k, -1)\n",
            fixed="import torch\ndef f(x, k):\n"
            "    return x.transpose(1, 2).reshape(x.size(0), x.size(2) // k, -1)\n",
            verify=("x.transpose(1, 2).view(x.size(0), x.size(2) // k, -1)",
                    "x.transpose(1, 2).reshape(x.size(0), x.size(2) // k, -1)"),
            inputs={"x": "tensor:rank=3", "k": "int:1..4"},
            note="x's rank is not known; transpose(1, 2) says it has three dims or more. "
            "Works for k == 1, so tests with the default pass",
        ),
        Example(
            code="import torch.nn.functional as F\ndef unfold_tensor(tensor, max_seq_len):\n"
            "    _, _, D = tensor.shape\n    tensor = tensor.transpose(-1, -2)\n"
            "    tensor = F.unfold(tensor[..., None, :], kernel_size=(1, max_seq_len), stride=(1, max_seq_len))\n"
            "    new_bsz, _, slen = tensor.shape\n    tensor = tensor.view(new_bsz, -1, max_seq_len, slen)\n"
            "    tensor = tensor.permute(0, 3, 2, 1)\n    return tensor.view(-1, max_seq_len, D)\n",
            fixed="import torch.nn.functional as F\ndef unfold_tensor(tensor, max_seq_len):\n"
            "    _, _, D = tensor.shape\n    tensor = tensor.transpose(-1, -2)\n"
            "    tensor = F.unfold(tensor[..., None, :], kernel_size=(1, max_seq_len), stride=(1, max_seq_len))\n"
            "    new_bsz, _, slen = tensor.shape\n    tensor = tensor.view(new_bsz, -1, max_seq_len, slen)\n"
            "    tensor = tensor.permute(0, 3, 2, 1)\n    return tensor.reshape(-1, max_seq_len, D)\n",
            note="from transformers' phi4_multimodal: raises for a batch above 1 when the sequence is "
            "longer than max_seq_len",
        ),
        Example(
            code="import torch\ndef f(x):\n    return x.permute(0, 2, 1).view(-1)\n",
            fixed="import torch\ndef f(x):\n    return x.permute(0, 2, 1).reshape(-1)\n",
            verify=("x.permute(0, 2, 1).view(-1)", "x.permute(0, 2, 1).reshape(-1)"),
            inputs={"x": "tensor:rank=3"},
        ),
        Example(
            code="import torch\ndef f(x):\n    return x.t().view(-1)\n",
            fixed="import torch\ndef f(x):\n    return x.t().reshape(-1)\n",
            verify=("x.t().view(-1)", "x.t().reshape(-1)"),
            inputs={"x": "tensor:rank=2"},
        ),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "view") or not node.args:
            return
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            return
        if len(node.args) == 1 and self.is_dtype(node.args[0], ctx):
            return
        judged = ctx.view_judgement(node)
        if not judged.raises:
            return
        unless = " or ".join(dict.fromkeys(" and ".join(names) for names in judged.unless))
        origin = f" after {judged.origin}" if judged.origin else ""
        merges = "dims the permutation separated" if judged.origin else "dims not adjacent in memory"
        message = (f"use .reshape() instead of .view(){origin}: this view merges {merges} "
                   f"and raises RuntimeError"
                   + (f" unless {unless}" if unless else ""))
        start, end = ctx.name_span(func)
        # under a handler that may catch the RuntimeError, the program relies on it; a
        # layout that rests on an instance method's return (a store not seen, another module) is unsafe
        safe = not ctx.error_may_be_handled and not judged.elsewhere
        ctx.report(self.code, node, message,
                   Fix((Edit(start, end, "reshape"),), SAFE if safe else UNSAFE,
                       "Replace `.view` with `.reshape`"))

    @staticmethod
    def is_dtype(arg: ast.AST, ctx) -> bool:
        named = ctx.is_torch_dtype(arg)
        if named is not None:
            return named
        if isinstance(arg, ast.Attribute) and arg.attr == "dtype":
            return True
        if isinstance(arg, ast.Name) and "dtype" in arg.id:
            return True
        return isinstance(arg, ast.Constant) and isinstance(arg.value, str)


RULE = ViewAfterPermute()
