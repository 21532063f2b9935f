"""The sixteenth round of research packages (2026-11-25): dgllife, mmflow, mmrotate, mmyolo,
open-flamingo, pytorch-nlp, salesforce-lavis, torchkbnufft.  No report was wrong and no fix
was safe, so this pins the round's judgments with torch:

* the views after a permute in mmrotate (``rotated/oriented/sam_reppoints_head.py``,
  ``dense_heads/utils.py:74``) and mmflow (``gma_decoder.py:136``) are legal and not reported;
* the fixes that stay unsafe must: open-flamingo ``eval/utils.py:75`` (TRC108: ``torch.stack``
  of an empty list raises where ``torch.tensor([])`` does not), mmrotate ``gmm.py:62``
  (TRC111: the result becomes a leaf), the refine heads' ``clone().detach()`` of items of a
  list held on ``self`` (TRC103: not proven tensors);
* dgllife ``schnet.py:53`` (TRC103 of a ``requires_grad=False`` parameter) is right:
  ``Module.requires_grad_()`` turns the parameter on, and the clone then records a node.
"""
import textwrap

import pytest
import torch

from flake8_torchcopy import lint_source


def _found(source):
    return sorted((f.line, f.code, None if f.fix is None else f.fix.safe)
                  for f in lint_source(textwrap.dedent(source)))


# mmrotate 0.3.4 models/dense_heads/rotated_reppoints_head.py:274-281 (oriented_reppoints_head
# .py:317 and sam_reppoints_head.py:284 are the same), dense_heads/utils.py:68-74, mmflow 0.5.2
# models/decoders/gma_decoder.py:120-137
VIEWS = """
import torch
import torch.nn as nn

class Head(nn.Module):
    def __init__(self, num_points, heads, head_channels):
        super().__init__()
        self.num_points = num_points
        self.heads = heads
        self.head_channels = head_channels
        self.conv = nn.Conv2d(4, 2 * num_points, 1)
        self.to_qk = nn.Conv2d(4, 2 * heads * head_channels, 1)

    def offsets(self, x):
        pred = self.conv(x)
        pts = []
        for i_img in range(x.shape[0]):
            pts_shift = pred[i_img]
            yx_pts_shift = pts_shift.permute(1, 2, 0).view(-1, 2 * self.num_points)
            pts.append(yx_pts_shift)
        return pts

    def levels(self, mlvl_tensor, batch_size, channels):
        out = []
        for t in mlvl_tensor:
            t = t.permute(0, 2, 3, 1)
            t = t.view(batch_size, -1, channels).contiguous()
            out.append(t)
        return out

    def attention(self, x):
        B, _, H, W = x.shape
        q, k = torch.split(self.to_qk(x), [self.heads * self.head_channels] * 2, dim=1)
        q = q.view(B, self.heads, self.head_channels, H, W).permute(0, 1, 3, 4, 2)
        k = k.view(B, self.heads, self.head_channels, -1)
        return torch.matmul(q.view(B, self.heads, -1, self.head_channels), k)
"""


def test_views_after_permute_are_not_reported():
    assert [f for f in _found(VIEWS) if f[1] == "TRC201"] == []


def test_views_after_permute_are_legal_with_torch():
    ns = {}
    exec(compile(textwrap.dedent(VIEWS), "views", "exec"), ns)
    head = ns["Head"](9, 2, 3)
    x = torch.randn(2, 4, 5, 7)
    assert [p.shape for p in head.offsets(x)] == [torch.Size([35, 18])] * 2
    levels = head.levels([torch.randn(2, 6, 5, 7), torch.randn(2, 6, 3, 4)], 2, 6)
    assert [t.shape for t in levels] == [torch.Size([2, 35, 6]), torch.Size([2, 12, 6])]
    assert head.attention(x).shape == torch.Size([2, 2, 35, 35])


# open-flamingo 2.0.1 eval/utils.py:65-75
UNIQUE = """
import torch

def get_indices_of_unique(x):
    unique_elements = torch.unique(x)
    first_indices = []
    for v in unique_elements:
        indices = torch.where(x == v)[0]
        first_indices.append(indices[0])
    return torch.tensor(first_indices)
"""


def test_unique_indices_fix_is_unsafe():
    assert _found(UNIQUE) == [(10, "TRC108", False)]


def test_unique_indices_fix_differs_on_an_empty_input():
    x = torch.tensor([3, 1, 3, 2])
    firsts = [torch.where(x == v)[0][0] for v in torch.unique(x)]
    assert torch.equal(torch.tensor(firsts), torch.stack(firsts).detach())
    empty = [torch.where(x == v)[0][0] for v in torch.unique(x[:0])]
    assert torch.tensor(empty).dtype == torch.float32 and torch.tensor(empty).numel() == 0
    with pytest.raises(RuntimeError):
        torch.stack(empty)


# mmrotate 0.3.4 core/bbox/utils/gmm.py:62-64
GMM = """
import torch

class GaussianMixture:
    def _init_params(self):
        self.mu = torch.randn(
            (self.T, self.n_components, self.n_features),
            requires_grad=True).cuda()
"""


def test_gmm_leaf_lost_fix_is_unsafe():
    assert _found(GMM) == [(6, "TRC111", False)]


def test_moved_factory_is_not_a_leaf():
    """CPU stand-in for .cuda(): a conversion of a requires_grad factory is not a leaf; its
    .grad stays None, and the fix's result (converted, then requires_grad_) is a leaf."""
    mu = torch.randn((2, 3, 4), requires_grad=True).double()
    assert not mu.is_leaf
    mu.sum().backward()
    with pytest.warns(UserWarning, match="not a leaf"):
        assert mu.grad is None
    fixed = torch.randn((2, 3, 4)).double().requires_grad_()
    fixed.sum().backward()
    assert fixed.is_leaf and fixed.grad is not None


# mmrotate 0.3.4 models/dense_heads/odm_refine_head.py:143 (and the three other refine heads)
REFINE = """
import torch.nn as nn

class Head(nn.Module):
    def get_anchors(self):
        anchor_list = [[
            bboxes_img_lvl.clone().detach() for bboxes_img_lvl in bboxes_img
        ] for bboxes_img in self.bboxes_as_anchors]
        return anchor_list
"""


def test_refine_head_fix_is_unsafe():
    assert _found(REFINE) == [(7, "TRC103", False)]


# dgllife 0.3.2 model/gnn/schnet.py:36-54
SCHNET = """
import numpy as np
import torch
import torch.nn as nn

class RBFExpansion(nn.Module):
    def __init__(self, low=0., high=30., gap=0.1):
        super().__init__()
        num_centers = int(np.ceil((high - low) / gap))
        self.centers = np.linspace(low, high, num_centers)
        self.centers = nn.Parameter(torch.tensor(self.centers).float(), requires_grad=False)
        self.gamma = 1 / gap

    def reset_parameters(self):
        device = self.centers.device
        self.centers = nn.Parameter(
            self.centers.clone().detach().float(), requires_grad=False).to(device)
"""


def test_frozen_parameter_clone_is_reported():
    assert _found(SCHNET) == [(17, "TRC103", False)]


def test_frozen_parameter_can_be_turned_on():
    ns = {}
    exec(compile(textwrap.dedent(SCHNET), "schnet", "exec"), ns)
    m = ns["RBFExpansion"](high=1.0)
    assert m.centers.clone().grad_fn is None
    m.requires_grad_(True)
    assert m.centers.requires_grad
    assert type(m.centers.clone().grad_fn).__name__ == "CloneBackward0"
    m.reset_parameters()
    assert not m.centers.requires_grad
