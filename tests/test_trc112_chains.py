"""TRC112 through the views and casts between a host factory and its move
(``torch.tensor(m).view(-1, 1, 1).to(d)``): what is reported, what is fixed, what stays
quiet; and, against torch, that the fix gives the same values, dtype, device and strides for
every op the rule looks through, and not for the ops it must not look through."""
import ast
import textwrap

import pytest
import torch

from flake8_torchcopy import fix_source, lint_source
from flake8_torchcopy.rules import _trc112_chain as chain
from flake8_torchcopy.rules import trc112_factory_then_transfer as trc112

HEAD = "import torch\n"


def trc112_findings(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC112"]


# (body, fixed body or None for no fix, the fix is safe)
FIXED = [
    # a view op leaves the fix's result a view where the move gave a fresh tensor (detach_()
    # raises on it; review14, _trc112_chain.view_kept): unsafe unless it is at once an operand
    ("def f(img):\n    return img - torch.tensor([1.0, 2.0])[:, None].cuda() * 2\n",
     "def f(img):\n    return img - torch.tensor([1.0, 2.0], device=\"cuda\")[:, None] * 2\n", True),
    ("def f(img):\n    return torch.ones(2, 3).T.cuda() < img\n",
     "def f(img):\n    return torch.ones(2, 3, device=\"cuda\").T < img\n", True),
    # the device of a proven tensor, through a view
    ("def f():\n    y = torch.randn(3, device='cuda')\n"
     "    return torch.tensor([1.0, 2.0]).view(-1, 1, 1).to(y.device)\n",
     "def f():\n    y = torch.randn(3, device='cuda')\n"
     "    return torch.tensor([1.0, 2.0], device=y.device).view(-1, 1, 1)\n", False),
    ("m = torch.tensor([1, 2]).unsqueeze(-1).cuda()\n",
     "m = torch.tensor([1, 2], device=\"cuda\").unsqueeze(-1)\n", False),
    ("m = torch.zeros(2, 3).t().contiguous().to('cuda:1')\n",
     "m = torch.zeros(2, 3, device='cuda:1').t().contiguous()\n", False),
    # a cast after zeros: 0 in every dtype
    ("pad = torch.zeros((1, 4)).int().to(torch.device('cuda'))\n",
     "pad = torch.zeros((1, 4), device=torch.device('cuda')).int()\n", True),
    # a cast after torch.tensor of any data: nan or 1e10 cast to int is the hardware's
    ("def f(xs):\n    return torch.tensor(xs).long().cuda()\n",
     "def f(xs):\n    return torch.tensor(xs, device=\"cuda\").long()\n", False),
    # indexes that only add dims, and .T/.mT: dense views of every element
    ("m = torch.tensor([1.0, 2.0])[None].cuda()\n",
     "m = torch.tensor([1.0, 2.0], device=\"cuda\")[None]\n", False),
    ("m = torch.zeros(2, 3)[:, None, ...].T.to('cuda')\n",
     "m = torch.zeros(2, 3, device='cuda')[:, None, ...].T\n", False),
    ("m = torch.ones(2, 3, 4).mT.cuda()\n",
     "m = torch.ones(2, 3, 4, device=\"cuda\").mT\n", False),
    # a view whose argument is computed: the device is then read before it
    ("def f(xs):\n    return torch.tensor(xs).view(len(xs), -1).cuda()\n",
     "def f(xs):\n    return torch.tensor(xs, device=\"cuda\").view(len(xs), -1)\n", False),
]

REPORTED_NO_FIX = [
    # .to(name): a device, a dtype or a tensor; the corpora's forms (SAM, speechbrain, monai)
    "def f(device):\n    return torch.tensor([123.675, 116.28, 103.53]).view(-1, 1, 1).to(device)\n",
    "def f(offset, lengths):\n    return torch.tensor(offset).unsqueeze(-1).to(lengths.device)\n",
    "def f(b, lengths):\n    return torch.zeros((1, b)).int().to(lengths.device)\n",
    "def f(labels, device):\n    return torch.tensor(labels).unsqueeze(-1).to(device).long()\n",
    # torchdiffeq's scipy_wrapper: a device and a dtype, through [None] and .T (the
    # conversion stays: a Python int converted once is not an int64 converted)
    "class S:\n    def f(self):\n        return torch.tensor(self.y0)[None].to(self.device, self.dtype)\n",
    "class S:\n    def f(self, sol):\n        return torch.tensor(sol.y).T.to(self.device, self.dtype)\n",
    # random and empty factories, through a view
    "def f():\n    return torch.randn(4, 4).t().cuda()\n",
]

QUIET = [
    # the move materialises these: device= on the factory would not give the same tensor
    "m = torch.ones(3, 1).expand(3, 4).cuda()\n",
    "m = torch.zeros(4, 4)[:, ::2].cuda()\n",
    "m = torch.zeros(4, 4)[0].cuda()\n",
    "m = torch.zeros(4, 4)[:2].cuda()\n",
    "m = torch.zeros(4, 4)[None, 1:].cuda()\n",
    "def f(i):\n    return torch.zeros(4, 4)[i].cuda()\n",
    # a conversion after an index: dtype= on the factory is another computation
    "m = torch.tensor([0.5, 1.5])[None].to(torch.int64)\n",
    "m = torch.tensor([0.5, 1.5]).T.to(torch.int64)\n",
    # a conversion after a view or a cast: dtype= on the factory is another computation
    "m = torch.tensor([0.5, 1.5]).view(-1, 1).to(torch.int64)\n",
    "m = torch.tensor([0.5, 1.5]).int().to(torch.float64)\n",
    # to the host, where it was built
    "m = torch.tensor([1.0]).view(-1, 1).to('cpu')\n",
    # built on the device already, or a *_like factory (its argument's device)
    "m = torch.zeros(3, device='cuda').view(1, 3).cuda()\n",
    "def f(x):\n    return torch.zeros_like(x).view(-1).to(x.device)\n",
    # not a factory under the chain
    "def f(x):\n    return x.view(-1, 1).cuda()\n",
    "def f(m):\n    return m.tensor([1]).view(-1).cuda()\n",
    # keywords or unpacking in the ops: not looked through
    "m = torch.zeros(2, 3).transpose(dim0=0, dim1=1).cuda()\n",
    "def f(s):\n    return torch.zeros(6).view(*s).cuda()\n",
    # requires_grad=: TRC111's
    "m = torch.zeros(3, requires_grad=True).view(1, 3).cuda()\n",
]


@pytest.mark.parametrize("body,fixed,safe", FIXED)
def test_fixed_through_host_ops(body, fixed, safe):
    (finding,) = trc112_findings(body)
    assert finding.fix is not None and finding.fix.safe is safe
    assert fix_source(HEAD + body, unsafe=True) == HEAD + fixed
    if not safe:
        assert fix_source(HEAD + body) == HEAD + body


@pytest.mark.parametrize("body", REPORTED_NO_FIX)
def test_reported_without_fix(body):
    (finding,) = trc112_findings(body)
    assert finding.fix is None
    assert "builds the tensor on the host" in finding.message


def test_to_a_tensor_after_a_view_advises_device_only():
    # speechbrain lobes/models/g2p/model.py:468: the conversion to abs_len's dtype stays
    (finding,) = trc112_findings("def f(src, src_len):\n    abs_len = torch.round(src_len * src.shape[1])\n"
                                 "    return torch.arange(src.shape[1])[None, :].to(abs_len)\n")
    assert finding.fix is None
    assert finding.message.endswith("pass device= to torch.arange (the conversion stays)")


@pytest.mark.parametrize("body", QUIET)
def test_quiet(body):
    assert trc112_findings(body) == []


# each op the rule looks through, applied to a fresh 2x3 tensor
OPS = {
    "view": lambda t: t.view(3, 2), "reshape": lambda t: t.reshape(-1),
    "unsqueeze": lambda t: t.unsqueeze(-1), "squeeze": lambda t: t.unsqueeze(1).squeeze(1),
    "flatten": lambda t: t.flatten(), "t": lambda t: t.t(), "transpose": lambda t: t.transpose(0, 1),
    "permute": lambda t: t.permute(1, 0), "contiguous": lambda t: t.t().contiguous(),
}
CASTS = sorted(trc112.TENSOR_CASTS)


def _pair(op, device):
    """(the original, host then moved; the fix, built on ``device``) for a chain ending in ``op``."""
    data = [[1.5, -2.0, 0.0], [3.25, 7.0, 1.0]]
    return op(torch.tensor(data).t()).to(device), op(torch.tensor(data, device=device).t())


# the attributes and indexes looked through
ATTR_OPS = {"T": lambda t: t.T, "mT": lambda t: t.unsqueeze(0).mT,
            "[None]": lambda t: t[None], "[:, None, ...]": lambda t: t[:, None, ...],
            "[..., :]": lambda t: t[..., :], "[:, :, None]": lambda t: t[:, :, None]}


def test_the_ops_looked_through_are_the_ones_checked():
    assert set(OPS) == set(chain.HOST_VIEWS)
    assert {n for n in ATTR_OPS if not n.startswith("[")} == set(chain.HOST_ATTRS)
    for index in (n for n in ATTR_OPS if n.startswith("[")):
        assert chain.keeps_every_element(ast.parse(f"x{index}").body[0].value.slice)
    for index in ("[0]", "[:2]", "[::2]", "[i]", "[None, 1:]", "[..., -1]", "[[0, 1]]"):
        assert not chain.keeps_every_element(ast.parse(f"x{index}").body[0].value.slice)


@pytest.mark.verify
@pytest.mark.parametrize("name", sorted(ATTR_OPS))
def test_fix_through_attributes_and_indexes_keeps_strides(name):
    op = ATTR_OPS[name]
    for lead in (lambda t: t, lambda t: t.t()):  # on a contiguous and a transposed host tensor
        moved, built = _pair(lambda t, lead=lead: op(lead(t)), "meta")
        assert (moved.shape, moved.stride(), moved.dtype, moved.device) == \
            (built.shape, built.stride(), built.dtype, built.device)
        moved, built = _pair(lambda t, lead=lead: op(lead(t)), "cpu")
        assert torch.equal(moved, built) and moved.stride() == built.stride()


@pytest.mark.verify
@pytest.mark.parametrize("name", sorted(OPS) + CASTS)
def test_fix_keeps_values_dtype_device_and_strides(name):
    op = OPS.get(name) or (lambda t: getattr(t, name)())
    # the meta device has no data but real strides: a move off the host, as to cuda
    moved, built = _pair(op, "meta")
    assert (moved.shape, moved.stride(), moved.dtype, moved.device) == \
        (built.shape, built.stride(), built.dtype, built.device)
    assert moved.is_contiguous() == built.is_contiguous()
    moved, built = _pair(op, "cpu")
    assert torch.equal(moved, built) and moved.stride() == built.stride()


@pytest.mark.verify
@pytest.mark.parametrize("shape,op", [((3, 1), lambda t: t.expand(3, 4)), ((4, 4), lambda t: t[:, ::2])])
def test_expand_and_slices_are_materialised_by_the_move(shape, op):
    # why they are not looked through: the fix would keep a view with other strides
    moved, built = op(torch.zeros(shape)).to("meta"), op(torch.zeros(shape, device="meta"))
    assert moved.shape == built.shape and moved.stride() != built.stride()


@pytest.mark.verify
def test_cast_after_factory_exact_only_for_zeros_ones_eye():
    # zeros, ones, eye hold 0 and 1, which every dtype holds exactly
    for make in (torch.zeros, torch.ones, torch.eye):
        for cast in CASTS:
            a = getattr(make(3), cast)()
            assert torch.equal(a.double(), make(3, dtype=torch.float64).to(a.dtype).double())


@pytest.mark.verify
def test_dtype_into_torch_tensor_is_another_rounding():
    # why .to(device, dtype) after torch.tensor(data) moves only the device: a Python int
    # converted to float32 once is not the int64 tensor converted (2**60 + 2**36 + 1)
    v = 2 ** 60 + 2 ** 36 + 1
    assert torch.tensor([v])[None].to(torch.float32).item() != torch.tensor([v], dtype=torch.float32)[None].item()
