"""The shared analysis on its own: names, tensor-ness through data flow, and view legality."""
import textwrap

import pytest

from flake8_torchcopy import Options, lint_source
from flake8_torchcopy.analysis import layout as L
from flake8_torchcopy.analysis import viewlegality as VL
from flake8_torchcopy.analysis.symbolic import Mono, Sym


def codes(src, **opts):
    return [f.code for f in lint_source(textwrap.dedent(src), options=Options(**opts))]


@pytest.mark.parametrize("src,expected", [
    # imports and aliases
    ("import torch as th\nx = th.ones(2)\ny = th.tensor(x)\n", ["TRC101"]),
    ("from torch import tensor as T, zeros\nx = zeros(2)\ny = T(x)\n", ["TRC101"]),
    ("import torch.nn.functional as F\nimport torch\nx = F.relu(torch.ones(2))\ny = torch.tensor(x)\n", ["TRC101"]),
    ("import torch\ntry:\n    import numpy as np\nexcept ImportError:\n    np = None\n"
     "x = torch.ones(2)\ny = torch.tensor(x)\n", ["TRC101"]),
    # a name shadowing torch's is not torch's
    ("import torch\nfrom torch import tensor\ndef tensor(v):\n    return v\nx = torch.ones(2)\ny = tensor(x)\n", []),
    ("from .utils import tensor\nimport torch\nx = torch.ones(2)\ny = tensor(x)\n", []),
    # no torch import: nothing that needs torch names
    ("def tensor(v):\n    return v\nx = tensor([1])\n", []),
])
def test_names(src, expected):
    assert codes(src) == expected


@pytest.mark.parametrize("src,expected", [
    # all reaching assignments must be tensors for the report with a fix; a tensor on some
    # paths only gets the some-path report, without a fix (test_tensor_on_some_paths_has_no_fix)
    ("""
     import torch
     def f(c, data):
         x = torch.ones(2) if c else data
         return torch.tensor(x)
     """, ["TRC101"]),
    ("""
     import torch
     def f(c):
         if c:
             x = torch.ones(2)
         else:
             x = torch.zeros(2)
         return torch.tensor(x)
     """, ["TRC101"]),
    ("""
     import torch
     def f(c, data):
         x = torch.ones(2)
         for d in data:
             torch.tensor(x)
             x = d
     """, ["TRC101"]),
    # narrowing in both branches and after early exits
    ("""
     import torch
     def f(x):
         if torch.is_tensor(x):
             return torch.tensor(x)
         return torch.tensor(x)
     """, ["TRC101"]),
    ("""
     import torch
     def f(x):
         if not isinstance(x, torch.Tensor):
             raise TypeError(x)
         return torch.tensor(x)
     """, ["TRC101"]),
    ("""
     import torch
     import numpy as np
     def f(x):
         if isinstance(x, (torch.Tensor, np.ndarray)):
             return torch.tensor(x)
     """, []),
    ("""
     import torch
     def f(x):
         assert isinstance(x, torch.Tensor)
         return torch.tensor(x)
     """, ["TRC101"]),
    ("""
     import torch
     def f(xs):
         return [torch.tensor(x) for x in xs if torch.is_tensor(x)]
     """, ["TRC101"]),
    # a tensor-only method called earlier is evidence; a later one is not
    ("""
     import torch
     def f(x):
         n = x.dim()
         return torch.tensor(x)
     """, ["TRC101"]),
    ("""
     import torch
     def f(x):
         y = torch.tensor(x)
         return x.detach()
     """, []),
    # reassignment forgets
    ("""
     import torch
     def f(x, data):
         x = x.detach()
         x = data
         return torch.tensor(x)
     """, []),
    # evidence only from calls that certainly ran (torch/_utils.py, _rebuild_qtensor)
    ("""
     import torch
     def f(zero_points):
         n = len(zero_points) if isinstance(zero_points, list) else zero_points.numel()
         return torch.tensor(zero_points, dtype=torch.long)
     """, []),
    ("""
     import torch
     def f(scales):
         if scales.dim() and type(scales) is list:
             return torch.tensor(scales)
     """, []),
    # methods nn.Module also has are no evidence (distributed_test.py: deepcopy(Net().cuda()))
    ("""
     import copy
     import torch
     def f(net):
         model = net.cuda()
         model.requires_grad_(False)
         return copy.deepcopy(model), copy.deepcopy(net)
     """, []),
    # .to(<integer dtype>) is a tensor even on an unknown receiver (torch/_inductor/mkldnn_lowerings.py)
    ("""
     import torch
     def f(constants, name):
         w_zp = constants[name].to(torch.int32)
         m = constants[name].to(torch.float16)
         return torch.tensor(w_zp, dtype=torch.int32), torch.tensor(m)
     """, ["TRC101"]),
    # not tensors
    ("""
     import torch
     def f(x):
         x = x.detach()
         return torch.tensor(x.shape), torch.tensor(x.tolist()[0]), torch.tensor(x.size(0) * 2)
     """, []),
])
def test_tensor_flow(src, expected):
    assert codes(src) == expected


def test_tensor_on_some_paths_has_no_fix():
    src = "import torch\ndef f(c, data):\n    x = torch.ones(2) if c else data\n    return torch.tensor(x)\n"
    (finding,) = lint_source(src)
    assert finding.fix is None and "a tensor on some paths" in finding.message


def test_annotations_count_only_when_trusted():
    src = "import torch\ndef f(x: torch.Tensor):\n    return torch.tensor(x)\n"
    assert codes(src) == []
    findings = lint_source(src, options=Options(trust_annotations=True))
    assert [f.code for f in findings] == ["TRC101"]
    assert findings[0].fix is not None and not findings[0].fix.safe


def test_trusted_annotation_reaches_transfer_then_detach():
    src = "import torch\ndef f(x: torch.Tensor):\n    return x.cpu().detach()\n"
    assert codes(src) == []
    (finding,) = lint_source(src, options=Options(trust_annotations=True))
    assert finding.code == "TRC110" and finding.fix is not None and not finding.fix.safe
    batch = "import torch\ndef f(x):\n    return x.cpu().detach()\n"  # no annotation: no claim
    assert lint_source(batch, options=Options(trust_annotations=True)) == []


def test_default_device_and_jit_make_fixes_unsafe():
    base = "import torch\nx = torch.ones(2)\ny = torch.tensor(x)\n"
    assert lint_source(base)[0].fix.safe
    for prefix in ("torch.set_default_device('cuda')\n", "with torch.device('cuda'):\n    pass\n"):
        src = base.replace("import torch\n", "import torch\n" + prefix)
        assert not lint_source(src)[0].fix.safe
    jit = "import torch\n@torch.jit.script\ndef f(x):\n    y = torch.ones(2) + x\n    return torch.tensor(y)\n"
    assert not lint_source(jit)[0].fix.safe


def _sym(*names):
    return [Mono.sym(Sym(n)) for n in names]


def test_view_legality_algebra():
    b, n, h, c, k = _sym("b", "n", "h", "c", "k")
    sizes = (b, h, n, c / h)
    s2, st2 = L.swap(sizes, L.contiguous_strides(sizes), 1, 2)
    assert VL.view_verdict(s2, st2, [b, n, h, c / h]) == (VL.LEGAL, [])  # same shape
    verdict, rescues = VL.view_verdict(s2, st2, [b, n, c])
    assert verdict == VL.ILLEGAL and {tuple(s.name for s in r) for r in rescues} == {("n",), ("h",)}
    assert VL.view_verdict(s2, st2, [b, n, None])[0] == VL.ILLEGAL
    # a split of one dim after a transpose is legal
    sizes = (b, h * c, n)
    s3, st3 = L.swap(sizes, L.contiguous_strides(sizes), 1, 2)
    assert VL.view_verdict(s3, st3, [b, n, h, c])[0] == VL.LEGAL
    # sizes that can't be matched symbolically: unknown, never reported
    assert VL.view_verdict(s3, st3, [b, k, None])[0] in (VL.UNKNOWN, VL.ILLEGAL)
    assert VL.view_verdict(s3, st3, [b * k, c])[0] == VL.UNKNOWN


@pytest.mark.verify
def test_view_legality_agrees_with_torch():
    torch = pytest.importorskip("torch")
    import itertools
    import random
    rnd = random.Random(0)
    checked = 0
    for _ in range(300):
        rank = rnd.randint(2, 4)
        shape = [rnd.choice([1, 2, 3]) for _ in range(rank)]
        perm = list(range(rank))
        rnd.shuffle(perm)
        t = torch.empty(shape).permute(perm)
        sizes = tuple(Mono.const(s) for s in shape)
        ps, pst = L.permute(sizes, L.contiguous_strides(sizes), perm)
        targets = [[-1], list(t.shape[:1]) + [-1], [-1] + list(t.shape[-1:])]
        for target in itertools.islice(targets, 3):
            mono_target = [None if v == -1 else Mono.const(v) for v in target]
            verdict, _ = VL.view_verdict(ps, pst, mono_target)
            try:
                t.view(target)
                ok = True
            except RuntimeError:
                ok = False
            if verdict != VL.UNKNOWN:
                assert (verdict == VL.LEGAL) == ok, (shape, perm, target)
                checked += 1
            if verdict == VL.LEGAL:
                # the strides the analysis carries on are torch's (size-1 dims aside)
                view = t.view(target)
                full = VL.resolve_target(ps, mono_target)
                ours = VL.view_result(ps, pst, full)
                for size, mine, real in zip(view.shape, ours, view.stride()):
                    if size != 1:
                        assert mine == Mono.const(real), (shape, perm, target)
    assert checked > 500


def test_messages_keep_parentheses():
    """gemma3n: (q_scale * r).clone().detach() must not read as q_scale * r.detach().clone()."""
    src = "import torch\na = torch.ones(2)\nb = (a * 2).clone().detach()\n"
    (finding,) = lint_source(src)
    assert finding.message.startswith("use (a * 2).detach().clone() instead of (a * 2).clone().detach()")


def test_names_a_call_may_rebind_are_unknown_after_it():
    """A nested function's `nonlocal`, any function's `global`: the name may hold anything."""
    nonlocal_src = ("import torch\ndef g():\n    t = torch.ones(2)\n    def k():\n        nonlocal t\n"
                    "        t = [1]\n    k()\n    return torch.tensor(t)\n")
    global_src = ("import torch\ny = torch.ones(2)\ndef h():\n    global y\n    y = [1]\n"
                  "h()\nz = torch.tensor(y)\n")
    assert lint_source(nonlocal_src) == [] and lint_source(global_src) == []


def test_an_except_handler_starts_from_any_state_of_the_try_body():
    src = ("import torch\ndef f(risky):\n    x = torch.ones(3)\n    try:\n        x = [1]\n"
           "        risky()\n        x = torch.ones(3)\n    except ValueError:\n        return torch.tensor(x)\n")
    [f] = lint_source(src)
    assert f.fix is None and "some paths" in f.message  # x may be [1] there


def test_a_join_keeps_permuted_on_some_path():
    from flake8_torchcopy.analysis.values import TENSOR, Value, join

    permuted = Value(TENSOR, permuted_by=".transpose(1, 2)")
    assert join(permuted, Value(TENSOR)).permuted_by == ".transpose(1, 2)"
    assert join(Value(TENSOR), permuted).permuted_by == ".transpose(1, 2)"


@pytest.mark.parametrize("body,reported", [
    ("        q = torch.ones(2) * y\n", False),  # nothing is bound if the value raises
    ("        q: torch.Tensor = torch.ones(2) * y\n", False),
    ("        q, w = torch.ones(2) * y, 1\n", False),  # unpacked all or nothing
    ("        q = torch.ones(2) * y\n        y.go()\n", True),  # raised after the binding
    ("        q, y.z = torch.ones(2), 1\n", True),  # storing y.z may raise after q is bound
    ("        r = (q := torch.ones(2)) * y\n", True),  # bound inside the value, before it raises
    ("        q, (w, v) = torch.ones(2), y\n", True),  # q is stored before y is unpacked (may raise)
])
def test_a_handler_starts_before_a_name_binding_not_after(body, reported):
    """pytorch_forecasting's to_quantiles: `q = dist.icdf(...)` ends the try body; where the
    handler runs, nothing in the body finished, so `q` is still the list of floats."""
    src = ("import torch\ndef f(y):\n    q = [0.1, 0.5]\n    try:\n" + body +
           "    except NotImplementedError:\n        q = torch.tensor(q)\n    return q\n")
    codes = [x.code for x in lint_source(src)]
    assert codes == (["TRC101"] if reported else []), src
