"""The twelfth round of research packages (2026-11-25): mmagic, pypots, neuraloperator, mmpose,
yolov5, effdet, alphafold3-pytorch, deepxde.  Two safe fixes were wrong (pypots, TRC110 on a row
of an ``isinstance``-narrowed tensor and on ``torch.cat`` of a comprehension of dict values: a
Tensor subclass passes both, and its own ``cpu``/``detach`` need not commute): they are unsafe
now.  What this pins: that, with torch, and that the round's three safe fixes are exact for every
value the code binds there.
"""
import textwrap
import warnings

import numpy
import pytest
import torch

from flake8_torchcopy import fix_source, lint_source

# pypots 1.5 pypots/imputation/lerp/model.py:95-101: X only narrowed by isinstance
LERP = """
import torch

def impute(X, n_steps):
    if isinstance(X, torch.Tensor):
        trans_X = X.permute(0, 2, 1)
        reshaped_X = trans_X.reshape(-1, n_steps)
        for i, univariate_series in enumerate(reshaped_X):
            t = univariate_series.clone().cpu().detach().numpy()
"""

# pypots 1.5 pypots/nn/functional/gathering.py:34-36: the items are dict values from callers
GATHER = """
import torch

def gather(dict_list, k):
    if isinstance(dict_list[0][k], torch.Tensor):
        return torch.cat([d[k] for d in dict_list], dim=0).cpu().detach().numpy()
"""

# the same through a name, appends and a generator; TRC103 on iterated rows
SEQUENCES = """
import torch

def f(a, b, ds, X):
    xs = [a, b]
    p = torch.cat(xs).cpu().detach()
    ys = []
    for d in ds:
        ys.append(d)
    q = torch.stack(ys).cpu().detach()
    r = torch.cat(tuple(d for d in ds)).cpu().detach()
    if isinstance(X, torch.Tensor):
        for row in X:
            s = row.clone().detach()
        rows = [u.clone().detach() for u in X]
"""

# plain tensors stay plain: the fixes stay safe
PLAIN = """
import torch

def f():
    r = torch.zeros(4, 3)
    for u in r:
        t = u.clone().cpu().detach()
    v = torch.cat([torch.ones(2) for _ in range(3)]).cpu().detach()
    xs = [torch.ones(2), torch.zeros(2)]
    w = torch.cat(xs).cpu().detach()
"""


def _found(source):
    return sorted((f.line, f.code, None if f.fix is None else f.fix.safe)
                  for f in lint_source(textwrap.dedent(source)))


def test_rows_of_a_narrowed_tensor_may_be_a_subclass():
    assert _found(LERP) == [(9, "TRC110", False)]


def test_cat_of_unknown_items_may_be_a_subclass():
    assert _found(GATHER) == [(6, "TRC110", False)]


def test_sequences_and_rows_of_unknown_items_are_unsafe():
    assert _found(SEQUENCES) == [(6, "TRC110", False), (10, "TRC110", False), (11, "TRC110", False),
                                 (14, "TRC103", False), (15, "TRC103", False)]


def test_plain_rows_and_sequences_stay_safe():
    assert _found(PLAIN) == [(7, "TRC110", True), (8, "TRC110", True), (10, "TRC110", True)]


class Host:
    """What a packed subclass's cpu() may hand back: not a tensor, its own detach."""

    def __init__(self, t):
        self.t = t

    def detach(self):
        return "host-detached"

    def numpy(self):
        return "host-array"


class Packed(torch.Tensor):
    def cpu(self, *args, **kwargs):
        return Host(torch.Tensor.cpu(self))


def test_the_facts_with_torch():
    """Rows, torch.cat and torch.stack of a subclass are the subclass, and where its cpu()
    is its own, cpu-then-detach and detach-then-cpu differ."""
    x = torch.zeros(2, 3).as_subclass(Packed)
    rows = list(x)
    assert all(type(r) is Packed for r in rows)
    assert type(torch.cat([r for r in rows])) is Packed
    assert type(torch.stack(tuple(r for r in rows))) is Packed
    assert type(torch.zeros(2, 3)[0]) is torch.Tensor
    original = rows[0].clone().cpu().detach()
    fixed = rows[0].clone().detach().cpu()
    assert original == "host-detached" and isinstance(fixed, Host)


# mmagic 1.2.0 mmagic/models/editors/mspie/mspie_stylegan2.py:171-174: a numpy scalar (the
# third positional argument of np.random.choice is `replace`)
MSPIE = """
import numpy as np
import torch

def pick(self):
    chosen_scale = np.random.choice(self.multi_input_scales, 1,
                                    self.multi_scale_probability)[0]
    chosen_scale = torch.tensor(chosen_scale, dtype=torch.int).cuda()
    return chosen_scale
"""

# effdet 0.4.1 effdet/data/loader.py:105-115: mean/std, tuples of numbers from the config
EFFDET = """
import torch

class PrefetchLoader:
    def __init__(self, loader, mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225)):
        self.loader = loader
        self.mean = torch.tensor([x * 255 for x in mean]).cuda().view(1, 3, 1, 1)
        self.std = torch.tensor([x * 255 for x in std]).cuda().view(1, 3, 1, 1)
"""


def test_mspie_fix_is_safe():
    assert _found(MSPIE) == [(8, "TRC112", True)]
    assert 'torch.tensor(chosen_scale, dtype=torch.int, device="cuda")' in fix_source(textwrap.dedent(MSPIE))


def test_effdet_fixes_are_safe():
    assert _found(EFFDET) == [(7, "TRC112", True), (8, "TRC112", True)]
    fixed = fix_source(textwrap.dedent(EFFDET))
    assert 'torch.tensor([x * 255 for x in mean], device="cuda").view(1, 3, 1, 1)' in fixed
    assert 'torch.tensor([x * 255 for x in std], device="cuda").view(1, 3, 1, 1)' in fixed


def _outcome(make):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = make()
    except Exception as e:  # the failure must be the same one
        return type(e).__name__, str(e)
    return t.dtype, t.device, t.shape, t.stride(), repr(t.tolist())  # nan == nan by repr


SCALES = [[4, 8, 16], [0.5, 1.5], [2 ** 40, -3], numpy.array([1e12, -7.9]), [True, False], ["a"]]


@pytest.mark.parametrize("scales", SCALES, ids=range(len(SCALES)))
@pytest.mark.parametrize("replace", [True, False])
@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
def test_mspie_scale_is_the_same_built_there(scales, replace, device):
    """Whatever np.random.choice picks from a config list (ints, floats, out of int32's range,
    bools, strings: those raise both ways), dtype=torch.int then a move, or built there."""
    x = numpy.random.default_rng(0).choice(scales, 1, replace)[0]
    assert _outcome(lambda: torch.tensor(x, dtype=torch.int).to(device)) \
        == _outcome(lambda: torch.tensor(x, dtype=torch.int, device=device))
    if not torch.cuda.is_available():  # both raise the same error on a host without CUDA
        assert _outcome(lambda: torch.tensor(x, dtype=torch.int).cuda()) \
            == _outcome(lambda: torch.tensor(x, dtype=torch.int, device="cuda"))


MEANS = [(0.485, 0.456, 0.406), (0.5,) * 3, (124, 116, 104), [numpy.float32(0.5)] * 3,
         [torch.tensor(0.5)] * 3, (float("nan"), 1e38, -0.0)]


@pytest.mark.parametrize("mean", MEANS, ids=range(len(MEANS)))
@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
def test_effdet_mean_is_the_same_built_there(mean, device):
    """Tuples and lists of numbers (numpy scalars, 0-d tensors too), scaled by 255, then viewed:
    values, dtype and strides agree."""
    assert _outcome(lambda: torch.tensor([x * 255 for x in mean]).to(device).view(1, 3, 1, 1)) \
        == _outcome(lambda: torch.tensor([x * 255 for x in mean], device=device).view(1, 3, 1, 1))
