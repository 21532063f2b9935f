"""The nineteenth round of research packages (2026-11-25): dive-into-graphs, cogdl, parlai,
textattack, scvi-tools, mbrl, lightweight-gan, pytorchcv.  Four wrong reports, each claiming a
graph node on a tensor that never requires grad (:mod:`flake8_torchcopy.analysis.gradfree`):

- dive-into-graphs ``xgraph/models/models.py:315,714`` (TRC103):
  ``nn.Parameter(self.lin.weight.data.T.clone().detach())``.  ``.data`` was grad-free already,
  but not its transpose: ``.T``, ``.mT``, ``.H``, ``.mH``, ``.real``, ``.imag`` require grad only
  where their receiver does, like the view methods.
- cogdl ``oag/oagbert_metainfo.py:484,801`` (TRC110):
  ``torch.topk(prediction_scores, k=5, dim=1).indices.cpu().detach()``.  The indices of
  ``topk`` (and of ``max``/``min``/``sort``/... with a dim) are int64: unpacked
  (``_, i = torch.topk(...)``) they were grad-free already, read as ``.indices`` they were not.
"""
import textwrap

import torch
from torch import nn

from flake8_torchcopy import lint_source


def _found(source):
    return sorted((f.line, f.code) for f in lint_source(textwrap.dedent(source)))


# dive-into-graphs 1.1.0 dig/xgraph/models/models.py:308-315, reduced
GCN = """
import torch
from torch import nn

class GCNConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 4)
        self.weight = nn.Parameter(self.lin.weight.data.T.clone().detach())
        self.w2 = nn.Parameter(self.lin.weight.data.mT.clone().detach())
        self.w3 = nn.Parameter(self.lin.weight.data[:2].T.real.clone().detach())
"""

# cogdl 0.6 cogdl/oag/oagbert_metainfo.py:484, reduced
TOPK = """
import torch

def predictions(prediction_scores):
    a = torch.topk(prediction_scores, k=5, dim=1).indices.cpu().detach().numpy()
    b = prediction_scores.max(1).indices.cpu().detach().numpy()
    c = torch.sort(prediction_scores, dim=1).indices.to(torch.float64).detach()
    return a, b, c
"""


def test_grad_free_attributes_and_indices_are_not_reported():
    assert _found(GCN) == []
    assert _found(TOPK) == []


def test_no_node_is_recorded_with_torch():
    lin = nn.Linear(3, 4)
    for t in (lin.weight.data.T, lin.weight.data.mT, lin.weight.data[:2].T.real):
        assert not t.requires_grad and t.clone().grad_fn is None
    scores = torch.randn(4, 7, requires_grad=True)
    for idx in (torch.topk(scores, k=5, dim=1).indices, scores.max(1).indices,
                torch.sort(scores, dim=1).indices):
        assert idx.dtype == torch.int64 and not idx.requires_grad
        assert idx.cpu().grad_fn is None and idx.to(torch.float64).grad_fn is None
    assert lin.weight.T.clone().grad_fn is not None  # recording is on


# the receiver may require grad, or ``.indices`` is not a (values, indices) pair's
KEPT = """
import torch
from torch import nn

class GCNConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 4)
        self.weight = nn.Parameter(self.lin.weight.T.clone().detach())

def predictions(prediction_scores):
    a = torch.topk(prediction_scores, k=5, dim=1).values.cpu().detach()
    return a
"""


def test_values_and_weights_stay_reported():
    assert _found(KEPT) == [(9, "TRC103"), (12, "TRC110")]


def test_kept_cases_record_a_node_with_torch():
    lin = nn.Linear(3, 4)
    assert lin.weight.T.clone().grad_fn is not None
    scores = torch.randn(4, 7, requires_grad=True)
    assert torch.topk(scores, k=5, dim=1).values.to(torch.float64).grad_fn is not None
