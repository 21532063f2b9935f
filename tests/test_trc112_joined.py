"""TRC112 through ``torch.cat``/``torch.stack`` of host factories then moved
(catalyst tests/pipelines/test_gan.py:61: ``torch.cat([torch.ones((b, 1)), torch.zeros((b,
1))]).to(self.engine.device)``): reported without a fix; and, against torch, that the
pieces built on the device and joined there give the tensor the move gives (dtype
promotion of mixed pieces, sizes, strides)."""
import textwrap

import pytest

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")

HEAD = "import torch\n"


def trc112(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC112"]


REPORTED = [
    # the catalyst form: a device that an attribute holds (a device, a dtype or a tensor)
    """
    class R:
        def f(self, b):
            labels = torch.cat(
                [torch.ones((b, 1)), torch.zeros((b, 1))]
            ).to(self.engine.device)
            return labels
    """,
    "def f(b):\n    return torch.stack([torch.zeros(b), torch.ones(b, dtype=torch.int64)], dim=1).cuda()\n",
    "m = torch.cat((torch.tensor([1.0, 2.0]), torch.full((3,), 0.5)), 0).to('cuda:0')\n",
    "m = torch.cat([torch.zeros(2).view(1, 2), torch.ones(1, 2).int()]).view(-1).to(device='cuda')\n",
    "def f(x):\n    return torch.cat([torch.randn(2), torch.zeros(2)]).to(x.device, torch.float16)\n",
    "def f(d):\n    return torch.concat([torch.ones(2), torch.Tensor([1, 2])]).to(d)\n",
]

QUIET = [
    # a piece that may be on the device already, or is built there
    "def f(x, d):\n    return torch.cat([x, torch.zeros(2)]).to(d)\n",
    "def f(d):\n    return torch.cat([torch.zeros(2, device=d), torch.ones(2)]).to(d)\n",
    "def f(t, d):\n    x = torch.randn(3, device='cuda')\n"
    "    return torch.cat([torch.tensor(x), torch.ones(2)]).to(d)\n",
    "def f(xs, d):\n    return torch.cat([torch.ones(2) for _ in xs]).to(d)\n",
    "def f(xs, d):\n    return torch.cat(xs + [torch.ones(2)]).to(d)\n",
    "def f(d):\n    return torch.cat([torch.ones(2), torch.zeros(2, requires_grad=True)]).to(d)\n",
    "def f(d, o):\n    return torch.cat([torch.ones(2), torch.zeros(2)], out=o).to(d)\n",
    # to the host, or a conversion: the pieces' dtypes promote before it
    "m = torch.cat([torch.ones(2), torch.zeros(2)]).to('cpu')\n",
    "m = torch.cat([torch.ones(2), torch.zeros(2)]).to(torch.float64)\n",
    # a default device may be in force: the pieces are built there
    "torch.set_default_device('cuda')\nm = torch.cat([torch.ones(2), torch.zeros(2)]).to('cuda')\n",
    # a slice of the join: the move materialises it
    "m = torch.cat([torch.ones(2), torch.zeros(2)])[::2].cuda()\n",
    # not torch's
    "def f(np, d):\n    return np.cat([np.ones(2), np.zeros(2)]).to(d)\n",
]


@pytest.mark.parametrize("body", REPORTED)
def test_reported_without_fix(body):
    (finding,) = trc112(body)
    assert "builds every piece on the host" in finding.message and finding.fix is None


@pytest.mark.parametrize("body", QUIET)
def test_quiet(body):
    assert [f for f in trc112(body) if "every piece" in f.message] == []


def test_a_name_that_may_be_a_dtype_gets_conditional_advice():
    (finding,) = trc112("def f(d):\n    return torch.cat([torch.ones(2), torch.zeros(2)]).to(d)\n")
    assert "if d is a device, pass device= to torch.ones, torch.zeros" in finding.message


# --- what torch does ----------------------------------------------------------------

PIECES = [
    lambda **kw: [torch.ones((3, 1), **kw), torch.zeros((3, 1), **kw)],
    lambda **kw: [torch.ones(2, dtype=torch.int64, **kw), torch.zeros(2, **kw)],
    lambda **kw: [torch.tensor([1, 2], **kw), torch.full((2,), 0.5, dtype=torch.float64, **kw)],
    lambda **kw: [torch.zeros(2, 3, dtype=torch.bool, **kw).t(), torch.ones(1, 2, dtype=torch.uint8, **kw).int()],
]


JOINS = [lambda ps: torch.cat(ps), lambda ps: torch.cat(ps, dim=-1), lambda ps: torch.stack(ps),
         lambda ps: torch.stack(ps, dim=1)]


@pytest.mark.parametrize("join", JOINS)
@pytest.mark.parametrize("pieces", PIECES)
def test_joined_on_the_device_is_what_the_move_gives(pieces, join):
    """Moved after the join, or built on the device and joined there (meta stands in for
    the device): the same dtype (mixed pieces promote alike), sizes and strides, and a join
    that raises raises on both; the values of the deterministic factories are the host's."""
    try:
        host = join(pieces())
    except RuntimeError:
        with pytest.raises(RuntimeError):
            join(pieces(device="meta"))
        return
    moved, there = host.to("meta"), join(pieces(device="meta"))
    assert (moved.dtype, moved.shape, moved.stride()) == (there.dtype, there.shape, there.stride())
    assert moved.device == there.device and host.is_contiguous()


def test_a_conversion_after_the_join_is_not_a_conversion_of_each_piece():
    """Why ``.to(dtype)`` is not reported: an int64 piece promoted to float32 by the join,
    then converted to float64, is not the int64 converted to float64."""
    big = 2 ** 24 + 1
    after = torch.cat([torch.full((1,), big, dtype=torch.int64), torch.zeros(1)]).to(torch.float64)
    each = torch.cat([torch.full((1,), big, dtype=torch.float64), torch.zeros(1, dtype=torch.float64)])
    assert after[0].item() != each[0].item()
