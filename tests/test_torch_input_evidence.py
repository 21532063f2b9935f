"""A name passed first to a torch function that takes only tensors there (``torch.isnan(x)``)
is a tensor once the call has run: checked with torch for every such function, and used by
the rules (``torch.tensor(v, dtype=x.dtype).to(x.device)``: the device of a tensor)."""
import textwrap

import numpy as np
import pytest
import torch

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis.torchapi import TENSOR_INPUT_FUNCTIONS, TENSOR_ONLY_KEYWORDS

HEAD = "import math\nimport numpy as np\nimport torch\n"


def codes(body):
    return [(f.code, f.fix is not None and f.fix.safe) for f in lint_source(HEAD + textwrap.dedent(body))]


REPORTED = [
    # segmentation_models_pytorch's _handle_zero_division: x.device is the device of a tensor
    ("""
    def f(x, zero_division):
        nans = torch.isnan(x)
        value = torch.tensor(zero_division, dtype=x.dtype).to(x.device)
        return torch.where(nans, value, x)
    """, ("TRC112", False)),  # unsafe: x may be a subclass, whose .device may be its own
    ("def f(x):\n    ok = torch.any(x)\n    return torch.tensor(x)\n", ("TRC101", False)),
    ("def f(x):\n    s = torch.sum(x)\n    return x.cpu().detach()\n", ("TRC110", False)),
]

QUIET = [
    # not evidence: a call that may not have run, numpy's and math's functions, a keyword
    """
    def f(x, c):
        if c:
            torch.isnan(x)
        return torch.tensor(1.0, dtype=x.dtype).to(x.device)
    """,
    "def f(x, c):\n    y = torch.isnan(x) if c else None\n    return torch.ones(3, dtype=torch.int).to(x.device)\n",
    "def f(x):\n    np.isnan(x)\n    return torch.ones(3, dtype=torch.int).to(x.device)\n",
    "def f(x):\n    math.isnan(x)\n    return torch.tensor(x)\n",
    "def f(x):\n    torch.isnan(input=x)\n    return torch.tensor(x)\n",
    # a function that takes numbers too, or that the table does not list
    "def f(x):\n    torch.tensor(x)\n    return torch.ones(3, dtype=torch.int).to(x.device)\n",
    "def f(x):\n    torch.as_tensor(x)\n    return torch.tensor(x)\n",
    "def f(x):\n    torch.pow(x, 2)\n    return torch.tensor(x)\n",
    # evidence for the first argument only
    "def f(x, d):\n    torch.sum(x, d)\n    return torch.tensor(d)\n",
    # x.shape unpacked and tensor indices: what an ndarray does too (monai's _masking)
    "def f(x):\n    b, n, _ = x.shape\n    return torch.ones(b, n, dtype=torch.int).to(x.device)\n",
]


@pytest.mark.parametrize("body,expected", REPORTED)
def test_reported(body, expected):
    assert expected in codes(body)


@pytest.mark.parametrize("body", QUIET)
def test_quiet(body):
    assert codes(body) == []


NOT_TENSORS = [3.0, 2, True, None, np.float32(3.0), np.zeros((2, 2)), [1.0, 2.0], (1, 2), "x"]


@pytest.mark.verify
@pytest.mark.parametrize("name", sorted(TENSOR_INPUT_FUNCTIONS))
def test_function_rejects_every_non_tensor_first_argument(name):
    fn = getattr(torch, name)
    for value in NOT_TENSORS:
        for rest in ((), (0,), (0, 1), ([0, 1],)):
            with pytest.raises(TypeError):
                fn(value, *rest)
    fn(torch.zeros(2, 2), *((0, 1) if name == "transpose" else ((1, 0),) if name == "permute"
                            else (0,) if name == "unsqueeze" else ()))


# ------------------------------------------------ keywords only Tensor's methods take

KEYWORD_REPORTED = [
    # speechbrain's kmeans: feats = ssl_model(...)[n].flatten(end_dim=-2); feats.to("cpu").detach()
    ("def f(model, wavs, n):\n    feats = model(wavs)[n].flatten(end_dim=-2)\n"
     "    return feats.to('cpu').detach().numpy()\n", "TRC110"),
    ("def f(x):\n    m = x.sum(1, keepdim=True)\n    return torch.tensor(x)\n", "TRC101"),
    ("def f(x):\n    return torch.tensor(x.mean(-1, keepdim=True))\n", "TRC101"),
]

KEYWORD_QUIET = [
    # numpy's own keywords, or none: ndarray.flatten(order=...), a.sum(axis=1, keepdims=True)
    "def f(model, wavs):\n    feats = model(wavs).flatten(order='C')\n    return feats.to('cpu').detach()\n",
    "def f(x):\n    m = x.sum(axis=1, keepdims=True)\n    return torch.tensor(x)\n",
    "def f(x):\n    m = x.flatten()\n    return torch.tensor(x)\n",
    "def f(x, c):\n    n = x.flatten(start_dim=1) if c else None\n    return torch.tensor(x)\n",
    # a method of the same keyword but another name
    "def f(x):\n    m = x.reduce(keepdim=True)\n    return torch.tensor(x)\n",
]


@pytest.mark.parametrize("body,code", KEYWORD_REPORTED)
def test_tensor_only_keyword_is_evidence(body, code):
    assert code in [c for c, _ in codes(body)]


def test_evidence_in_a_branch_is_a_tensor_on_that_path_only():
    body = "def f(x, c):\n    if c:\n        x.flatten(start_dim=1)\n    return torch.tensor(x)\n"
    (finding,) = lint_source(HEAD + body)
    assert finding.fix is None and "a tensor on some paths" in finding.message


@pytest.mark.parametrize("body", KEYWORD_QUIET)
def test_other_keywords_are_not(body):
    assert codes(body) == []


@pytest.mark.verify
@pytest.mark.parametrize("method,keyword", sorted((m, k) for m, ks in TENSOR_ONLY_KEYWORDS.items() for k in ks))
def test_keyword_is_tensors_only(method, keyword):
    args, kw = ((1,), {"keepdim": True}) if keyword == "keepdim" else ((), {keyword: 1})
    t = torch.rand(2, 3, 4)
    getattr(t > 0.5 if method in ("any", "all") else t, method)(*args, **kw)  # torch takes it
    a = np.zeros((2, 3, 4))
    if hasattr(a, method):
        with pytest.raises(TypeError):
            getattr(a, method)(*args, **kw)
    for other in (torch.nn.Linear(2, 2), [], (), {}, "", 1.0, np.float32(1.0)):
        assert not hasattr(other, method) or isinstance(other, np.generic)
        if hasattr(other, method):
            with pytest.raises(TypeError):
                getattr(other, method)(*args, **kw)
