"""TRC112 with keywords on the move: ``.to(device=d, dtype=t)``, ``.to(d, dtype=t)``,
``non_blocking=``, ``.cuda(device=i)``, ``.to(device)`` of a name bound once to a device;
``.to(t)`` of a proven tensor folded into
``device=t.device, dtype=t.dtype``; ``requires_grad_()`` after the move; factories with
``generator=``.  Each fix is checked against torch (a ``meta`` tensor standing for one on an
accelerator; CUDA-only behaviour in tests marked ``cuda``, skipped without a GPU)."""
import textwrap

import pytest
import torch

from flake8_torchcopy import fix_source, lint_source
from flake8_torchcopy.rules import _trc112_moves as moves

HEAD = "import torch\n"


def trc112_findings(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC112"]


# (body, fixed body, the fix is safe)
FIXED = [
    ("def f(x):\n    return torch.zeros(2, 3).to(device=x.device, dtype=torch.float16)\n",
     "def f(x):\n    return torch.zeros(2, 3, device=x.device, dtype=torch.float16)\n", True),
    ("m = torch.eye(3).to(dtype=torch.bool, device='cuda')\n",
     "m = torch.eye(3, device='cuda', dtype=torch.bool)\n", True),
    ("def f(d):\n    return torch.ones(4).to(d, dtype=torch.int64, non_blocking=True)\n",
     "def f(d):\n    return torch.ones(4, device=d, dtype=torch.int64)\n", True),
    ("def f(d):\n    return torch.ones(4).to(device=d, dtype=None)\n",
     "def f(d):\n    return torch.ones(4, device=d, dtype=None)\n", True),
    # a dtype by name: the host's .to() rejects dtypes the factory builds (torch.uint1)
    ("def f(d, dt):\n    return torch.zeros(2).to(device=d, dtype=dt)\n",
     "def f(d, dt):\n    return torch.zeros(2, device=d, dtype=dt)\n", False),
    # a size that may be a __torch_function__ object
    ("def f(n, d):\n    return torch.zeros(n).to(device=d, dtype=torch.float64)\n",
     "def f(n, d):\n    return torch.zeros(n, device=d, dtype=torch.float64)\n", False),
    # non_blocking= dropped; .cuda(device=i) as .cuda(i)
    ("r = torch.ones(8).cuda(non_blocking=True)\n", "r = torch.ones(8, device=\"cuda\")\n", True),
    ("r = torch.zeros(8).cuda(device=1, non_blocking=False)\n", "r = torch.zeros(8, device=\"cuda:1\")\n", True),
    ("def f(flag):\n    return torch.tensor([1, 2]).to('cuda', non_blocking=flag)\n",
     "def f(flag):\n    return torch.tensor([1, 2], device='cuda')\n", True),
    # .to(t) of a proven tensor: its device and its dtype
    ("def f():\n    y = torch.randn(3, device='cuda').half()\n    return torch.ones(3).to(y)\n",
     "def f():\n    y = torch.randn(3, device='cuda').half()\n"
     "    return torch.ones(3, device=y.device, dtype=y.dtype)\n",
     True),
    # a name bound once to a proven tensor's device, or to torch.device(...), or a string
    ("def f():\n    x = torch.randn(3, device='cuda')\n    device = x.device\n"
     "    return torch.ones(3).view(1, 3).to(device)\n",
     "def f():\n    x = torch.randn(3, device='cuda')\n    device = x.device\n"
     "    return torch.ones(3, device=device).view(1, 3)\n", False),  # a view returned: detach_() raises
    ("def f(r):\n    dev = torch.device(f'cuda:{r}')\n    return torch.tensor([1, 2]).to(dev)\n",
     "def f(r):\n    dev = torch.device(f'cuda:{r}')\n    return torch.tensor([1, 2], device=dev)\n", True),
    ("def f():\n    dev = 'cuda:1'\n    return torch.eye(2).to(dev)\n",
     "def f():\n    dev = 'cuda:1'\n    return torch.eye(2, device=dev)\n", True),
    # requires_grad_() after the move: still a leaf that requires grad
    ("w = torch.zeros(3).to(device='cuda').requires_grad_()\n",
     "w = torch.zeros(3, device='cuda').requires_grad_()\n", True),
]

REPORTED_NO_FIX = [
    # a dtype conversion after a factory whose values depend on the dtype computed in
    "def f(d):\n    return torch.tensor([0.1]).to(device=d, dtype=torch.float64)\n",
    "def f(d, n):\n    return torch.linspace(0, 1, n).to(d, dtype=torch.float64)\n",
    # computed in int64 on purpose, then converted (transformers' rope)
    "def f(d, dim):\n    return torch.arange(0, dim, 2, dtype=torch.int64).to(device=d, dtype=torch.float)\n",
    # a view in between: dtype= on the factory is not a cast after it
    "def f(x):\n    return torch.zeros(2).view(1, 2).to(device=x.device, dtype=x.dtype)\n",
    # random: other numbers on the device
    "def f(x):\n    return torch.randn(2).to(device=x.device, dtype=x.dtype)\n",
    # .to(t) of a tensor the fix would read twice, or of a factory with dtype=
    "def f():\n    y = [torch.randn(3, device='cuda')]\n    return torch.ones(3).to(y[0])\n",
    # a name not bound once in its function to a device: a parameter, bound twice, bound
    # in a nested function only, bound to what may be a subclass's .device
    "def f(x):\n    device = x.device\n    return torch.zeros(3).to(device)\n",
    "def f(r):\n    x = torch.randn(3, device='cuda')\n    device = x.device\n    device = r\n"
    "    return torch.zeros(2).to(device)\n",
    "def f(device):\n    x = torch.randn(3, device='cuda')\n    def g():\n        device = x.device\n"
    "    return torch.zeros(2).to(device)\n",
    "def f(c):\n    a = b = torch.device('cuda')\n    return torch.zeros(2).to(a)\n",
    # .to(name, non_blocking=...): a device, a dtype or a tensor
    "def f(d):\n    return torch.zeros(3).to(d, non_blocking=True)\n",
]

QUIET = [
    # a conversion on the host: .to("cpu", dtype=t), .to(None, dtype=t)
    "m = torch.zeros(3).to(device='cpu', dtype=torch.float64)\n",
    "m = torch.zeros(3).to(None, dtype=torch.float64)\n",
    "m = torch.zeros(3).to('cpu', non_blocking=True)\n",
    # a name bound once to the host: .to() of a host tensor is the tensor itself
    "def f():\n    device = torch.device('cpu')\n    return torch.zeros(3).to(device)\n",
    "def f():\n    device = 'cpu'\n    return torch.tensor([1.0]).to(device)\n",
    # options the fix cannot carry, or an expression it would drop
    "m = torch.zeros(3).cuda(memory_format=torch.contiguous_format)\n",
    "def f(d):\n    return torch.zeros(3).to(d, copy=True)\n",
    "def f(g):\n    return torch.zeros(3).cuda(non_blocking=g())\n",
    "def f(d, dt):\n    return torch.zeros(3).to(d, dt, non_blocking=True, copy=True)\n",
    # a generator draws on its own device: on the host on purpose (gradcheck)
    "def f(x, g):\n    return torch.rand(x.numel(), generator=g).to(dtype=x.dtype, device=x.device)\n",
    "def f(d, g):\n    return torch.randn(3, generator=g).to(d)\n",
    # requires_grad=: TRC111's (the moved tensor is not a leaf)
    "def f(d):\n    return torch.zeros(3, requires_grad=True).to(device=d, dtype=torch.float64)\n",
]


@pytest.mark.parametrize("body,fixed,safe", FIXED)
def test_fixed(body, fixed, safe):
    (finding,) = trc112_findings(body)
    assert finding.fix is not None and finding.fix.safe is safe, finding.message
    assert fix_source(HEAD + body, unsafe=True) == HEAD + fixed
    if not safe:
        assert fix_source(HEAD + body) == HEAD + body


@pytest.mark.parametrize("body", REPORTED_NO_FIX)
def test_reported_without_fix(body):
    (finding,) = trc112_findings(body)
    assert finding.fix is None
    assert "builds the tensor on the host" in finding.message


def test_no_fix_after_a_dtype_dependent_factory_advises_device_only():
    (finding,) = trc112_findings(REPORTED_NO_FIX[0])
    assert "pass device= to torch.tensor (the conversion stays)" in finding.message


@pytest.mark.parametrize("body", QUIET)
def test_quiet(body):
    assert trc112_findings(body) == []


# --- the torch facts the rule rests on ---------------------------------------------

def test_with_dtype_keyword_the_first_argument_is_a_device():
    x = torch.zeros(3)
    assert x.to(torch.device("cpu")) is x and x.to("cpu") is x  # a name bound to the host: quiet
    for first in (torch.randn(2), torch.float64):
        with pytest.raises(TypeError):
            x.to(first, dtype=torch.float16)
    assert x.to(None, dtype=torch.float64).device.type == "cpu"  # a conversion on the host
    y = x.to("meta", dtype=torch.float16, non_blocking=True)
    assert (y.device.type, y.dtype) == ("meta", torch.float16)


MAKERS = {"zeros": torch.zeros, "ones": torch.ones, "eye": torch.eye}


@pytest.mark.verify
@pytest.mark.parametrize("name", sorted(MAKERS))
@pytest.mark.parametrize("dtype", sorted(moves.DTYPES))
def test_both_folded_is_exact_for_the_written_dtypes(name, dtype):
    make, dt = MAKERS[name], eval(dtype)  # noqa: S307 - the rule's own list of torch.<dtype> names
    for device in ("cpu", "meta"):
        moved, built = make(3).to(device=device, dtype=dt), make(3, device=device, dtype=dt)
        assert (moved.shape, moved.stride(), moved.dtype, moved.device, moved.requires_grad) == \
            (built.shape, built.stride(), built.dtype, built.device, built.requires_grad)
        if device == "cpu":
            assert torch.equal(moved, built)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float64, torch.int32, torch.bool, torch.complex64])
def test_to_a_tensor_is_its_device_and_dtype(dtype):
    for t in (torch.ones(2, dtype=dtype), torch.empty(2, dtype=dtype, device="meta")):
        for make in MAKERS.values():
            moved, built = make(3).to(t), make(3, device=t.device, dtype=t.dtype)
            assert (moved.dtype, moved.device, moved.stride()) == (built.dtype, built.device, built.stride())
            if t.device.type == "cpu":
                assert torch.equal(moved, built)


def test_why_a_dtype_by_name_makes_the_fix_unsafe():
    # .to() on the host rejects a dtype the factory builds, and eye rejects one .to() takes
    with pytest.raises(Exception):  # noqa: B017 - the kind of error is torch's business
        torch.zeros(3).to(dtype=torch.uint1)
    assert torch.zeros(3, dtype=torch.uint1).dtype == torch.uint1
    assert torch.eye(3).to(dtype=torch.uint16).dtype == torch.uint16
    with pytest.raises(NotImplementedError):
        torch.eye(3, dtype=torch.uint16)


def test_requires_grad_after_the_move_or_the_build_is_the_same_leaf():
    moved = torch.zeros(3).to("meta").requires_grad_()
    built = torch.zeros(3, device="meta").requires_grad_()
    assert moved.is_leaf and built.is_leaf and moved.requires_grad and built.requires_grad
    # requires_grad= on the factory, then a move: not a leaf (TRC111's, not TRC112's)
    assert not torch.zeros(3, requires_grad=True).to("meta").is_leaf


@pytest.mark.cuda
def test_non_blocking_of_a_fresh_host_tensor_on_cuda():
    moved = torch.ones(1000).cuda(non_blocking=True)
    built = torch.ones(1000, device="cuda")
    assert not torch.ones(1000).is_pinned()  # pageable: the host waits for the copy
    assert (moved.device, moved.dtype, moved.stride(), moved.requires_grad) == \
        (built.device, built.dtype, built.stride(), built.requires_grad)
    assert torch.equal(moved, built)
    z = torch.zeros(4, 5).to("cuda", dtype=torch.float16, non_blocking=True)
    assert torch.equal(z, torch.zeros(4, 5, device="cuda", dtype=torch.float16))


@pytest.mark.cuda
def test_a_host_generator_cannot_draw_on_cuda():
    with pytest.raises(RuntimeError):
        torch.rand(3, generator=torch.Generator(), device="cuda")
