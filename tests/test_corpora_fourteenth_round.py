"""The fourteenth round of research packages (2026-11-25): funasr, spikingjelly, snntorch,
schnetpack, mmdet3d, openunmix, e2cnn, torchdiffeq.  One report was wrong:

* spikingjelly ``activation_based/lynxi_exchange.py:692``: ``torch.from_numpy(x.numpy())``
  after ``x = x.view_as(shape, dtype)`` on one path: Tensor.view_as takes one argument (two
  raise TypeError), so that is lynpy's method, not evidence of a tensor (TRC107).

What this pins: that, with torch, and the round's safe fixes exact where they stand (funasr
scama/uniasr ``beam_search.py``, scama ``model.py:716``, ``utils/export_utils.py:228``,
spikingjelly ``examples/dsqn/train.py:50,83``).
"""
import textwrap
import warnings

import numpy as np
import pytest
import torch

from flake8_torchcopy import fix_source, lint_source


def _found(source):
    return sorted((f.line, f.code, None if f.fix is None else f.fix.safe)
                  for f in lint_source(textwrap.dedent(source)))


# spikingjelly 2.0.0 activation_based/lynxi_exchange.py:624-693 (less the docstring)
LYNXI = """
import torch

def lynxi_tensor_to_torch(x, shape=None, dtype=None):
    if shape is not None and dtype is not None:
        x = x.view_as(shape, dtype)
    if x.devptr is not None:
        x = x.cpu()
    x = torch.from_numpy(x.numpy())
    return x
"""


def test_view_as_of_two_arguments_is_not_tensor_evidence():
    assert _found(LYNXI) == []
    # Tensor's own view_as (one argument, or other=) still is
    for call in ("x.view_as(shape)", "x.view_as(other=shape)"):
        assert _found(LYNXI.replace("x.view_as(shape, dtype)", call)) == [(9, "TRC107", None)]


@pytest.mark.parametrize("m", ["view_as", "reshape_as", "expand_as", "type_as"])
def test_the_as_methods_take_one_argument(m):
    t = torch.randn(2, 3)
    with pytest.raises(TypeError):
        getattr(t, m)(t, t)
    with pytest.raises(TypeError):
        getattr(t, m)()
    assert getattr(t, m)(other=t).shape == t.shape


# funasr 1.4.16 models/scama/beam_search.py:398-403 (uniasr's :401 is the same), scama
# model.py:703-716, utils/export_utils.py:228, spikingjelly examples/dsqn/train.py:39-50
FUNASR = """
import numpy as np
import torch

def step(pre_acoustic_embeds):
    b, t, d = pre_acoustic_embeds.size()
    pad = torch.zeros((b, 1, d), dtype=pre_acoustic_embeds.dtype).to(
        device=pre_acoustic_embeds.device
    )
    return torch.cat((pre_acoustic_embeds, pad), dim=1)

def init_cache(**kwargs):
    device = kwargs.get("device", "cuda")
    batch_size = 1
    return {"cif_alphas": torch.zeros((batch_size, 1)).to(device=device)}

def _rescale_encoder_model(model, input_data):
    absmax = torch.tensor(0).cuda()
    return absmax

def evaluate(env, cuda):
    device = torch.device("cuda" if cuda else "cpu")
    obs = env.reset()
    state = torch.tensor(np.expand_dims(obs, 0)).to(device).float() / 256
    return state
"""


def test_round_safe_fixes():
    assert _found(FUNASR) == [(7, "TRC112", True), (15, "TRC112", True), (18, "TRC112", True),
                              (24, "TRC112", True)]
    fixed = fix_source(textwrap.dedent(FUNASR))
    for text in ("torch.zeros((b, 1, d), dtype=pre_acoustic_embeds.dtype, device=pre_acoustic_embeds.device)",
                 "torch.zeros((batch_size, 1), device=device)",
                 'torch.tensor(0, device="cuda")',
                 "torch.tensor(np.expand_dims(obs, 0), device=device).float() / 256"):
        assert text in fixed


def _same(a, b):
    assert type(a) is type(b) and a.dtype == b.dtype and a.device == b.device and a.shape == b.shape
    assert a.requires_grad == b.requires_grad and a.is_contiguous() and b.is_contiguous()
    if a.device.type != "meta":
        assert torch.equal(a, b)


EMBEDS = [torch.randn(2, 3, 4), torch.randn(2, 3, 4, dtype=torch.float16), torch.randn(1, 1, 4, device="meta"),
          torch.nn.Parameter(torch.randn(2, 3, 4)), torch.randn(2, 3, 4, dtype=torch.float64).transpose(0, 1)]


@pytest.mark.parametrize("e", EMBEDS, ids=range(len(EMBEDS)))
def test_beam_search_pad_with_torch(e):
    """Whatever tensor (a Parameter, half, meta, strided) the pad is built for, the same."""
    b, t, d = e.size()
    _same(torch.zeros((b, 1, d), dtype=e.dtype).to(device=e.device),
          torch.zeros((b, 1, d), dtype=e.dtype, device=e.device))


@pytest.mark.parametrize("device", ["cpu", torch.device("cpu"), "meta", torch.device("meta"), None, "cpu:0"],
                         ids=str)
@pytest.mark.parametrize("default", [None, "meta"])
def test_cache_zeros_with_torch(device, default):
    """kwargs["device"] may be a string, a torch.device or None, under a default device or not
    (where the original runs, the same; under a meta default, .to("cpu") raises, the fix runs)."""
    try:
        if default is not None:
            torch.set_default_device(default)
        try:
            original = torch.zeros((1, 1)).to(device=device)
        except NotImplementedError:
            assert default == "meta" and torch.device(device).type == "cpu"
            original = None
        fixed = torch.zeros((1, 1), device=device)
        if original is not None:
            _same(original, fixed)
    finally:
        torch.set_default_device(None)


@pytest.mark.cuda
def test_cuda_zero_with_torch():
    _same(torch.tensor(0).cuda(), torch.tensor(0, device="cuda"))


def test_cuda_zero_without_cuda_raises_alike():
    if torch.cuda.is_available():
        pytest.skip("a host with CUDA: the cuda case runs above")
    for make in (lambda: torch.tensor(0).cuda(), lambda: torch.tensor(0, device="cuda")):
        with pytest.raises((AssertionError, RuntimeError)):
            make()


class _Lazy:
    """An observation that converts itself (as gym's LazyFrames do)."""

    def __init__(self, a):
        self.a = a

    def __array__(self, dtype=None, copy=None):
        return self.a if dtype is None else self.a.astype(dtype)


OBS = [np.zeros((4, 84, 84), dtype=np.uint8), np.arange(12, dtype=np.float64).reshape(3, 4),
       _Lazy(np.ones((2, 5), dtype=np.uint8)), np.arange(6, dtype=np.int32)[::2], [1.5, 2.5]]


@pytest.mark.parametrize("obs", OBS, ids=range(len(OBS)))
@pytest.mark.parametrize("device", [torch.device("cpu"), torch.device("meta")], ids=str)
def test_dsqn_state_with_torch(obs, device):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(torch.tensor(np.expand_dims(obs, 0)).to(device).float() / 256,
              torch.tensor(np.expand_dims(obs, 0), device=device).float() / 256)
