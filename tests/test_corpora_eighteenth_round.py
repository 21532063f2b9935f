"""The eighteenth round of research packages (2026-11-25): recbole, mmhuman3d, bayesian-torch,
mmrazor, deepod, mmselfsup, colbert-ai, stylegan2-pytorch.  Two wrong reports (TRC101), both
on paths the join of an ``if`` invents (:mod:`flake8_torchcopy.analysis.narrowing`, ``note_flags``, ``false_entry``):

- mmhuman3d ``core/post_processing/smooth/smoothnet.py:211``: a string flag set under a type
  test, tested later::

      x_type = 'tensor'
      if not isinstance(x, torch.Tensor):
          x_type = 'array'
      ...
      if x_type == 'array':
          x = torch.tensor(x, ...)

  ``x_type == 'array'`` holds the isinstance test: like a flag holding the test itself, the
  names it narrows are unknown in its branches, not "a tensor on some paths".
- mmhuman3d ``data/datasets/human_pymafx_dataset.py:223``: in a loop, ``if len(v) > 0:`` binds
  a list, and the next statement ``if len(v) < 1 or ...:`` binds another; where the second test
  is false the first was true, so the tensor of the previous iteration never reaches
  ``torch.tensor(center_part)``.  The second ``if``'s false branch now starts from the end of
  the first's body.
"""
import textwrap

import torch
from round_helpers import run_warnings

from flake8_torchcopy import lint_source


def _found(source):
    return sorted((f.line, f.code) for f in lint_source(textwrap.dedent(source)))


_run = run_warnings


# mmhuman3d 0.11.0 core/post_processing/smooth/smoothnet.py:189-212, reduced
SMOOTHNET = """
import torch

def smooth(x):
    x_type = 'tensor'
    if not isinstance(x, torch.Tensor):
        x_type = 'array'
    if x_type == 'array':
        x = torch.tensor(x, dtype=torch.float32)
    return x * 2
"""

# mmhuman3d 0.11.0 data/datasets/human_pymafx_dataset.py:200-228, reduced
PYMAFX = """
import torch

def parts(kps, names):
    out = []
    for name in names:
        valid = kps[name]
        if len(valid) > 0:
            center = [valid[0], valid[1]]
            scale = valid[2]
        # handle invalid part keypoints
        if len(valid) < 1 or scale < 0.01:
            center = [0, 0]
        center = torch.tensor(center).float()
        out.append(center)
    return out
"""


def test_flag_and_complementary_ifs_are_not_reported():
    assert _found(SMOOTHNET) == []
    assert _found(PYMAFX) == []


def test_no_tensor_reaches_the_calls_with_torch():
    for x in ([1.0, 2.0], torch.zeros(2)):
        assert _run(SMOOTHNET, "smooth", x) == []
    kps = {"a": [0.5, 0.5, 1.0], "b": [], "c": [0.1, 0.2, 0.001], "d": [0.3, 0.4, 2.0]}
    assert _run(PYMAFX, "parts", kps, ["a", "b", "c", "d", "a"]) == []


# the flag is not what is tested, or the second test false leaves the first false possible
KEPT = """
import torch

def not_the_flag(x):
    x_type = 'tensor'
    if not isinstance(x, torch.Tensor):
        x_type = 'array'
    if x is None:
        x = torch.zeros(3)
    return torch.tensor(x)

def not_complementary(kps, names):
    out = []
    for name in names:
        valid = kps[name]
        if len(valid) > 1:
            center = [valid[0], valid[1]]
        if len(valid) < 1:
            center = [0, 0]
        center = torch.tensor(center).float()
        out.append(center)
    return out

def rebound_between(kps, names):
    out = []
    for name in names:
        valid = kps[name]
        if len(valid) > 0:
            center = [valid[0], valid[1]]
        valid = kps[name + "2"]
        if len(valid) < 1:
            center = [0, 0]
        center = torch.tensor(center).float()
        out.append(center)
    return out
"""


def test_feasible_paths_stay_reported():
    assert _found(KEPT) == [(10, "TRC101"), (20, "TRC101"), (33, "TRC101")]


def test_kept_cases_copy_construct_with_torch():
    assert any("copy construct" in m for m in _run(KEPT, "not_the_flag", torch.zeros(3)))
    kps = {"a": [0.5, 0.5], "b": [0.5]}
    assert any("copy construct" in m for m in _run(KEPT, "not_complementary", kps, ["a", "b"]))
    kps = {"a": [1, 2], "a2": [], "b": [], "b2": [1]}
    assert any("copy construct" in m for m in _run(KEPT, "rebound_between", kps, ["a", "b"]))
