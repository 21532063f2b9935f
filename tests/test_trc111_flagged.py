"""TRC111 through ``requires_grad_()`` before the move (mmrotate core/bbox/utils/gmm.py:
``torch.eye(n).reshape(...).repeat(...).requires_grad_().cuda()``, ``torch.empty(...).fill_(v)
.requires_grad_().cuda()``, ``mu_init.clone().requires_grad_().cuda()``): the moved tensor
is not a leaf.  Checked with torch, ``.to("meta")`` and ``.to(torch.float64)`` standing in
for the move."""
import textwrap

import pytest

from flake8_torchcopy import fix_source, lint_source

torch = pytest.importorskip("torch")

HEAD = "import torch\n"


def trc111(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC111"]


# (body, the fix expected: "unsafe" or "none")
REPORTED = [
    ("def f(n, k):\n    return torch.eye(n).reshape((1, n, n)).repeat(k, 1, 1).requires_grad_().cuda()\n", "unsafe"),
    ("def f(k):\n    return torch.empty((k, 1)).fill_(1. / k).requires_grad_().cuda()\n", "unsafe"),
    ("def f(mu_init, d):\n    assert torch.is_tensor(mu_init)\n    return mu_init.clone().requires_grad_(True).to(d)\n",
     "unsafe"),
    ("def f(d):\n    w = torch.zeros(3)\n    return w.requires_grad_().to(device=d)\n", "none"),
]

QUIET = [
    # not proven a tensor: nn.Module.requires_grad_() returns the module, .cuda() moves it in place
    "def f(model):\n    return model.requires_grad_().cuda()\n",
    "def f(x):\n    return x.clone().requires_grad_().cuda()\n",
    # requires_grad_(False), or a flag not known
    "def f():\n    return torch.zeros(3).requires_grad_(False).cuda()\n",
    "def f(flag):\n    return torch.zeros(3).requires_grad_(flag).cuda()\n",
    # a cast (the dtype may already be that one), or moved first
    "def f():\n    return torch.zeros(3).requires_grad_().double()\n",
    "def f():\n    return torch.zeros(3).cuda().requires_grad_()\n",
    # a Parameter makes a leaf of what it wraps
    "def f():\n    return torch.nn.Parameter(torch.zeros(3).requires_grad_().cuda())\n",
]


@pytest.mark.parametrize("body,fix", REPORTED)
def test_reported(body, fix):
    (finding,) = trc111(body)
    assert "is not a leaf when it moves" in finding.message
    assert (finding.fix is None) if fix == "none" else (finding.fix is not None and not finding.fix.safe)


@pytest.mark.parametrize("body", QUIET)
def test_quiet(body):
    assert trc111(body) == []


def test_the_fix_moves_then_flags():
    src = HEAD + "def f(k):\n    return torch.empty((k, 1)).fill_(1. / k).requires_grad_().cuda()\n"
    assert fix_source(src, True).endswith("return torch.empty((k, 1)).fill_(1. / k).cuda().requires_grad_()\n")
    assert fix_source(src) == src


# --- what torch does ----------------------------------------------------------------

FLAGGED = [
    lambda: torch.eye(2).reshape((1, 2, 2)).repeat(3, 1, 1),
    lambda: torch.empty((3, 1)).fill_(0.5),
    lambda: torch.randn(3).clone(),
    lambda: torch.randn(3, requires_grad=True).clone(),  # a clone with a graph: requires_grad_() keeps it
]


@pytest.mark.parametrize("move", [lambda t: t.to("meta"), lambda t: t.to(torch.float64)])
@pytest.mark.parametrize("build", FLAGGED)
def test_flagged_then_moved_is_not_a_leaf(build, move):
    moved = move(build().requires_grad_())
    assert moved.requires_grad and not moved.is_leaf


@pytest.mark.parametrize("build", FLAGGED)
def test_its_grad_stays_none_and_the_fix_gives_a_leaf_where_the_tensor_had_no_graph(build):
    moved = build().requires_grad_().to(torch.float64)
    moved.sum().backward()
    with pytest.warns(UserWarning, match="not a leaf"):
        assert moved.grad is None
    t = build()
    fixed = t.to(torch.float64).requires_grad_()  # never raises: a copy with a graph requires grad already
    fixed.sum().backward()
    assert fixed.is_leaf == (t.grad_fn is None)
    if fixed.is_leaf:
        assert fixed.grad is not None


def test_a_module_flags_itself_and_moves_in_place():
    """Why a receiver not proven a tensor is quiet: ``Module.requires_grad_()`` returns the
    module, whose ``.to()`` moves its parameters in place and returns it."""
    m = torch.nn.Linear(2, 2)
    assert m.requires_grad_().to(torch.float64) is m and m.weight.is_leaf
