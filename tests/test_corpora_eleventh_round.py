"""The eleventh round of research packages (2026-11-25): allennlp, stanza, mmpretrain, fair-esm,
pyannote-audio, nerfstudio, dalle2-pytorch, tsai.  One report was wrong (allennlp, TRC112 on
``torch.tensor(t)`` of a tensor, which builds where ``t`` is): what this pins is that it stays
quiet there, and that the round's two safe fixes are exact for every value the code binds.
"""
import textwrap
import warnings

import numpy
import pytest
import torch

from flake8_torchcopy import fix_source, lint_source

# allennlp 2.10.1 allennlp/fairness/bias_metrics.py:486-521: protected_variable_labels comes
# back from self.detach_tensors (unknown here), x_mask is its comparison cast to long, and
# x_mask.sum() is a 0-d tensor on `device` already.
ALLENNLP = """
import torch

class AssociationWithoutGroundTruth:
    def __call__(self, predicted_labels: torch.Tensor, protected_variable_labels: torch.Tensor):
        predicted_labels, protected_variable_labels = self.detach_tensors(
            predicted_labels, protected_variable_labels)
        device = predicted_labels.device
        _total_predictions = torch.tensor(predicted_labels.nelement()).to(device)
        counts = torch.zeros(self._n).to(device)
        for x in range(self._n):
            x_mask = (protected_variable_labels == x).long()
            counts[x] = torch.tensor(x_mask.sum()).to(device)
        return _total_predictions, counts
"""

# an annotation alone is not trusted by default (callers pass lists where it says Tensor:
# diffusers pipeline_motif_video.py:430), but a tensor-only cast of it is a tensor; a
# reduction (`labels.sum()`) of what is not shown a non-tensor may be one too (a 0-d tensor
# on its device), so that one is not reported either (super-gradients yolox_loss.py:322)
ANNOTATED = """
import torch

def count(labels: torch.Tensor, device):
    a = torch.tensor(labels.sum()).to(device)
    b = torch.tensor(labels).to(device)
    c = torch.tensor(labels.float().mean()).cuda()
    return a, b, c
"""

# the cast is what says tensor: a list or a number from elsewhere is still reported
STILL_REPORTED = """
import torch

def count(items, device):
    n = len(items)
    a = torch.tensor(items).to(device)
    b = torch.tensor(n).to(device)
    return a, b
"""

# nerfstudio 1.1.5 nerfstudio/exporter/marching_cubes.py:200-205: a float64 point grid,
# transposed (non-contiguous), converted to float32 and moved by .cuda()
MARCHING = """
import numpy as np
import torch

def grid(x_min, x_max, crop_n):
    x = np.linspace(x_min, x_max, crop_n)
    y = np.linspace(x_min, x_max, crop_n)
    z = np.linspace(x_min, x_max, crop_n)
    xx, yy, zz = np.meshgrid(x, y, z, indexing="ij")
    points = torch.tensor(np.vstack([xx.ravel(), yy.ravel(), zz.ravel()]).T, dtype=torch.float).cuda()
    return points
"""

# stanza 1.15.0 stanza/models/classifiers/cnn_classifier.py:460-462: what an ELMo model's
# sents2elmo returns (arrays of 3 x M x 1024), each moved by .to(device=device)
STANZA = """
import torch

def embed(self, elmo_batch_words, device):
    elmo_arrays = self.elmo_model.sents2elmo(elmo_batch_words, output_layer=-2)
    elmo_tensors = [torch.tensor(x).to(device=device) for x in elmo_arrays]
    return torch.stack(elmo_tensors)
"""


def _found(source):
    return sorted((f.line, f.code, None if f.fix is None else f.fix.safe)
                  for f in lint_source(textwrap.dedent(source)))


def test_allennlp_tensor_of_a_long_cast_sum_is_not_a_host_factory():
    assert _found(ALLENNLP) == [(9, "TRC112", None), (10, "TRC112", None)]


def test_a_cast_of_annotated_data_is_not_a_host_factory():
    assert _found(ANNOTATED) == [(6, "TRC112", None)]


def test_data_of_unknown_kind_is_still_reported():
    assert _found(STILL_REPORTED) == [(6, "TRC112", None), (7, "TRC112", None)]


def test_tensor_of_a_tensor_builds_where_the_tensor_is():
    """The fact the quiet rests on: torch.tensor(t) copies t on t's device (meta stands for
    a device that is not the host), so a .to(t's device) after it moves nothing."""
    t = torch.ones(4, device="meta").long()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.tensor(t.sum()).device.type == "meta"
    assert (torch.ones(4) == 1).long().sum().dim() == 0
    assert not hasattr(numpy.zeros(2), "long")  # an array has no tensor cast


def _outcome(make):
    try:
        t = make()
    except Exception as e:  # the failure must be the same one
        return type(e).__name__, str(e)
    return t.dtype, t.device, t.shape, t.stride(), t.tolist()


def test_marching_cubes_fix_is_safe():
    assert _found(MARCHING) == [(10, "TRC112", True)]
    fixed = fix_source(textwrap.dedent(MARCHING))
    assert "dtype=torch.float, device=\"cuda\")\n" in fixed


@pytest.mark.parametrize("grid", [(-1.0, 1.0, 5), (0.1, 0.3, 7), (-1e-40, 1e39, 3)])
@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
def test_marching_cubes_points_are_the_same_built_there(grid, device):
    """The grid as the code makes it (float64, transposed; values past float32's range and
    below its subnormals too): dtype, values and strides agree."""
    x = numpy.linspace(*grid)
    xx, yy, zz = numpy.meshgrid(x, x, x, indexing="ij")
    data = numpy.vstack([xx.ravel(), yy.ravel(), zz.ravel()]).T
    assert _outcome(lambda: torch.tensor(data, dtype=torch.float).to(device)) \
        == _outcome(lambda: torch.tensor(data, dtype=torch.float, device=device))
    if not torch.cuda.is_available():  # both raise the same error on a host without CUDA
        assert _outcome(lambda: torch.tensor(data, dtype=torch.float).cuda()) \
            == _outcome(lambda: torch.tensor(data, dtype=torch.float, device="cuda"))


def test_stanza_elmo_fix_is_unsafe():
    """Unsafe since the fourteenth review: ``device`` (a parameter) may be meta, where
    torch.tensor checks no data (a ragged ``x`` raises on the host only)."""
    assert _found(STANZA) == [(6, "TRC112", False)]
    assert "[torch.tensor(x, device=device) for x in elmo_arrays]" in fix_source(textwrap.dedent(STANZA),
                                                                                 unsafe=True)


ELMO_LIKE = {
    "float32": numpy.random.default_rng(0).random((3, 4, 1024), dtype=numpy.float32),
    "float64": numpy.random.default_rng(1).random((3, 2, 8)),
    "empty": numpy.zeros((3, 0, 1024), dtype=numpy.float32),
    "list": [[[0.5, 1.5]]],
    "tensor": torch.ones(3, 2, 4),
}


@pytest.mark.parametrize("name", sorted(ELMO_LIKE))
@pytest.mark.parametrize("device", ["cpu", torch.device("cpu"), pytest.param("cuda", marks=pytest.mark.cuda)])
def test_stanza_device_keyword_is_exact(name, device):
    """Whatever sents2elmo hands back (arrays, lists, even a tensor: torch.tensor does not
    dispatch on its data), .to(device=d) after it and device=d on it agree."""
    x = ELMO_LIKE[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _outcome(lambda: torch.tensor(x).to(device=device)) \
            == _outcome(lambda: torch.tensor(x, device=device))
