"""TRC112 of ``torch.scalar_tensor(n).to(d)``: a factory like ``full`` (a 0-d tensor filled
with the number converted on the host), checked with torch: its device= gives the same
tensor, its dtype= another number (it computes in float32 first)."""
import textwrap

import pytest
import torch

from flake8_torchcopy import fix_source, lint_source

HEAD = "import torch\n"


def trc112(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC112"]


@pytest.mark.parametrize("body,fixed,safe", [
    ("x = torch.scalar_tensor(3).to('cuda')\n", "x = torch.scalar_tensor(3, device='cuda')\n", True),
    ("def f(n):\n    return torch.scalar_tensor(n).cuda()\n",
     "def f(n):\n    return torch.scalar_tensor(n, device=\"cuda\")\n", False),  # n may be an object of its own
])
def test_moved_scalar_tensor_is_built_there(body, fixed, safe):
    (finding,) = trc112(body)
    assert finding.fix is not None and finding.fix.safe is safe
    assert fix_source(HEAD + body, unsafe=True) == HEAD + fixed


@pytest.mark.parametrize("body", [
    "def f(n, d):\n    return torch.scalar_tensor(n).to(d)\n",  # d: a device, a dtype or a tensor
    "x = torch.scalar_tensor(0.1).to(torch.float64)\n",  # computed in float32 first
    "def f(n, x):\n    return torch.scalar_tensor(n).to(x.device, x.dtype)\n",
])
def test_reported_without_fix(body):
    (finding,) = trc112(body)
    assert finding.fix is None and "torch.scalar_tensor" in finding.message


@pytest.mark.parametrize("body", [
    "x = torch.scalar_tensor(3, device='cuda').to('cuda')\n",
    "x = torch.scalar_tensor(3).to('cpu')\n",
    "x = torch.scalar_tensor(3).to(torch.float32)\n",  # its default dtype
    # .to(y) of a scalar_tensor built on the host in float32: zeros(3).to(y) is the tensor itself
    "y = torch.scalar_tensor(2.0)\nx = torch.zeros(3).to(y)\n",
])
def test_quiet(body):
    assert trc112(body) == []


@pytest.mark.verify
@pytest.mark.parametrize("s", [3, -7, True, 0.1, float("nan"), 2 ** 60 + 2 ** 36 + 1])
def test_device_fix_is_the_same_tensor(s):
    moved, built = torch.scalar_tensor(s).to("meta"), torch.scalar_tensor(s, device="meta")
    assert (moved.shape, moved.stride(), moved.dtype) == (built.shape, built.stride(), built.dtype)
    assert torch.equal(torch.scalar_tensor(s).to("cpu"), torch.scalar_tensor(s, device="cpu")) \
        or torch.isnan(torch.scalar_tensor(s))


@pytest.mark.verify
def test_dtype_is_another_number():
    assert torch.scalar_tensor(0.1).dtype == torch.float32
    assert torch.scalar_tensor(0.1).to(torch.float64).item() != torch.scalar_tensor(0.1, dtype=torch.float64).item()


@pytest.mark.verify
def test_overflow_raises_alike():
    # the number is converted before the fill, wherever: out of float32's range raises both ways
    for make in (lambda: torch.scalar_tensor(1e39).to("cpu"), lambda: torch.scalar_tensor(1e39, device="cpu")):
        with pytest.raises(RuntimeError, match="without overflow"):
            make()


@pytest.mark.verify
def test_to_a_host_scalar_tensor_is_the_tensor_itself():
    x = torch.zeros(3)
    assert x.to(torch.scalar_tensor(2.0)) is x
