"""TRC112 with two positional arguments on the move: ``.to(d, torch.float16)``,
``.to(x.device, x.dtype)`` (``Tensor.to(device, dtype, non_blocking=False, copy=False)``),
and the fold of a tensor's dtype (``.to(t)``).  Each fold is checked against torch over the
factories and dtypes (CPU and ``meta``; CUDA in tests marked ``cuda``, skipped without a GPU):
``dtype=`` on the factory is the move's conversion only for ``zeros``, ``ones``, ``eye``."""
import textwrap
import warnings

import pytest
import torch

from flake8_torchcopy import fix_source, lint_source
from flake8_torchcopy.rules import _trc112_moves as moves
from flake8_torchcopy.rules import trc112_factory_then_transfer as trc112

HEAD = "import torch\n"


def trc112_findings(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC112"]


# (body, fixed body, the fix is safe)
FIXED = [
    # a dtype written out second: to(device, dtype)
    ("def f(d):\n    return torch.zeros(2, 3).to(d, torch.float16)\n",
     "def f(d):\n    return torch.zeros(2, 3, device=d, dtype=torch.float16)\n", True),
    ("def f(device):\n    return torch.ones(3).to(device, torch.float64)\n",
     "def f(device):\n    return torch.ones(3, device=device, dtype=torch.float64)\n", True),
    ("m = torch.eye(3).to('cuda', torch.bool, non_blocking=True)\n",
     "m = torch.eye(3, device='cuda', dtype=torch.bool)\n", True),
    # a plain tensor's device and dtype: ones in any dtype (as .to(y)); zeros, eye not
    ("def f():\n    y = torch.randn(3, device='cuda')\n    return torch.ones(4).to(y.device, y.dtype)\n",
     "def f():\n    y = torch.randn(3, device='cuda')\n    return torch.ones(4, device=y.device, dtype=y.dtype)\n",
     True),
    ("def f():\n    y = torch.randn(3, device='cuda')\n    return torch.eye(4).to(y.device, y.dtype)\n",
     "def f():\n    y = torch.randn(3, device='cuda')\n    return torch.eye(4, device=y.device, dtype=y.dtype)\n",
     False),
    ("def f(y):\n    return torch.ones(4).to(y.device, y.dtype)\n",
     "def f(y):\n    return torch.ones(4, device=y.device, dtype=y.dtype)\n", False),
    # a module's .device/.dtype (diffusers' vae): a device and a dtype, or what it says
    ("def f(self):\n    return torch.zeros(2).to(self.vae.device, self.vae.dtype)\n",
     "def f(self):\n    return torch.zeros(2, device=self.vae.device, dtype=self.vae.dtype)\n", False),
    # the device read before the factory runs
    ("def f(pick):\n    return torch.zeros(2).to(pick(), torch.float64)\n",
     "def f(pick):\n    return torch.zeros(2, device=pick(), dtype=torch.float64)\n", False),
]

REPORTED_NO_FIX = [
    # values computed in float32, then converted: dtype= would compute others
    "def f(latents, m):\n    return torch.tensor(m).view(1, 4, 1, 1).to(latents.device, latents.dtype)\n",
    "def f(d):\n    return torch.full((3,), 0.1).to(d, torch.float64)\n",
    "def f(d):\n    return torch.arange(0, 1, 0.1).to(d, torch.float64)\n",
    "def f(d, n):\n    return torch.linspace(0, 1, n).to(d, torch.float64)\n",
    "def f(x):\n    return torch.rand(3).to(x.device, x.dtype)\n",
    # computed in int64 on purpose, then converted
    "def f(d):\n    return torch.arange(4, dtype=torch.int64).to(d, torch.float32)\n",
    # a view between: dtype= on the factory is not a cast after it
    "def f(x):\n    return torch.zeros(2).view(1, 2).to(x.device, x.dtype)\n",
    # the second argument is not a dtype the rule can tell from a flag
    "def f(d, t):\n    return torch.zeros(3).to(d, t)\n",
]

QUIET = [
    # a conversion on the host
    "m = torch.zeros(3).to(None, torch.float64)\n",
    "def f(x):\n    return torch.zeros(3).to('cpu', x.dtype)\n",
    # to(dtype, non_blocking), to(other, non_blocking)
    "def f(flag):\n    return torch.zeros(3).to(torch.float64, flag)\n",
    "def f(flag):\n    y = torch.randn(2, device='cuda')\n    return torch.zeros(3).to(y, flag)\n",
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


def test_a_device_and_a_dtype_after_torch_tensor_advise_device_only():
    (finding,) = trc112_findings(REPORTED_NO_FIX[0])
    assert "moves and converts it: pass device= to torch.tensor (the conversion stays)" in finding.message


@pytest.mark.parametrize("body", QUIET)
def test_quiet(body):
    assert trc112_findings(body) == []


def test_a_tensors_dtype_folds_safely_only_into_ones():
    for name, safe in (("ones", True), ("zeros", False), ("eye", False)):
        for move in ("y", "y.device, y.dtype", "device=y.device, dtype=y.dtype"):
            body = f"def f():\n    y = torch.randn(3, device='cuda')\n    return torch.{name}(3).to({move})\n"
            (finding,) = trc112_findings(body)
            assert finding.fix is not None and finding.fix.safe is safe, (name, move)


# --- the torch facts the rule rests on ---------------------------------------------

ALL_DTYPES = sorted({v for v in vars(torch).values() if isinstance(v, torch.dtype)}, key=str)
WRITTEN = sorted(moves.DTYPES)


def _outcome(make):
    """The result of ``make()``, or the kind of error it raised."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return make()
        except Exception as e:  # noqa: BLE001 - which error is torch's business
            return type(e)


def _same(a, b) -> bool:
    if isinstance(a, type) or isinstance(b, type):
        return isinstance(a, type) and isinstance(b, type)  # both raise
    if (a.shape, a.stride(), a.dtype, a.device) != (b.shape, b.stride(), b.dtype, b.device):
        return False
    if a.device.type == "meta":
        return True
    if a.dtype == torch.complex32:
        a, b = a.to(torch.complex64), b.to(torch.complex64)
    return bool(torch.equal(a, b))


@pytest.mark.verify
@pytest.mark.parametrize("dtype", WRITTEN)
def test_two_positional_arguments_are_device_and_dtype(dtype):
    dt = eval(dtype)  # noqa: S307 - the rule's own list of torch.<dtype> names
    for x in (torch.zeros(3), torch.arange(4), torch.full((2,), 0.1)):
        for device in ("cpu", "meta", None):
            assert _same(x.to(device, dt), x.to(device=device, dtype=dt))


def test_a_dtype_second_is_never_a_flag():
    x = torch.zeros(3)
    for first in (torch.float64, torch.randn(2)):
        with pytest.raises(TypeError):
            x.to(first, torch.float16)  # to(dtype, non_blocking) takes a bool
    assert x.to(None, torch.float64).device.type == "cpu"  # a conversion on the host: quiet


@pytest.mark.verify
@pytest.mark.parametrize("name", sorted(trc112._DTYPE_EXACT))
@pytest.mark.parametrize("dtype", WRITTEN)
def test_positional_fold_is_exact_for_the_written_dtypes(name, dtype):
    make, dt = getattr(torch, name), eval(dtype)  # noqa: S307
    for device in ("cpu", "meta"):
        assert _same(make(3).to(device, dt), make(3, device=device, dtype=dt))


# a factory call and its arguments, for each factory the rule knows (random ones seeded)
CALLS = {
    "zeros": ((3, 2), {}), "ones": ((3, 2), {}), "eye": ((3,), {}), "full": (((3,), 0.1), {}),
    "tensor": (([0.1, 2.5, -1.7],), {}), "arange": ((0, 1, 0.1), {}), "linspace": ((0, 1, 7), {}),
    "logspace": ((0, 1, 7), {}), "rand": ((5,), {}), "randn": ((5,), {}),
}


def _exact_for_every_written_dtype(name) -> bool:
    args, kw = CALLS[name]
    make = getattr(torch, name)
    for dtype in WRITTEN:
        dt = eval(dtype)  # noqa: S307
        torch.manual_seed(0)
        moved = _outcome(lambda: make(*args, **kw).to("cpu", dt))  # noqa: B023
        torch.manual_seed(0)
        built = _outcome(lambda: make(*args, **kw, dtype=dt))  # noqa: B023
        if not _same(moved, built):
            return False
    return True


@pytest.mark.verify
@pytest.mark.parametrize("name", sorted(CALLS))
def test_the_rule_folds_a_dtype_only_where_torch_gives_the_same_tensor(name):
    exact = _exact_for_every_written_dtype(name)
    assert exact is (name in trc112._DTYPE_EXACT), name
    args = ", ".join(map(repr, CALLS[name][0]))
    (finding,) = trc112_findings(f"def f(d):\n    return torch.{name}({args}).to(d, torch.float64)\n")
    assert (finding.fix is not None) is exact


@pytest.mark.verify
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_a_tensors_dtype_folded_into_a_factory(dtype):
    # .to(t) / .to(t.device, t.dtype) of a tensor t of any dtype: ones gives the same tensor
    # (or both raise); zeros and eye differ for some (hence unsafe)
    t = _outcome(lambda: torch.empty(2, dtype=dtype))
    assert isinstance(t, torch.Tensor)  # a tensor can have every dtype
    for device in ("cpu", "meta"):
        for make in (torch.ones,):
            assert _same(_outcome(lambda: make(3).to(device, dtype)),  # noqa: B023
                         _outcome(lambda: make(3, device=device, dtype=dtype)))  # noqa: B023
    assert _same(_outcome(lambda: torch.ones(3).to(t)),
                 _outcome(lambda: torch.ones(3, device=t.device, dtype=t.dtype)))


def test_why_a_tensors_dtype_is_unsafe_for_zeros_and_eye():
    bits, u16 = torch.empty(2, dtype=torch.bits8), torch.empty(2, dtype=torch.uint16)
    with pytest.raises(NotImplementedError):
        torch.zeros(3).to(bits)
    assert torch.zeros(3, device=bits.device, dtype=bits.dtype).dtype == torch.bits8
    assert torch.eye(3).to(u16).dtype == torch.uint16
    with pytest.raises(NotImplementedError):
        torch.eye(3, device=u16.device, dtype=u16.dtype)


@pytest.mark.cuda
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_a_tensors_dtype_folded_into_ones_on_cuda(dtype):
    assert _same(_outcome(lambda: torch.ones(3).to("cuda", dtype)),
                 _outcome(lambda: torch.ones(3, device="cuda", dtype=dtype)))
