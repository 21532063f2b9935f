"""The fifteenth round of research packages (2026-11-25): deepchem, darts, catalyst,
torch-optimizer, torchkge, pytorch-pfn-extras, naturalspeech2-pytorch, pytorch-toolbelt.
Two reports were wrong:

* torch-optimizer ``sgdw.py:105`` and ``swats.py:150``: ``torch.clone(d_p).detach()`` of
  ``d_p = p.grad.data`` bound at the top of the step's loop and rebound later in it
  (``d_p = buf``): only the first binding reaches the clone, ``.data`` never requires grad
  (``grad.add_(w.data, alpha=...)`` in between keeps it so), so the clone records no node
  (TRC103; ``analysis/gradreach.py``).

What this pins: that, with torch, and the round's safe fix exact where it stands (catalyst
``data/loader.py:156``, ``torch.tensor(value).cuda(non_blocking=True)`` of a numpy array).
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


# torch-optimizer 0.3.0 sgdw.py:74-121 (less the docstring and the weight decay)
SGDW = """
import torch

def step(self, closure=None):
    for group in self.param_groups:
        momentum = group['momentum']
        for p in group['params']:
            if p.grad is None:
                continue
            d_p = p.grad.data
            if p.grad.is_sparse:
                raise RuntimeError('sparse')
            if momentum != 0:
                param_state = self.state[p]
                if 'momentum_buffer' not in param_state:
                    buf = param_state['momentum_buffer'] = torch.clone(
                        d_p
                    ).detach()
                else:
                    buf = param_state['momentum_buffer']
                    buf.mul_(momentum).add_(d_p, alpha=1 - group['dampening'])
                if group['nesterov']:
                    d_p = d_p.add(momentum, buf)
                else:
                    d_p = buf
            p.data.add_(d_p, alpha=-group['lr'])
"""
# torch-optimizer 0.3.0 swats.py:96-162 (the lines that touch grad)
SWATS = """
import torch

def step(self):
    for group in self.param_groups:
        for w in group['params']:
            if w.grad is None:
                continue
            grad = w.grad.data
            state = self.state[w]
            beta1, beta2 = group['betas']
            if group['weight_decay'] != 0:
                grad.add_(w.data, alpha=group['weight_decay'])
            if group['phase'] == 'SGD':
                if 'momentum_buffer' not in state:
                    buf = state['momentum_buffer'] = torch.clone(
                        grad
                    ).detach()
                else:
                    buf = state['momentum_buffer']
                    buf.mul_(beta1).add_(grad)
                    grad = buf
                grad.mul_(1 - beta1)
                w.data.add_(grad, alpha=-group['lr'])
"""


@pytest.mark.parametrize("source", [SGDW, SWATS], ids=["sgdw", "swats"])
def test_clone_of_grad_data_bound_first_in_the_loop_is_quiet(source):
    assert _found(source) == []
    # a binding that may require grad reaching it, or a change that may make it, is reported
    for old, new in (("p.grad.data\n", "p.grad\n"), ("w.grad.data\n", "w.grad\n"),
                     ("grad.add_(w.data,", "grad.add_(w,")):
        if old in source:
            assert [c for _, c, _ in _found(source.replace(old, new))] == ["TRC103"]


@pytest.mark.filterwarnings("ignore:Using backward")
def test_optimizer_step_clone_with_torch():
    """Even where the grad has a graph (create_graph=True), the clone of its .data has none;
    after add_ of a .data operand with a number alpha too."""
    p = torch.nn.Parameter(torch.randn(4))
    (p ** 3).sum().backward(create_graph=True)
    d_p = p.grad.data
    assert p.grad.requires_grad and torch.clone(d_p).detach().grad_fn is None
    assert torch.clone(d_p).grad_fn is None
    d_p.add_(p.data, alpha=0.1)
    assert not d_p.requires_grad and torch.clone(d_p).grad_fn is None


# catalyst 22.4 data/loader.py:146-156
CATALYST = """
from typing import Any
import numpy as np
import torch

def _any2cuda_non_blocking(value: Any):
    if isinstance(value, dict):
        return {k: _any2cuda_non_blocking(v) for k, v in value.items()}
    elif isinstance(value, (tuple, list)):
        return [_any2cuda_non_blocking(v) for v in value]
    elif torch.is_tensor(value):
        return value.cuda(non_blocking=True)
    elif isinstance(value, (np.ndarray, np.void)) and value.dtype.fields is not None:
        return {k: _any2cuda_non_blocking(value[k]) for k in value.dtype.fields.keys()}
    elif isinstance(value, np.ndarray):
        return torch.tensor(value).cuda(non_blocking=True)
"""


def test_catalyst_safe_fix():
    assert _found(CATALYST) == [(16, "TRC112", True)]
    assert 'return torch.tensor(value, device="cuda")\n' in fix_source(textwrap.dedent(CATALYST))


def _same(a, b):
    assert type(a) is type(b) and a.dtype == b.dtype and a.device == b.device and a.shape == b.shape
    assert a.requires_grad == b.requires_grad and a.is_contiguous() and b.is_contiguous()
    if a.device.type != "meta":
        assert torch.equal(a, b)


ARRAYS = [np.zeros((2, 3), dtype=np.uint8), np.arange(6, dtype=np.float64).reshape(2, 3)[:, ::-1],
          np.array([True, False]), np.array(3.5, dtype=np.float16), np.ma.masked_array([1, 2], mask=[0, 1]),
          np.arange(4, dtype=np.int16)[::2], np.zeros((0, 4), dtype=np.complex64)]


@pytest.mark.parametrize("a", ARRAYS, ids=range(len(ARRAYS)))
def test_catalyst_arrays_with_torch(a):
    """Every numpy array (non-contiguous, 0-d, empty, masked, complex) gives the same tensor
    built in place as moved there (meta stands in for cuda; non_blocking changes no value);
    one of negative strides raises the same either way."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for device in ("meta", "cpu"):
            try:
                moved = torch.tensor(a).to(device, non_blocking=True)
            except ValueError:  # negative strides: torch.tensor raises, wherever it builds
                assert a.strides[-1] < 0
                with pytest.raises(ValueError, match="negative"):
                    torch.tensor(a, device=device)
                continue
            _same(moved, torch.tensor(a, device=device))


@pytest.mark.cuda
def test_catalyst_cuda_with_torch():
    for a in ARRAYS[:1] + ARRAYS[2:]:
        _same(torch.tensor(a).cuda(non_blocking=True), torch.tensor(a, device="cuda"))


def test_catalyst_without_cuda_raises_alike():
    if torch.cuda.is_available():
        pytest.skip("a host with CUDA: the cuda case runs above")
    for make in (lambda: torch.tensor(ARRAYS[0]).cuda(non_blocking=True),
                 lambda: torch.tensor(ARRAYS[0], device="cuda")):
        with pytest.raises((AssertionError, RuntimeError)):
            make()
