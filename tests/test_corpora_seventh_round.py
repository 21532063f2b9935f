"""The wrong reports found reading the seventh round of research packages (2026-11-25), now
quiet (``benchmarks/labels.csv``, "wrong"): TRC112 advising ``device=`` on a random factory
that draws from a ``generator=``.  A generator draws on its own device; the code draws on the
host on purpose (reproducible across devices), and ``device=`` there raises.
"""
import textwrap

import pytest
import torch

from flake8_torchcopy import lint_source

# transformer-lens 4.3.0 transformer_lens/utilities/statistics.py:75-88 and 142: a bootstrap
# and a sign-flip test resampling with a CPU generator (derive_generator), then moving the
# indices to the data's device.
CPU_GENERATOR = """
import torch

def derive_generator(seed):
    return torch.Generator(device="cpu").manual_seed(seed)

def bootstrap(moved, n, count, generator=None):
    gen = generator if generator is not None else derive_generator(0)
    idx = torch.randint(0, n, (count, n), generator=gen).to(moved.device)
    signs = torch.randint(0, 2, (count, n), generator=gen).to(moved.device).to(moved.dtype) * 2 - 1
    return moved[..., idx], signs
"""


def _trc112_lines(source):
    return sorted(f.line for f in lint_source(textwrap.dedent(source)) if f.code == "TRC112")


def test_a_factory_drawing_from_a_generator_is_quiet():
    assert _trc112_lines(CPU_GENERATOR) == []


@pytest.mark.parametrize("without", [
    "torch.randint(0, n, (count, n))",   # no generator: the draw may move to the device
    "torch.zeros((count, n))",           # a factory without generator= at all
])
def test_the_same_move_without_a_generator_is_reported(without):
    source = CPU_GENERATOR.replace("torch.randint(0, n, (count, n), generator=gen)", without)
    assert _trc112_lines(source) == [9]


@pytest.mark.cuda
def test_device_on_a_factory_with_a_host_generator_raises():
    """The advice the report gave (pass device= to torch.randint) breaks the code."""
    gen = torch.Generator(device="cpu").manual_seed(0)
    with pytest.raises(RuntimeError):
        torch.randint(0, 5, (4, 5), generator=gen, device="cuda")
