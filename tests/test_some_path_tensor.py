"""TRC101 where the value is a tensor on some paths and the other paths bind values the
analysis does not know (speechbrain's Tacotron2 guided-attention weight): reported without a
fix, since the claim "there it copy-constructs" holds on the tensor's paths whatever the others
bind; quiet where no path binds a tensor, or where the value was computed anew."""
import textwrap

import pytest
import torch

from flake8_torchcopy import lint_source

HEAD = "import torch\n"


def trc101(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC101"]


REPORTED = [
    """
    def loss(self, epoch, device):
        zero = torch.tensor(0.0, device=device)
        if self.stop is not None and epoch > self.stop:
            w = zero
        else:
            w = self.weight
            if self.scheduler is not None:
                _, w = self.scheduler(epoch)
        return torch.tensor(w, device=device)
    """,
    "def f(c, y):\n    x = torch.zeros(3) if c else y\n    return torch.tensor(x)\n",
    """
    def f(batches):
        acc = 0
        for b in batches:
            acc = torch.zeros(()) if b is None else acc
        return torch.tensor(acc)
    """,
]

QUIET = [
    # no path binds a tensor
    "def f(c, y, z):\n    x = y if c else z\n    return torch.tensor(x)\n",
    # computed anew from the joined value: not the tensor itself
    "def f(c, y):\n    x = torch.zeros(3) if c else y\n    z = x + 1\n    return torch.tensor(z)\n",
    "def f(c, y):\n    x = torch.zeros(3) if c else y\n    x = g(x)\n    return torch.tensor(x)\n",
    # rebound on every path before the call
    "def f(c, y):\n    x = torch.zeros(3) if c else y\n    x = [1.0]\n    return torch.tensor(x)\n",
    # the tensor's path ends before the call
    "def f(c, y):\n    if c:\n        x = torch.zeros(3)\n        return x\n    x = y\n    return torch.tensor(x)\n",
]


@pytest.mark.parametrize("body", REPORTED)
def test_reported_without_fix(body):
    (finding,) = trc101(body)
    assert finding.fix is None and "is a tensor on some paths" in finding.message


@pytest.mark.parametrize("body", QUIET)
def test_quiet(body):
    assert trc101(body) == []


@pytest.mark.verify
def test_the_tensor_path_warns():
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.tensor(torch.tensor(0.0), device="cpu")
    assert any("copy construct from a tensor" in str(w.message) for w in caught)


def trc108(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC108"]


TRC108_REPORTED = [
    # a 0-d tensor on one path, the parameter on the other (monai panoptic_quality's form)
    "def f(x, c, tp, dev):\n    s = torch.sum(x) if c else x\n    return torch.as_tensor([tp, s], device=dev)\n",
    "def f(c, v):\n    s = torch.zeros(()) if c else v\n    return torch.tensor([s, 1.0])\n",
]

TRC108_QUIET = [
    "def f(c, v, w):\n    s = v if c else w\n    return torch.tensor([1.0, s])\n",
    "def f(c, v):\n    s = torch.zeros(()) if c else v\n    return torch.tensor([s.item(), 1.0])\n",
    "def f(c, v):\n    s = torch.zeros(()) if c else v\n    t = float(s)\n    return torch.tensor([t, 1.0])\n",
]


@pytest.mark.parametrize("body", TRC108_REPORTED)
def test_trc108_some_path_reported_without_fix(body):
    (finding,) = trc108(body)
    assert finding.fix is None and "on some paths" in finding.message


@pytest.mark.parametrize("body", TRC108_QUIET)
def test_trc108_some_path_quiet(body):
    assert trc108(body) == []


OTHER_RULES = [
    ("import copy\ndef f(c, v):\n    x = torch.zeros(3) if c else v\n    return copy.deepcopy(x)\n", "TRC105"),
    ("def f(c, v):\n    x = torch.zeros(3) if c else v\n    return torch.Tensor(x)\n", "TRC106"),
]
OTHER_QUIET = [
    "import copy\ndef f(c, v, w):\n    x = v if c else w\n    return copy.deepcopy(x)\n",
    "import copy\ndef f(c, v):\n    x = torch.zeros(3) if c else v\n    return copy.deepcopy([x])\n",
    "def f(c, v, w):\n    x = v if c else w\n    return torch.Tensor(x)\n",
]


@pytest.mark.parametrize("body,code", OTHER_RULES)
def test_deepcopy_and_legacy_constructor_some_path(body, code):
    (finding,) = [f for f in lint_source(HEAD + body) if f.code == code]
    assert finding.fix is None and "a tensor on some paths" in finding.message
    assert "(and not on others)" not in finding.message


@pytest.mark.parametrize("body", OTHER_QUIET)
def test_deepcopy_and_legacy_constructor_quiet(body):
    assert [f.code for f in lint_source(HEAD + body) if f.code in ("TRC105", "TRC106")] == []
