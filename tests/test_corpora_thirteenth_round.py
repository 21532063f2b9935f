"""The thirteenth round of research packages (2026-11-25): super-gradients, anomalib,
mmsegmentation, mmaction2, mmocr, rfdetr, segment-anything, torchsde.  Seven reports were wrong:

* super-gradients ``training/losses/yolox_loss.py:768``: ``torch.tensor(num_fg / k).to(d)``
  where ``num_fg = torch.scalar_tensor(num_fg).to(d)`` on one path: an arithmetic of a tensor
  is one, and ``torch.tensor`` copies it where it is (TRC101's, not TRC112's);
* the same file, ``:322`` and ``:767``: ``torch.tensor(loss_l1)`` where ``loss_l1 =
  self.l1_loss(...).sum() / num_fg`` and ``self.l1_loss = nn.L1Loss(...)``: a tensor on the
  loss's device.  The class derives from ``torch.nn.modules.loss._Loss`` (now an nn.Module
  base of the attribute summaries) and is decorated by a registry (not followed), so a
  reduction of something not shown a non-tensor now keeps TRC112 quiet too;
* ``training/sg_trainer/sg_trainer.py:2856``: ``torch.randn(s).to(device="cpu")`` is the
  tensor itself; the module's only "default device" evidence was a ``with`` elsewhere
  (``with wait_for_the_master(local_rank)``, ``local_rank`` read from a device string);
* mmsegmentation ``tools/deployment/pytorch2torchscript.py:45-46`` (and 16 rows labelled right
  before: timm, open-clip, mmdet):
  ``module.weight.data.clone().detach()``: ``.data`` never requires grad (TRC103);
* mmocr ``textrecog/postprocessors/attn_postprocessor.py:34``: ``max_idx.cpu().detach()`` of
  the indices of ``torch.max(probs, -1)``: int64, never requires grad (TRC110).

What this pins: each, with torch, and the round's one safe fix (anomalib
``models/video/ai_vad/clip/clip.py:199``, inside ``torch.jit.trace``) exact there.
"""
import textwrap
import warnings

import pytest
import torch
from torch.nn.utils.rnn import pack_padded_sequence

from flake8_torchcopy import fix_source, lint_source
from flake8_torchcopy.analysis import torchapi


def _found(source):
    return sorted((f.line, f.code, None if f.fix is None else f.fix.safe)
                  for f in lint_source(textwrap.dedent(source)))


# super-gradients 3.7.1 training/losses/yolox_loss.py:730-768 (YoloXFastDetectionLoss)
SYNCED = """
import torch

def loss(self, matched_gt_ids, flattened_gts, transformed_outputs):
    num_gts_clamped = max(flattened_gts.shape[0], 1)
    num_fg = max(matched_gt_ids.shape[0], 1)
    if self.sync_num_fgs:
        num_fg = torch.scalar_tensor(num_fg).to(matched_gt_ids.device)
    return torch.tensor(num_fg / num_gts_clamped).unsqueeze(0).to(transformed_outputs.device)
"""

# the same file, l. 85-140 and 308-322, less the registry decorator
L1 = """
import torch
from torch import nn
from torch.nn.modules.loss import _Loss

class YoloXDetectionLoss(BASE):
    def __init__(self, use_l1):
        super().__init__()
        self.use_l1 = use_l1
        self.l1_loss = nn.L1Loss(reduction="none")

    def _compute_loss(self, raw_outputs, fg_masks, l1_targets, num_fg, loss):
        if self.use_l1:
            loss_l1 = self.l1_loss(raw_outputs.view(-1, 4)[fg_masks], l1_targets).sum() / num_fg
        else:
            loss_l1 = 0.0
        return torch.tensor(loss_l1).unsqueeze(0).to(loss.device)
"""

# with it: the class is not followed, the reduction of what self.l1_loss returns is enough
DECORATED = """
import numpy as np
import torch
from torch import nn
from torch.nn.modules.loss import _Loss

@register_loss(name="yolox_loss")
class YoloXDetectionLoss(_Loss):
    def __init__(self):
        super().__init__()
        self.l1_loss = nn.L1Loss(reduction="none")

    def _compute_loss(self, raw_outputs, l1_targets, num_fg, loss, use_l1):
        if use_l1:
            loss_l1 = self.l1_loss(raw_outputs, l1_targets).sum() / num_fg
        else:
            loss_l1 = 0.0
        a = torch.tensor(loss_l1).unsqueeze(0).to(loss.device)
        b = torch.tensor(np.zeros(3).sum()).to("cuda")
        return a, b
"""


def test_arithmetic_of_a_tensor_on_a_path_is_not_trc112():
    # l. 9 stays quiet; l. 8 is torch.scalar_tensor(int) built on the host, then moved (a
    # factory since tests/test_trc112_scalar_tensor.py): reported, no fix (the device is a name's)
    assert _found(SYNCED) == [(8, "TRC112", None)]


@pytest.mark.parametrize("base", ["nn.Module", "_Loss", "nn.modules.loss._WeightedLoss"])
def test_loss_bases_are_modules_for_the_summaries(base):
    assert _found(L1.replace("BASE", base)) == [(17, "TRC101", None)]


def test_a_reduction_of_an_unknown_keeps_trc112_quiet():
    """Of a numpy array the reduction is a numpy scalar: still reported (safe fix)."""
    assert _found(DECORATED) == [(19, "TRC112", True)]


def test_the_loss_facts_with_torch():
    """_Loss and _WeightedLoss define nothing but __init__, hold nn.Module's attributes and
    what LOSS_ATTRIBUTES names, and intercept no attribute access of their own."""
    from torch.nn.modules.loss import _Loss, _WeightedLoss

    for cls in (_Loss, _WeightedLoss):
        assert {n for n in vars(cls) if not (n.startswith("__") and n.endswith("__"))} == set()
        assert cls.__setattr__ is torch.nn.Module.__setattr__
        assert cls.__getattr__ is torch.nn.Module.__getattr__
        held = set(dir(cls())) | set(vars(cls()))
        assert {n for n in held if not (n.startswith("__") and n.endswith("__"))} \
            <= torchapi.MODULE_ATTRIBUTES | torchapi.LOSS_ATTRIBUTES | {"weight"}
    assert {f"{c.__module__}.{c.__name__}" for c in (_Loss, _WeightedLoss)} == set(torchapi.LOSS_BASES)
    assert set(vars(_Loss())) - set(vars(torch.nn.Module())) == {"reduction"}


def test_the_tensor_is_built_where_the_operand_is():
    """torch.tensor(t / k) of a tensor t copies it on t's device (meta: no host build)."""
    t = torch.scalar_tensor(3.0, device="meta")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.tensor(t / 2).device.type == "meta"
        assert torch.tensor(torch.nn.L1Loss(reduction="none")(t, t).sum() / 2).device.type == "meta"


# super-gradients training/sg_trainer/sg_trainer.py:457 and 1787 (a with elsewhere), 2856
REMOTE_WITH = """
import torch

def wrap(device_config):
    local_rank = int(device_config.device.split(":")[1])
    with wait_for_the_master(local_rank):
        pass

def export(shape):
    return torch.randn(shape).to(device="cpu")
"""


def test_to_cpu_with_a_device_context_elsewhere_is_quiet():
    assert _found(REMOTE_WITH) == []
    # a setter the text names, or a with around it, keeps it reported (unsafe)
    assert _found(REMOTE_WITH + "torch.set_default_device('meta')\n") == [(10, "TRC112", None)]
    around = REMOTE_WITH.replace("    return torch.randn", "    with torch.device('meta'):\n        return torch.randn")
    assert _found(around) == [(11, "TRC112", None)]


def test_to_cpu_of_a_host_tensor_is_itself():
    t = torch.randn(3)
    assert t.to(device="cpu") is t


# mmsegmentation 1.2.2 tools/deployment/pytorch2torchscript.py:38-46
DATA = """
import torch

def _convert_batchnorm(module, ps):
    module_output = module
    if isinstance(module, torch.nn.SyncBatchNorm):
        module_output = torch.nn.BatchNorm2d(module.num_features)
        if module.affine:
            module_output.weight.data = module.weight.data.clone().detach()
            module_output.bias.data = module.bias.data.clone().detach()
    w = ps.data
    return w.clone().detach(), ps.clone().detach()
"""


def test_data_is_grad_free():
    assert _found(DATA) == [(12, "TRC103", False)]


def test_data_facts_with_torch():
    """A parameter's (or any tensor's) .data never requires grad and its clone records no node;
    a PackedSequence's .data may (a miss the analysis accepts)."""
    p = torch.nn.Parameter(torch.randn(3))
    y = p * 2
    for t in (p, y, torch.nn.BatchNorm2d(3).weight):
        assert not t.data.requires_grad and t.data.clone().grad_fn is None
    packed = pack_padded_sequence(torch.randn(3, 2, 4, requires_grad=True), [3, 2])
    assert packed.data.requires_grad


# mmocr 1.0.1 textrecog/postprocessors/attn_postprocessor.py:32-35
INDICES = """
import torch

def get_single_prediction(probs, a, b):
    max_value, max_idx = torch.max(probs, -1)
    output_index = max_idx.cpu().detach().numpy().tolist()
    output_score = max_value.cpu().detach().numpy().tolist()
    m, i = probs.max(dim=1)
    s, j = torch.sort(probs)
    v, k = probs.topk(3)
    x = (i.clone().detach(), j.clone().detach(), k.clone().detach())
    e, f = torch.max(a, b)
    g, h = probs.median()
    return f.clone().detach(), h.clone().detach()
"""


def test_indices_are_grad_free():
    """Only the values are reported; the rows of an elementwise max and of a median without a
    dim are not indices."""
    assert _found(INDICES) == [(7, "TRC110", False), (14, "TRC103", False), (14, "TRC103", False)]


def test_indices_facts_with_torch():
    x = torch.randn(4, 5, requires_grad=True)
    for values, indices in (torch.max(x, -1), x.max(dim=1), torch.min(x, 0), torch.sort(x), x.topk(3),
                            torch.kthvalue(x, 2), torch.mode(x, 1), x.median(1), x.nanmedian(dim=0),
                            torch.cummax(x, 1), x.cummin(0)):
        assert values.requires_grad and indices.dtype == torch.int64 and not indices.requires_grad
    e, f = torch.max(x[:2], torch.zeros(2, 5))  # elementwise: rows, which require grad
    assert f.requires_grad
    assert torch.max(x).dim() == 0 and x.median().dim() == 0  # no dim: one tensor


# anomalib 2.7.0 models/video/ai_vad/clip/clip.py:141-200 (OpenAI CLIP's device patch)
CLIP = """
import torch

def load(name, device="cuda" if torch.cuda.is_available() else "cpu", jit=False):
    device_holder = torch.jit.trace(lambda: torch.ones([]).to(torch.device(device)), example_inputs=[])
    device_node = [n for n in device_holder.graph.findAllNodes("prim::Constant") if "Device" in repr(n)][-1]
    return device_node
"""


def test_clip_fix_is_safe():
    assert _found(CLIP) == [(5, "TRC112", True)]
    assert "lambda: torch.ones([], device=torch.device(device))" in fix_source(textwrap.dedent(CLIP))


def _device_node(make):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            holder = torch.jit.trace(make, example_inputs=[])
    except Exception as e:  # the failure must be the same one
        return type(e).__name__
    node = [n for n in holder.graph.findAllNodes("prim::Constant") if "Device" in repr(n)][-1]
    kind = node.kindOf("value")
    return node.attributeNames(), kind, getattr(node, kind)("value"), holder().device, holder().dtype


DEVICES = ["cpu", torch.device("cpu"), "meta", "cpu:0", pytest.param("cuda", marks=pytest.mark.cuda),
           pytest.param(torch.device("cuda", 0), marks=pytest.mark.cuda)]


@pytest.mark.parametrize("device", DEVICES, ids=str)
def test_clip_device_node_is_the_same(device):
    """What the code reads from the traced graph (its last Device constant, whose attributes
    it copies into the model's graphs) and what the trace returns agree, for a device string
    or a torch.device."""
    assert _device_node(lambda: torch.ones([]).to(torch.device(device))) \
        == _device_node(lambda: torch.ones([], device=torch.device(device)))


def test_clip_cuda_without_cuda_fails_alike():
    if torch.cuda.is_available():
        pytest.skip("a host with CUDA: the cuda cases run above")
    assert _device_node(lambda: torch.ones([]).to(torch.device("cuda"))) \
        == _device_node(lambda: torch.ones([], device=torch.device("cuda")))
