"""The wrong report found reading the sixth round of research packages (2026-11-25), now
quiet (``benchmarks/labels.csv``, "wrong"): TRC103 on the ``.clone().detach()`` of a name on
which the function calls a method no tensor has (:mod:`flake8_torchcopy.analysis.foreignmethods`).
"""
import textwrap

import torch

from flake8_torchcopy import lint_source

# torchrl 0.14.1 sota-implementations/decision_transformer/utils.py:329-331: a slice of a
# replay buffer is a TensorDict; ``del_`` is one of its methods, not a tensor's.
TENSORDICT_SLICE = """
def make_online_replay_buffer(offline_buffer, replay_buffer):
    offline_data = offline_buffer[:100000]
    offline_data.del_("index")
    replay_buffer.extend(offline_data.clone().detach().to_tensordict())
"""


def test_a_tensor_has_no_del_method():
    assert not hasattr(torch.Tensor, "del_")
    assert not hasattr(torch.zeros(1), "del_")


def test_clone_detach_of_a_receiver_with_a_non_tensor_method_is_quiet():
    codes = [f.code for f in lint_source(textwrap.dedent(TENSORDICT_SLICE))]
    assert "TRC103" not in codes


def test_every_public_tensor_method_is_known_so_another_is_foreign():
    """What the quiet rests on: every public callable of torch.Tensor is in the generated
    tables, so a method outside them is one no tensor has."""
    from flake8_torchcopy.analysis.foreignmethods import TENSOR_METHOD_NAMES

    public = {n for n in dir(torch.Tensor) if not n.startswith("_") and callable(getattr(torch.Tensor, n, None))}
    assert public <= TENSOR_METHOD_NAMES
    assert "del_" not in TENSOR_METHOD_NAMES and "to_tensordict" not in TENSOR_METHOD_NAMES


def test_a_tensor_method_called_on_the_receiver_keeps_the_report():
    source = TENSORDICT_SLICE.replace('offline_data.del_("index")', "offline_data.numpy()")
    codes = [f.code for f in lint_source(textwrap.dedent(source))]
    assert "TRC103" in codes
