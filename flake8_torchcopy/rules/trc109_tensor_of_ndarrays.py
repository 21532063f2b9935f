"""TRC109: ``torch.tensor(list_of_ndarrays)``; use ``torch.tensor(np.array(list_of_ndarrays))``."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, List, Optional

from ._common import LEGACY_CONSTRUCTOR_NAMES, code, hole, keywords, replace_fix, short
from .base import CallWord, Example, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context

_FUNCTIONS = frozenset({"torch.tensor", "torch.as_tensor"})
# dtype= values for which torch.tensor(lst, dtype=D) == torch.tensor(np.array(lst), dtype=D) for
# every dtype of same-dtype 1-d arrays (checked with torch; integer and bool targets raise for
# float arrays in one and not the other)
_FLOAT_DTYPES = frozenset(f"torch.{n}" for n in "float float32 float64 double half float16 bfloat16".split())


def _constructor(ctx, call: ast.Call) -> bool:
    """``torch.tensor``, ``torch.as_tensor`` or a legacy constructor of the host (``torch.Tensor``)."""
    q = ctx.qualname(call.func)
    return q in _FUNCTIONS or ctx.legacy_constructor(call.func) is not None and not q.startswith("torch.cuda.")


class TensorOfNdarrays(Rule):
    code = "TRC109"
    name = "tensor-of-ndarrays"
    summary = "`torch.tensor([a, b])` of numpy arrays: use `torch.tensor(np.array([a, b]))`"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = ("`torch.tensor(lst)` (also `as_tensor`, `Tensor`…) of a list the analysis proves "
                   "holds only numpy arrays")
    table_fix = "`torch.tensor(np.array(lst))`"
    table_safety = ("safe for a literal of 1-d arrays of one known dtype and known non-zero length; "
                    "unsafe otherwise")
    rationale = (
        "`torch.tensor(lst)` of a list of `numpy.ndarray`s reads every element of every array "
        "as a Python object; PyTorch warns \"Creating a tensor from a list of numpy.ndarrays is "
        "extremely slow\". `np.array(lst)` stacks the arrays in one C loop and torch copies the "
        "result in one block: for 256 arrays of 64 float32 values it is about 50 times faster on "
        "CPU (median of 7 runs; see docs/verification.md). The same holds for "
        "`torch.as_tensor` and the legacy constructors (`torch.Tensor`, `torch.FloatTensor`...). "
        "Reported only where the analysis proves every item is an ndarray: a list literal of "
        "`np.zeros(...)`, `np.stack(...)`, `t.numpy()`, array arithmetic...; a list comprehension "
        "of such values; a local list filled by `lst.append(...)` statements that is never "
        "passed anywhere else. A list that may hold tensors, lists or numbers is not reported."
    )
    fix_safety = (
        "The fix wraps the list: `torch.tensor(np.array(lst))`, with the module's own name for "
        "numpy (no fix where numpy is not imported). Checked with torch 2.13 and numpy 2: it is "
        "exact for `torch.tensor` of a list literal of 1-d arrays of one known dtype and a known "
        "non-zero length (`np.zeros(16)`, `np.ones(4, dtype=np.float32) * 2`), with no `dtype=` "
        "or a floating one. Otherwise it is unsafe: arrays "
        "of mixed dtypes promote differently (`np.array` of int64 and float32 arrays is float64, "
        "torch makes float32; bool with int raises in torch only); 0-d arrays raise in torch "
        "only; arrays of different ranks raise TypeError in torch but ValueError in numpy; a "
        "2-d array of shape (0, 3) loses its last dim in torch only; zero-length arrays give "
        "strides (1, 1) in torch and (0, 0) through numpy; an empty list is float32 for torch "
        "and float64 for numpy (with `dtype=`, strides (1,) against (0,)); `dtype=torch.int64` "
        "raises for float arrays in torch only, and so does a list of uint64 arrays without a "
        "floating `dtype=` (numpy converts it). For `torch.as_tensor` and the legacy "
        "constructors the result shares the temporary array's memory, which `resize_()` cannot "
        "grow, and an integer legacy constructor raises for float arrays in torch only: unsafe. Unsafe too inside "
        "TorchScript, and where the module may set a default device or replace `torch.tensor`. An array "
        "held in a name must stay put: `a.resize((0,), refcheck=False)`, `a.shape = ...`, `a.dtype = ...` "
        "change what the analysis read off its binding, and so may a call it is handed to (`helper(a)`), "
        "another name bound to it, or a view's `.base`: unsafe."
    )
    triggers = (("numpy", "tensor"), ("numpy", "Tensor"))
    function_triggers = ((CallWord("tensor(", {"tensor", "as_tensor"}, data_only=True),),
                         (CallWord("Tensor(", LEGACY_CONSTRUCTOR_NAMES, data_only=True),))

    VALID = (
        "import numpy as np\nimport torch\ny = torch.tensor(np.stack([np.zeros(3), np.ones(3)]))\n",
        "import numpy as np\nimport torch\ndef f(a, b):\n    return torch.tensor([a, b])\n",
        "import numpy as np\nimport torch\nx = torch.ones(3)\ny = torch.tensor([np.zeros(3), x])\n",
        "import numpy as np\nimport torch\ndef f(xs):\n    out = []\n    for x in xs:\n"
        "        out.append(np.asarray(x))\n    g(out)\n    return torch.tensor(out)\n",
        "import numpy as np\nimport torch\ndef f(n):\n    out = [np.zeros(3)]\n    alias = out\n"
        "    alias.append(torch.ones(3))\n    return torch.tensor(out)\n",
        "import numpy as np\nimport torch\nd = np.load('a.npz')\ny = torch.tensor([d, d])\n",
        "import numpy as np\nimport torch\ny = torch.tensor([np.random.rand(), np.random.rand()])\n",
        "import numpy as np\nimport torch\na = np.array(1.5)\ny = torch.tensor([a * 2, a * 3])\n",
    )
    INVALID = (
        Example(
            code="import numpy as np\nimport torch\nx = torch.randn(256, 64)\n"
                 "y = torch.tensor([r for r in x.detach().numpy()])\n",
            fixed="import numpy as np\nimport torch\nx = torch.randn(256, 64)\n"
                  "y = torch.tensor(np.array([r for r in x.detach().numpy()]))\n",
            verify=("torch.tensor([r for r in x.detach().numpy()])",
                    "torch.tensor(np.array([r for r in x.detach().numpy()]))"),
            inputs={"x": "tensor:rank=2"},
            unsafe=True,
            note="the comprehension may be empty (torch.tensor([]) is float32, np.array([]) float64), "
                 "and the rows' dtype is the tensor's, not followed",
        ),
        Example(
            code="import numpy as np\nimport torch\ny = torch.tensor([np.zeros(4), np.ones(4)])\n",
            fixed="import numpy as np\nimport torch\ny = torch.tensor(np.array([np.zeros(4), np.ones(4)]))\n",
            verify=("torch.tensor([np.zeros(4), np.ones(4)])",
                    "torch.tensor(np.array([np.zeros(4), np.ones(4)]))"),
        ),
        Example(
            code="import numpy as np\nimport torch\n\ndef batch(samples, device):\n    feats = []\n"
                 "    for s in samples:\n        feats.append(s.detach().cpu().numpy())\n"
                 "    return torch.tensor(feats, device=device)\n",
            fixed="import numpy as np\nimport torch\n\ndef batch(samples, device):\n    feats = []\n"
                  "    for s in samples:\n        feats.append(s.detach().cpu().numpy())\n"
                  "    return torch.tensor(np.array(feats), device=device)\n",
            unsafe=True,
            note="the tensors' dtype and rank are not known (0-d arrays, or (0, 3)-shaped ones, "
                 "behave otherwise) and the list may be empty",
        ),
        Example(
            code="import numpy as np\nimport torch\nx = np.arange(6.0)\ny = torch.FloatTensor([x, x * 2])\n",
            fixed="import numpy as np\nimport torch\nx = np.arange(6.0)\ny = torch.FloatTensor(np.array([x, x * 2]))\n",
            unsafe=True,
            note="the result shares the temporary array's memory: resize_() raises",
        ),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        q = ctx.qualname(node.func)
        if q is None or not _constructor(ctx, node) or len(node.args) != 1:
            return
        arg = node.args[0]
        if isinstance(arg, ast.Name):
            arrays = ctx.arrays_in(arg)
            if arrays is None or not ctx.local_list(arg, lambda c: _constructor(ctx, c)):
                return
        elif isinstance(arg, (ast.List, ast.Tuple, ast.ListComp)):
            arrays = ctx.arrays_in(arg)
            if arrays is None:
                return
        else:
            return
        ctor = q.replace("torch.", "", 1)
        np_name = ctx.module_name("numpy")
        fix = None
        shown = f"{np_name or 'np'}.array({short(ctx.text(arg))})"
        # (a tuple argument gets no fix: LibCST's span of a parenthesized tuple is not ast's,
        # and torchcopy-fix refuses the edit)
        if np_name is not None and not isinstance(arg, ast.Tuple):
            safe = self.unsafe_reason(ctx, node, q, arrays, isinstance(arg, (ast.List, ast.Tuple))) is None
            replacement = code(f"{np_name}.array(", hole(ctx, arg), ")")
            fix = replace_fix(ctx, arg, replacement, safe, f"Wrap the list in `{np_name}.array(...)`")
        ctx.report(self.code, node,
                   f"torch.{ctor}() of a list of numpy arrays converts every element through Python "
                   f"(extremely slow): pass {shown}", fix)

    @staticmethod
    def unsafe_reason(ctx, node: ast.Call, q: str, arrays: List, literal: bool) -> Optional[str]:
        """Why ``torch.tensor(np.array(lst))`` may differ from ``torch.tensor(lst)`` here;
        None where it is exact for every list the code can build."""
        if ctx.fix_blocker is not None:
            return ctx.fix_blocker
        if q != "torch.tensor":
            return "the result shares the temporary array's memory"
        kw = keywords(node)
        if kw is None or set(kw) - {"dtype", "device", "requires_grad"}:
            return "other keywords"
        if len({a.dtype for a in arrays}) != 1 or arrays[0].dtype is None:
            return "the arrays' dtypes are not known to be one"
        if arrays[0].dtype == "uint64" and "dtype" not in kw:
            return "torch.tensor raises for a list of uint64 arrays, np.array(...) converts it"
        if any(a.ndim != 1 or not a.filled for a in arrays):
            return "the arrays are not known to be 1-d and non-empty"
        if not literal:
            return "the list may be empty"
        names = [n for n in ast.walk(node.args[0]) if isinstance(n, ast.Name) and ctx.is_array(n)]
        if not all(ctx.array_stays_put(n, lambda c: _constructor(ctx, c)) for n in names):
            return "an array may be resized or retyped in place (a.resize(...), a.dtype = ..., helper(a))"
        if "dtype" in kw and ctx.qualname(kw["dtype"].value) not in _FLOAT_DTYPES:
            return "dtype= is not known to be a floating dtype"
        return None


RULE = TensorOfNdarrays()
