"""Review 14: the second ``if`` of ``if len(v) > 0: ...`` / ``if len(v) < 1 or ...:``
(``analysis/narrowing.py``, ``false_entry``) starts its false branch from the end of the first's
body, assuming the two ``len(v)`` reads agree.  They need not:

* a disjunct before the ``len`` test runs first and may change ``v`` (``grow(v) or len(v) < 1``):
  the first body never ran, ``x`` is still the list, yet ``torch.tensor(x)`` got the SAFE fix
  ``x.detach().clone()`` (AttributeError).  Only the first disjunct is read now.
* a ``__len__`` may answer otherwise the second time: a tensor only the first body binds is
  proven by two ``len()`` reads, so its fix is unsafe (``LEN_TWICE``); the report stays.
* TRC112: ``torch.tensor(v)[None].to(d)`` -> ``torch.tensor(v, device=d)[None]`` was SAFE for a
  ``d`` that may be the meta device (a name, ``x.device``, ``"meta"``), where torch.tensor checks
  no data: a ragged ``v`` raises ValueError on the host and gives a (2, 2) meta tensor; so do
  ints beyond int64, and ``torch.full((3,), 1e40)`` (no overflow check on meta).
Each shown with torch: the default (safe) fix of the old code changes what the function does.
"""
import textwrap
import warnings

import pytest
import torch

from flake8_torchcopy import fix_source, lint_source

GROW = """
import torch


def f(v, grow):
    x = [1.0, 2.0]
    if len(v) > 0:
        x = torch.ones(2)
    if grow(v) or len(v) < 1:
        pass
    else:
        return torch.tensor(x)
    return None
"""

COUNTING = """
import torch


class Counting:
    def __init__(self):
        self.n = 0

    def __len__(self):
        self.n += 1
        return self.n - 1


def f(v, grow=None):
    x = [1.0, 2.0]
    if len(v) > 0:
        x = torch.ones(2)
    if len(v) < 1:
        pass
    else:
        return torch.tensor(x)
    return None
"""

OLD_FIX = "return x.detach().clone()"


def _run(src, *args):
    ns: dict = {}
    exec(compile(textwrap.dedent(src), "<review14>", "exec"), ns)
    fresh = {"counting": lambda: ns["Counting"](), "empty": list}
    args = tuple(fresh[a]() if isinstance(a, str) else a for a in args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ns["f"](*args)


@pytest.mark.parametrize("src, args", [
    (GROW, ("empty", lambda v: v.append(1))),
    (COUNTING, ("counting",)),
])
def test_the_old_safe_fix_changes_behaviour_with_torch(src, args):
    out = _run(src, *args)
    assert isinstance(out, torch.Tensor) and out.tolist() == [1.0, 2.0]  # the body never ran: x is the list
    fixed = src.replace("return torch.tensor(x)", OLD_FIX)
    with pytest.raises(AttributeError):
        _run(fixed, *args)


@pytest.mark.parametrize("src", [GROW, COUNTING])
def test_no_safe_fix_where_the_len_reads_may_disagree(src):
    found = [f for f in lint_source(src) if f.code == "TRC101"]
    assert len(found) == 1  # a tensor on some paths (GROW), or with sane __len__ (COUNTING)
    assert found[0].fix is None or not found[0].fix.safe
    assert fix_source(src) == src


def test_a_len_test_after_another_disjunct_keeps_the_join():
    found = [f for f in lint_source(GROW) if f.code == "TRC101"]
    assert "on some paths" in found[0].message


def test_the_len_test_first_still_proves_the_first_body():
    # the mmhuman3d reduction stays quiet (tests/test_corpora_eighteenth_round.py); with the
    # tensor from the first body the report stays, unsafe, and says why
    found = [f for f in lint_source(COUNTING) if f.code == "TRC101"]
    assert "on some paths" not in found[0].message


# TRC112: on the meta device a factory skips the work that checks its data (torch.tensor unpacks
# nothing, full and scalar_tensor fill nothing), so building there is not building on the host and
# moving: the fix is safe only where the target is certainly not meta, or the data is tame
META = """
import torch


def to_name(v, d):
    return torch.tensor(v).to(device=d)


def to_device_of(v, x):
    return torch.tensor(v)[None].to(x.device)


def to_literal(v):
    return torch.tensor(v).T.to("meta")


def full_to(v, d):
    return torch.full((3,), v).to(device=d)


def tame(d):
    return torch.tensor([[1, 2], [-3, 4.5]]).to(device=d)


def to_cuda(v):
    return torch.tensor(v).to("cuda")
"""


def _call(src, name, *args):
    ns: dict = {}
    exec(compile(src, "<review14>", "exec"), ns)
    try:
        out = ns[name](*args)
    except (ValueError, RuntimeError) as e:
        return type(e).__name__
    return tuple(out.shape), out.dtype, out.device.type


@pytest.mark.parametrize("name, args, folded", [
    ("to_name", ([[1, 2], [3]], "meta"), "torch.tensor(v, device=d)"),
    ("to_name", ([1, 2**70], "meta"), "torch.tensor(v, device=d)"),
    ("to_device_of", ([[1, 2], [3]], torch.zeros(1, device="meta")), "torch.tensor(v, device=x.device)[None]"),
    ("to_literal", ([[1, 2], [3]],), 'torch.tensor(v, device="meta").T'),
    ("full_to", (1e40, "meta"), "torch.full((3,), v, device=d)"),
])
def test_building_on_meta_skips_the_data_checks_with_torch(name, args, folded):
    line = next(ln for ln in META.splitlines() if ln.startswith(f"def {name}("))
    body = META.split(line)[1].split("\n\n")[0]
    original = f"import torch\n{line}{body}\n"
    fixed = f"import torch\n{line}\n    return {folded}\n"
    assert _call(original, name, *args) in ("ValueError", "RuntimeError")
    assert _call(fixed, name, *args)[2] == "meta"


def test_meta_may_be_the_target_so_no_safe_fix():
    by_line = {f.line: f for f in lint_source(META) if f.code == "TRC112"}
    lines = {ln.split("(")[0][4:]: i + 1 for i, ln in enumerate(META.splitlines()) if ln.startswith("def ")}
    for name in ("to_name", "to_device_of", "to_literal", "full_to"):
        f = by_line[lines[name] + 1]
        assert f.fix is None or not f.fix.safe, name
    assert by_line[lines["tame"] + 1].fix.safe  # numbers in a rectangle: nothing to check
    assert by_line[lines["to_cuda"] + 1].fix.safe  # never meta
    assert _call(META, "tame", "meta") == _call(
        "import torch\ndef tame(d):\n    return torch.tensor([[1, 2], [-3, 4.5]], device=d)\n", "tame", "meta")


ARRAY = """
import numpy as np
import torch


def arr(d):
    a = np.zeros((2, 3), dtype=np.float16)
    return torch.tensor(a).to(device=d)
"""


def test_a_numpy_array_is_converted_whole_before_meta_is_looked_at():
    # torch.tensor converts an ndarray before it looks at the device: meta checks what the host does
    (f,) = [f for f in lint_source(ARRAY) if f.code == "TRC112"]
    assert f.fix.safe
    fixed = ARRAY.replace("torch.tensor(a).to(device=d)", "torch.tensor(a, device=d)")
    assert _call(fixed, "arr", "meta") == _call(ARRAY, "arr", "meta") == ((2, 3), torch.float16, "meta")
    import numpy as np
    for bad in (np.array([1, 2], dtype=">i4"), np.arange(4)[::-1], np.array(["x"], dtype=object)):
        for device in (None, "meta"):
            with pytest.raises((ValueError, TypeError)):
                torch.tensor(bad, device=device)


# TRC112 through a view op: the fix builds on the device and views there, so its result is a view
# (of a tensor nothing else holds) where the move gave a fresh tensor; detach_() raises on a view,
# and so does an in-place change with grad of a view made under no_grad
HIDDEN = """
import torch


def hidden(d):
    h = torch.zeros(2, 3).unsqueeze(0).to(device=d)
    h.detach_()
    return h


def under_no_grad(d, w):
    with torch.no_grad():
        h = torch.zeros(2, 3).T.to(device=d)
    h.add_(w)
    return h


def operand(d, x):
    return x - torch.zeros(2, 3)[None].to(device=d)
"""
OLD_HIDDEN = HIDDEN.replace("torch.zeros(2, 3).unsqueeze(0).to(device=d)", "torch.zeros(2, 3, device=d).unsqueeze(0)") \
    .replace("torch.zeros(2, 3).T.to(device=d)", "torch.zeros(2, 3, device=d).T")


@pytest.mark.parametrize("device", ["meta"])  # a move that copies (on the host .to("cpu") is itself)
def test_the_view_the_old_fix_returns_raises_where_the_moved_tensor_does_not_with_torch(device):
    ns: dict = {}
    exec(compile(HIDDEN, "<review14>", "exec"), ns)
    old: dict = {}
    exec(compile(OLD_HIDDEN, "<review14>", "exec"), old)
    w = torch.ones(3, 2, device=device, requires_grad=True)
    assert ns["hidden"](device).shape == (1, 2, 3)
    assert ns["under_no_grad"](device, w).requires_grad
    with pytest.raises(RuntimeError, match="view"):
        old["hidden"](device)
    with pytest.raises(RuntimeError, match="view"):
        old["under_no_grad"](device, w)


def test_a_view_held_after_the_fix_is_unsafe_an_operand_is_not():
    found = {f.line: f for f in lint_source(HIDDEN) if f.code == "TRC112"}
    assert not found[6].fix.safe and not found[13].fix.safe
    assert found[19].fix.safe  # at once an operand: nothing holds the view


CHOSEN = """
import torch


def chosen(data, cuda):
    device = torch.device("cuda" if cuda else "cpu")
    return torch.tensor(data).to(device)


def chosen_meta(data, cuda):
    device = torch.device("cuda" if cuda else "meta")
    return torch.tensor(data).to(device)
"""


def test_a_device_chosen_between_literals_none_meta_keeps_the_safe_fix():
    """``device = torch.device("cuda" if cuda else "cpu")`` (its one binding) is never meta: the
    data is checked on the host either way (funasr ``dsqn/train.py``); one branch "meta" is not."""
    by_line = {f.line: f for f in lint_source(CHOSEN) if f.code == "TRC112"}
    assert by_line[7].fix.safe and not by_line[12].fix.safe
    ragged = [[1, 2], [3]]
    assert _call(CHOSEN, "chosen", ragged, False) == "ValueError"
    fixed = fix_source(CHOSEN)
    assert "torch.tensor(data, device=device)" in fixed.split("def chosen_meta")[0]
    assert _call(fixed, "chosen", ragged, False) == "ValueError"
    assert _call(CHOSEN.replace("torch.tensor(data).to(device)", "torch.tensor(data, device=device)"),
                 "chosen_meta", ragged, False)[2] == "meta"  # where meta may be chosen it would not raise
