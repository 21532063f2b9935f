"""TRC112 through host computation between the factory and the move (recbole
``ract.py:180``: ``torch.log2(torch.arange(2, k + 2).type(torch.FloatTensor)).to(d)``):
reported without a fix; and, against torch, that the ops looked through keep a host
tensor on the host with its shape, and that ``.type()`` of a CPU type moves a tensor back
to the host (why the advice says to cast otherwise)."""
import textwrap

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.rules._trc112_computed import HOST_TYPES, POINTWISE

torch = pytest.importorskip("torch")

HEAD = "import torch\n"


def trc112(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC112"]


REPORTED = [
    # the recbole form
    """
    def calculate_ndcg(topk_result, k):
        tp = 1.0 / torch.log2(torch.arange(2, k + 2).type(torch.FloatTensor)).to(
            topk_result.device
        )
        return tp
    """,
    "def f(n):\n    return torch.arange(n).type(torch.FloatTensor).cuda()\n",
    "def f(n):\n    return torch.sqrt(torch.arange(n).float()).to('cuda')\n",
    "def f(n, d):\n    return torch.ones(n).view(-1, 1).exp().to(device=d)\n",
    "def f(n):\n    return torch.exp(torch.randn(n)).cuda()\n",
    "def f(n):\n    return torch.log(torch.arange(n).type(torch.float64))[None].cuda(0)\n",
]

QUIET = [
    # not built on the host here, or not a tensor torch builds
    "def f(x, d):\n    return torch.log2(x).to(d)\n",
    "def f(n, d):\n    return torch.log2(torch.arange(n, device=d).float()).to(d)\n",
    "import numpy as np\ndef f(n, d):\n    return np.log2(torch.arange(n)).to(d)\n",
    # .type() of a CUDA type moves by itself; .type() of a string is not followed
    "def f(n):\n    return torch.arange(n).type(torch.cuda.FloatTensor).cuda()\n",
    "def f(n):\n    return torch.arange(n).type('torch.FloatTensor').cuda()\n",
    # to the host, or a bare conversion
    "def f(n):\n    return torch.log2(torch.arange(n).float()).to('cpu')\n",
    "def f(n):\n    return torch.log2(torch.arange(n).float()).to(torch.float64)\n",
    # not a unary op of the tensor alone: out=, another operand, a keyword
    "def f(n, o, d):\n    return torch.log2(torch.arange(n).float(), out=o).to(d)\n",
    "def f(n, d):\n    return torch.clamp(torch.arange(n), 0).to(d)\n",
    "def f(n, d):\n    return torch.round(torch.rand(n), decimals=2).to(d)\n",
    # the op or the factory may be replaced, or a default device may be in force
    "torch.log2 = print\ndef f(n, d):\n    return torch.log2(torch.arange(n).float()).to(d)\n",
    "torch.set_default_device('cuda')\ndef f(n):\n    return torch.log2(torch.arange(n).float()).cuda()\n",
    # from_numpy wraps the host array (no factory): its move is the one copy there is to make
    # (mmselfsup odc_memory.py:216, int64 indices from np.where/np.setdiff1d)
    "import numpy as np\ndef f(a):\n    return torch.from_numpy(np.where(a == 1)[0]).long().cuda()\n",
    "import numpy as np\ndef f(a):\n    return torch.sqrt(torch.from_numpy(a).float()).cuda()\n",
    # an index that is not a view of every element, or a slice between: not looked through
    "def f(n):\n    return torch.exp(torch.arange(n)[:2].float()).cuda()\n",
]


@pytest.mark.parametrize("body", REPORTED)
def test_reported_without_fix(body):
    (finding,) = trc112(body)
    assert "computes on it there" in finding.message and finding.fix is None


@pytest.mark.parametrize("body", QUIET)
def test_quiet(body):
    assert trc112(body) == []


def test_advice_names_the_factory_and_the_cpu_type():
    (finding,) = trc112(REPORTED[0])
    assert "pass device= to torch.arange" in finding.message
    assert ".type() of a CPU type moves it back to the host" in finding.message
    (plain,) = trc112(REPORTED[2])
    assert ".type()" not in plain.message


# --- what torch does ----------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(POINTWISE))
def test_pointwise_ops_keep_the_tensor_where_it_is(name):
    """``torch.<op>(t)`` and ``t.<op>()`` of a host tensor are host tensors of its shape (so
    the move after them copies from the host); on meta (the device) they stay there."""
    for device in ("cpu", "meta"):
        t = torch.arange(1, 7, device=device).float().view(2, 3)
        for out in (getattr(torch, name)(t), getattr(t, name)()):
            assert isinstance(out, torch.Tensor) and out.device == t.device and out.shape == t.shape


@pytest.mark.parametrize("qualname", sorted(HOST_TYPES))
def test_type_of_a_host_type_casts_on_the_host(qualname):
    t = torch.arange(3)
    out = t.type(getattr(torch, qualname[len("torch."):]))
    assert out.device.type == "cpu"


def test_type_of_a_cpu_type_moves_a_device_tensor_back():
    """Why a ``.type(torch.FloatTensor)`` is not kept on a factory built on the device: it
    copies the tensor to the host (from meta, which holds no data, it raises)."""
    with pytest.raises(NotImplementedError):
        torch.arange(3, device="meta").type(torch.FloatTensor)
    assert torch.arange(3, device="meta").type(torch.float32).device.type == "meta"


def test_from_numpy_long_of_int64_indices_copies_nothing_on_the_host():
    """mmselfsup ``odc_memory.py:216``: ``torch.from_numpy(idx).long().cuda()`` of the int64
    indices ``np.where``/``np.setdiff1d`` return: ``from_numpy`` shares the array's memory and
    ``.long()`` of an int64 tensor is the tensor itself, so the move is the only copy (not a
    finding; building it on the device would copy the same bytes)."""
    import numpy as np

    labels = np.array([0, 1, 1, 2, 1])
    for idx in (np.where(labels == 1)[0], np.setdiff1d(np.arange(5), [1, 3], assume_unique=True)):
        t = torch.from_numpy(idx)
        assert t.long() is t and t.data_ptr() == idx.ctypes.data
