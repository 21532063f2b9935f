"""The tenth round of research packages (2026-11-25): torch-geometric-temporal, skrl, d3rlpy,
nnunetv2, vector-quantize-pytorch, neuralforecast, pykeen, coqui-tts.  Every report read was
right (``benchmarks/labels.csv``); what this pins is the fixes the round checked: the one safe
fix (coqui-tts) is exact for every value the code there binds, the others stay what they are.
"""
import os
import textwrap

import numpy
import pytest
import torch

from flake8_torchcopy import fix_source, lint_source

# coqui-tts 0.28.0 TTS/tts/layers/bark/hubert/tokenizer.py:170-189: x and y are what
# numpy.load returns for the files of a folder named *_semantic.npy / *_semantic_features.npy.
HUBERT = """
import os
import numpy
import torch

def auto_train(ready, model_training):
    data_x, data_y = [], []
    for input_file in os.listdir(ready):
        full_path = os.path.join(ready, input_file)
        if input_file.endswith("_semantic.npy"):
            data_y.append(numpy.load(full_path))
        elif input_file.endswith("_semantic_features.npy"):
            data_x.append(numpy.load(full_path))
    for j, (x, y) in enumerate(zip(data_x, data_y)):
        model_training.train_step(
            torch.tensor(x).to("cuda"), torch.tensor(y).to("cuda"), j % 50 == 0
        )
"""

# skrl 2.1.1 skrl/agents/torch/ppo/ppo.py:365-453: approximate KL divergences, 0-d tensors
# computed under no_grad, made a tensor on the agent's device.
SKRL = """
import torch

def update(self, batches):
    kl_divergences = []
    for next_log_prob, sampled_log_prob in batches:
        with torch.no_grad():
            ratio = next_log_prob - sampled_log_prob
            kl_divergence = ((torch.exp(ratio) - 1) - ratio).mean()
            kl_divergences.append(kl_divergence)
    return torch.tensor(kl_divergences, device=self.device).mean()
"""

# coqui-tts 0.28.0 TTS/tts/models/base_tts.py:232-233: a float host factory cast to the
# dtype of torch.unique's counts; the size is an item of a parameter.
BASE_TTS = """
import torch

def durations(am, text_lengths, idx):
    c_idxs, counts = torch.unique(am.max(1)[1], return_counts=True)
    dur = torch.ones([text_lengths[idx]]).to(counts.dtype)
    return dur
"""


def _found(source):
    return sorted((f.line, f.code, None if f.fix is None else f.fix.safe)
                  for f in lint_source(textwrap.dedent(source)))


def test_hubert_arrays_moved_to_cuda_have_safe_fixes():
    assert _found(HUBERT) == [(16, "TRC112", True), (16, "TRC112", True)]
    fixed = fix_source(textwrap.dedent(HUBERT))
    assert 'torch.tensor(x, device="cuda"), torch.tensor(y, device="cuda"), j % 50 == 0' in fixed


def _outcome(make):
    try:
        t = make()
    except Exception as e:  # the failure must be the same one
        return type(e).__name__, str(e)
    return t.dtype, t.device, t.shape, t.tolist()


NPY_VALUES = {
    "float32": numpy.arange(6, dtype=numpy.float32).reshape(2, 3),
    "int64": numpy.arange(4, dtype=numpy.int64),
    "uint16": numpy.arange(3, dtype=numpy.uint16),
    "uint64": numpy.arange(3, dtype=numpy.uint64),
    "float16": numpy.ones(2, dtype=numpy.float16),
    "bool": numpy.array([True, False]),
    "0-d": numpy.ones(()),
    "transposed": numpy.arange(6.0).reshape(2, 3).T,
    "object": numpy.array([1, "a"], dtype=object),
    "structured": numpy.zeros(2, dtype=[("a", "i4")]),
    "big-endian": numpy.zeros(2, dtype=">f4"),
    "str": numpy.array(["a"]),
}


@pytest.mark.parametrize("name", sorted(NPY_VALUES))
@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
def test_device_keyword_is_exact_for_what_numpy_load_returns(name, device, tmp_path):
    """Each value saved and loaded as the code does (numpy.load, allow_pickle off); the fix's
    device is "cuda" there: on a host without CUDA both forms raise the same error."""
    path = os.path.join(tmp_path, "a_semantic.npy")
    try:
        numpy.save(path, NPY_VALUES[name], allow_pickle=True)
        loaded = numpy.load(path)
    except ValueError:  # an object array does not load without pickles: never reaches torch
        loaded = NPY_VALUES[name]
    assert _outcome(lambda: torch.tensor(loaded).to(device)) \
        == _outcome(lambda: torch.tensor(loaded, device=device))
    if not torch.cuda.is_available():
        assert _outcome(lambda: torch.tensor(loaded).to("cuda")) \
            == _outcome(lambda: torch.tensor(loaded, device="cuda"))


def test_an_npz_file_under_a_npy_name_fails_alike(tmp_path):
    """numpy.load reads the content, not the name: a zip gives an NpzFile, which both reject."""
    path = os.path.join(tmp_path, "b_semantic.npy")
    with open(path, "wb") as fh:
        numpy.savez(fh, a=numpy.zeros(2))
    loaded = numpy.load(path)
    assert not isinstance(loaded, numpy.ndarray)
    assert _outcome(lambda: torch.tensor(loaded).to("cuda")) \
        == _outcome(lambda: torch.tensor(loaded, device="cuda"))
    loaded.close()


def test_skrl_divergences_reported_without_a_fix():
    """device= given: torch.stack would keep the items' device, not take self.device."""
    assert _found(SKRL) == [(11, "TRC108", None)]


def test_stack_of_zero_dim_divergences_agrees_with_the_tensor():
    kls = [torch.tensor(0.125), torch.tensor(0.5), torch.tensor(0.25)]
    before, after = torch.tensor(kls, device="cpu").mean(), torch.stack(kls).mean()
    assert torch.equal(before, after) and before.dtype == after.dtype


def test_base_tts_cast_of_a_host_factory_is_reported_without_a_fix():
    assert _found(BASE_TTS) == [(6, "TRC112", None)]
