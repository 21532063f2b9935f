"""TRC112's moves beyond ``.to(device)``: ``.to(t)`` of a proven tensor, ``.to(device, dtype)``,
the legacy constructors (``torch.Tensor([...]).to(x)``), and a factory moved through its name
on the next line.  Each reported case is run with torch (a ``meta`` tensor standing for one on
an accelerator) to show that the move copies; each torch claim the rule rests on is checked."""
import textwrap

import pytest
import torch

from flake8_torchcopy import lint_source

HEAD = "import torch\nimport numpy as np\n"
META = torch.empty(2, device="meta", dtype=torch.float16)


def trc112_findings(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC112"]


# (body defining f, its arguments): reported, no fix; f returns the moved tensor
REPORTED = [
    # .to(t) of a proven tensor that nothing shows built on the host
    ("def f(y):\n    return torch.zeros(3).to(y)\n", (META,)),
    ("def f(y):\n    return torch.zeros(3).to(y)\nf(torch.randn(3, device='meta'))\n", (META,)),
    ("def f(t_value):\n    device = t_value\n    n = torch.tensor([0.0]).to(device)\n"
     "    t_value = t_value.nan_to_num()\n    return n\nf(torch.randn(2))\n", (META,)),
    ("def f(y):\n    y = y.float()\n    return torch.ones(2).to(y)\nf(torch.randn(2))\n", (META,)),
    # .to(device, dtype): two positional arguments
    ("def f(device, dtype):\n    return torch.tensor([1.0, 2.0]).view(1, 2).to(device, dtype)\n",
     ("meta", torch.float64)),
    ("def f(x):\n    return torch.tensor([0.5]).view(1, 1).to(x.device, x.dtype)\n", (META,)),
    # (.to(device, torch.float64) after ones folds: test_trc112_positional.py)
    # legacy constructors: data, a list comprehension, a size
    ("def f(img):\n    return torch.Tensor([[1, 2, 1]]).to(img)\n", (META,)),
    ("def f(device, dtype):\n    return torch.Tensor([[[[0.5]]]]).to(device, dtype)\n", ("meta", None)),
    ("def f(ids, x):\n    return torch.Tensor(tuple(ids)).to(x)\n", ([1, 2], META)),
    ("def f(xs, device):\n    return torch.LongTensor(len(xs), 4).to(device)\n", ([1, 2], "meta")),
    ("def f(xs, device):\n    return torch.FloatTensor([v * 2 for v in xs]).to(device=device)\n",
     ([1.0], "meta")),
    # through the name, on the next line
    ("def f(x):\n    p = torch.tensor(np.array([1, 2]))\n    p = p.to(x.device)\n    return p\n", (META,)),
    ("def f(k):\n    d = torch.tensor([[1.0, 2.0]])\n    d = d.to(k)\n    return d\n", (META,)),
    ("def f(k, c=True):\n    if c:\n        d = torch.ones(2)\n        d = d.to(k)\n        return d\n", (META,)),
]

QUIET = [
    # .to(t) of a tensor built on the host in this scope: maybe the tensor itself
    "def h():\n    y = torch.randn(3)\n    return torch.zeros(3).to(y)\n",
    "y = torch.randn(3)\nz = torch.zeros(3).to(y)\n",
    "def h(x):\n    y = torch.randn(3, device='cpu')\n    return torch.zeros(3).to(y)\n",
    "def h(x):\n    y = x.cpu()\n    return torch.zeros(3).to(y)\nh(torch.randn(2))\n",
    "def h(x, c):\n    y = torch.ones(2) if c else x\n    return torch.zeros(2).to(y)\nh(torch.randn(2), 1)\n",
    "def h(x):\n    i = torch.rand(2, 3, device='cpu')\n    i.mul_(torch.tensor([2, 3]).unsqueeze(1).to(i))\n"
    "    return i\n",
    "class M:\n    def __init__(self):\n        self.w = torch.zeros(3)\n"
    "    def f(self):\n        return torch.ones(3).to(self.w)\n",
    # .to(a, b) where b is a flag, or a is a dtype or None: a conversion or nothing
    "def h(d):\n    return torch.zeros(3).to(d, True)\n",
    "def h(flag):\n    return torch.zeros(3).to(torch.float64, flag)\n",
    "def h(dtype):\n    return torch.zeros(3).to(None, dtype)\n",
    "def h(dtype):\n    return torch.zeros(3).to('cpu', dtype)\n",
    # legacy constructors: of a tensor (an alias, wherever it is), torch.cuda's, a dtype change
    "def h(x, d):\n    t = torch.randn(2)\n    return torch.Tensor(t).to(d)\n",
    "def h(d):\n    return torch.cuda.FloatTensor([1.0]).to(d)\n",
    "m = torch.DoubleTensor([1.0]).to(torch.float64)\n",
    # through the name: read in between, kept after, or a conversion only
    "def h(x):\n    p = torch.zeros(3)\n    q = p.to(x.device)\n    return p, q\n",
    "def h(x):\n    p = torch.zeros(3)\n    p[0] = 1\n    p = p.to(x.device)\n    return p\n",
    "def h(x):\n    p = torch.zeros(3)\n    p = p.to(p.device)\n    return p\n",
    "def h(xs):\n    p = torch.tensor(xs)\n    p = p.to(torch.int64)\n    return p\n",
    "def h(k, c):\n    p = torch.ones(2)\n    if c:\n        p = p.to(k)\n    return p\n",
]


@pytest.mark.parametrize("body,args", REPORTED)
def test_reported_without_fix_and_the_move_copies(body, args):
    (finding,) = trc112_findings(body)
    assert finding.fix is None
    assert "builds the tensor on the host" in finding.message
    scope: dict = {}
    exec(HEAD + textwrap.dedent(body), scope)  # noqa: S102
    moved = scope["f"](*args)
    assert moved.device.type == "meta"  # built on the host, then copied to where the target is


@pytest.mark.parametrize("body,args", [r for r in REPORTED if "Tensor(" in r[0]])
def test_legacy_advice_is_a_form_that_takes_the_device(body, args):
    """The advice once read `torch.Tensor(..., device=...)`, which raises for any device but
    the host's (pytorch_forecasting `_sub_nn.py:95`, `torch.Tensor().to(cat_vars.device)`)."""
    (finding,) = trc112_findings(body)
    assert "Tensor(..., device=" not in finding.message
    assert "torch.tensor(data, dtype=..., device=...)" in finding.message
    assert "torch.empty(sizes, dtype=..., device=...)" in finding.message
    assert torch.tensor([[1, 2, 1]], dtype=torch.float32, device="meta").device.type == "meta"
    assert torch.empty(2, 4, dtype=torch.int64, device="meta").shape == (2, 4)


@pytest.mark.parametrize("body", QUIET)
def test_quiet(body):
    assert trc112_findings(body) == []


def test_to_of_a_host_tensor_in_the_default_dtype_is_the_tensor_itself():
    x = torch.zeros(3)
    assert x.to(torch.randn(2)) is x
    assert x.to(torch.rand(2, device="cpu")) is x
    assert x.to(torch.arange(2)).dtype == torch.int64  # another dtype: a conversion on the host
    assert x.to(META).device.type == "meta"  # elsewhere: a copy


@pytest.mark.parametrize("a,b,dtype,same", [
    (None, None, torch.float32, True),          # to(device=None, dtype=None): nothing to do
    ("cpu", None, torch.float32, True),
    ("cpu", torch.float64, torch.float64, False),  # to(device, dtype)
    (None, torch.float64, torch.float64, False),
    (torch.float64, True, torch.float64, False),    # to(dtype, non_blocking)
    (torch.zeros(1), True, torch.float32, True),    # to(other, non_blocking)
])
def test_what_to_with_two_positional_arguments_means(a, b, dtype, same):
    x = torch.zeros(3)
    y = x.to(a, b)
    assert y.dtype == dtype and (y is x) == same
    assert torch.zeros(3).to("meta", torch.float16).device.type == "meta"


def test_legacy_constructor_facts():
    assert torch.Tensor([1]).dtype == torch.get_default_dtype()
    assert torch.Tensor([1], device="cpu").device.type == "cpu"  # device= of the host is taken
    for args in ((), ([1.0],), (2, 3)):  # any other device raises ("legacy constructor expects
        with pytest.raises(RuntimeError, match="legacy constructor"):  # device type: cpu"), CUDA too
            torch.Tensor(*args, device=META.device)
    with pytest.raises(TypeError):
        torch.Tensor([1], dtype=torch.float64)  # dtype= is not: torch.tensor(..., dtype=) is the form
    assert torch.LongTensor(2, 4).shape == (2, 4)  # sizes: uninitialised, like torch.empty
    t = torch.randn(2)
    assert torch.Tensor(t).data_ptr() == t.data_ptr()  # a tensor argument is aliased, not built
    assert torch.Tensor((1, 2)).to(META).device.type == "meta"
