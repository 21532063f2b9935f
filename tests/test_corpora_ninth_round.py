"""The ninth round of research packages (2026-11-25): demucs, gpytorch, mace-torch, sbi, zuko,
chemprop, nequip, sentence-transformers, peft.  One report was wrong (peft
``tuners/cpt/model.py:184``, TRC103 on the clone of a bool mask, which never requires grad):
comparisons and integer or bool casts are now grad-free (``analysis/gradfree.py``).  What this
also pins: the unsafe fixes the round checked stay unsafe for the reason they are.
"""
import textwrap

import pytest
import torch

from flake8_torchcopy import lint_source

# peft 0.21.2 peft/tuners/cpt/model.py:170-184: labels a parameter (stays reported: a
# parameter may require grad), the mask a comparison cast to bool.
CPT_LOSS = """
import torch

def cpt_loss(base_model_output, labels):
    labels = labels.to(base_model_output.logits.device)
    shift_labels = labels[..., 1:].contiguous()
    shift_labels_bool = (shift_labels.clone().detach() != -100).bool()
    shift_labels_weights = shift_labels_bool.clone().detach().float()
    return shift_labels_weights
"""


def _reports(src, code):
    return [f.line for f in lint_source(textwrap.dedent(src)) if f.code == code]


W = torch.randn(4, 3, requires_grad=True)
GRAD_FREE = {
    "!=": lambda: W != -100,
    "== then bool": lambda: (W == 0).bool(),
    "< chained": lambda: (W < W),
    "long": lambda: W.long(),
    "int": lambda: W.int(),
    "short": lambda: W.short(),
    "byte": lambda: W.byte(),
    "char": lambda: W.char(),
    "bool": lambda: W.bool(),
}


@pytest.mark.parametrize("form", sorted(GRAD_FREE))
def test_torch_comparisons_and_integral_casts_never_require_grad(form):
    t = GRAD_FREE[form]()
    assert not t.requires_grad and t.clone().grad_fn is None
    assert W.clone().grad_fn is not None  # recording is on
    with pytest.raises(RuntimeError, match="floating point"):
        t.requires_grad_()  # and nothing can make them


def test_cpt_mask_clone_is_quiet_the_labels_clone_stays():
    assert _reports(CPT_LOSS, "TRC103") == [7]


@pytest.mark.parametrize("expr", [
    "(w != -100)", "(w >= 0)", "(0 < w <= 1)", "w.long()", "w.bool()", "(w > 0).int()",
    "w.float().short()", "w.byte()", "w.char()",
])
def test_comparisons_and_integral_casts_are_quiet(expr):
    src = f"import torch\nw = torch.randn(3, requires_grad=True)\ny = {expr}.clone().detach()\n"
    assert _reports(src, "TRC103") == []


@pytest.mark.parametrize("expr", [
    "w.float()", "w.double()", "w.long(1)", "(w + 1)", "w.to(torch.long)",
])
def test_other_forms_stay_reported(expr):
    """Float casts keep the graph; ``long(1)`` is not the cast (an unknown method);
    ``.to(dtype)`` is not followed (a choice: it may be a device)."""
    src = f"import torch\nw = torch.randn(3, requires_grad=True)\ny = {expr}.clone().detach()\n"
    assert _reports(src, "TRC103") == [3]


def test_a_bool_mask_name_changed_in_place_stays_reported():
    src = """
    import torch
    def f(w):
        m = (w != 0).bool()
        m.logical_not_()
        return m.clone().detach()
    """
    assert _reports(src, "TRC103") == [6]
