"""Review 17: ``analysis/attrnarrowing.py`` (``assert torch.is_tensor(self.a)`` makes ``self.a``
a tensor on the later statements of its block) kept the fact over code that rebinds the
attribute where the text shows no store of it:

* a store through ``d = vars(self)`` taken before the assert (``d["a"] = x``, ``d |= {...}``);
* a tensor method handed an object whose ``__torch_function__`` runs (as a torch function
  does, which the module already drops the fact for), or a method that runs Python code by
  design (``backward()``'s hooks, ``apply_(f)``);
* a store into a subscript, whose ``__setitem__`` may run code;
* a tensor method where the module replaces tensors' methods (``torch.Tensor.abs = f``).

Each is run: ``self.a`` holds a list when ``torch.tensor(self.a)`` runs (no copy-construct
warning), so the TRC101 report was wrong.  And ``rules/_trc112_computed.py`` followed
``t.sqrt()`` where the module replaces ``torch.Tensor.sqrt`` (it already stepped aside for
``torch.log2 = f``): run, the moved tensor was never computed on the host.
"""
import textwrap

import pytest
import torch
from round_helpers import run_warnings

from flake8_torchcopy import lint_source

HOLDER = """
import torch
class H:
    def __init__(self, a):
        self.a = a
"""

ATTR_WRONG = [
    # an alias of the instance's dict, taken before the assert
    HOLDER + """
    def run(self, other):
        d = vars(self)
        assert torch.is_tensor(self.a)
        d["a"] = other
        return torch.tensor(self.a)
def go():
    return H(torch.zeros(2)).run([1.0, 2.0])
""",
    HOLDER + """
    def run(self, other):
        d = vars(self)
        assert torch.is_tensor(self.a)
        d |= {"a": other}
        return torch.tensor(self.a)
def go():
    return H(torch.zeros(2)).run([1.0, 2.0])
""",
    # a tensor method hands its argument's __torch_function__ the call
    HOLDER + """
    def run(self, x):
        assert torch.is_tensor(self.a)
        self.a.add(x)
        return torch.tensor(self.a)
class Swap:
    def __init__(self, h):
        self.h = h
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        for a in args:
            if isinstance(a, Swap):
                a.h.a = [1.0, 2.0]
        return 0
def go():
    h = H(torch.zeros(2))
    return h.run(Swap(h))
""",
    # backward() runs the graph's hooks
    HOLDER + """
    def run(self, loss):
        assert torch.is_tensor(self.a) and torch.is_tensor(self.loss)
        self.loss.backward()
        return torch.tensor(self.a)
    def drop(self, g):
        self.a = [1.0, 2.0]
        return g
def go():
    h = H(torch.zeros(2))
    w = torch.ones(2, requires_grad=True)
    w.register_hook(h.drop)
    h.loss = w.sum()
    return h.run(None)
""",
    # apply_(f) calls f on every element
    HOLDER + """
    def run(self, f):
        assert torch.is_tensor(self.a)
        t = self.a
        t.apply_(f)
        return torch.tensor(self.a)
def go():
    h = H(torch.zeros(2))
    def f(v):
        h.a = [1.0, 2.0]
        return v
    return h.run(f)
""",
    # the module replaces a tensor method: calling it runs the module's code
    """
import torch
_abs = torch.Tensor.abs
def evil(t):
    H.last.a = [1.0, 2.0]
    return _abs(t)
class H:
    last = None
    def __init__(self, a):
        self.a = a
        H.last = self
    def run(self):
        assert torch.is_tensor(self.a)
        self.a.abs()
        return torch.tensor(self.a)
def go():
    torch.Tensor.abs = evil
    try:
        return H(torch.zeros(2)).run()
    finally:
        torch.Tensor.abs = _abs
""",
    # a store into a subscript runs __setitem__
    HOLDER + """
    def run(self, box):
        assert torch.is_tensor(self.a)
        box[0] = 1
        return torch.tensor(self.a)
class Box:
    def __init__(self, h):
        self.h = h
    def __setitem__(self, k, v):
        self.h.a = [1.0, 2.0]
def go():
    h = H(torch.zeros(2))
    return h.run(Box(h))
""",
]


def _copy_warned(src):
    return any("copy construct" in m for m in run_warnings(src, "go"))


@pytest.mark.parametrize("src", ATTR_WRONG)
def test_attribute_rebound_where_no_store_shows(src):
    assert not _copy_warned(src)  # torch.tensor(self.a) got a list: nothing to report
    assert [f for f in lint_source(textwrap.dedent(src)) if f.code == "TRC101"] == []


def test_the_holder_copy_constructs_a_tensor_when_nothing_rebinds_it():
    """The control: with the tensor left alone the same call warns, and stays reported."""
    src = HOLDER + """
    def run(self, x):
        assert torch.is_tensor(self.a)
        self.a.add(1)
        self.a.mul_(self.a.abs())
        return torch.tensor(self.a)
def go():
    return H(torch.zeros(2)).run(torch.ones(2))
"""
    assert _copy_warned(src)
    (found,) = [f for f in lint_source(textwrap.dedent(src)) if f.code == "TRC101"]
    assert found.fix is None or not found.fix.safe


REPLACED = """
import torch
torch.Tensor.sqrt = lambda self: torch.zeros(2, device="meta")
def go(n=4):
    return torch.arange(n).float().sqrt().to("meta")
"""


def test_trc112_a_replaced_tensor_method_is_not_followed():
    kept = torch.Tensor.sqrt
    try:
        ns: dict = {}
        exec(REPLACED, ns)
        before = torch.arange(4).float().sqrt()
        assert before.device.type == "meta"  # not computed on the host: .to("meta") moves nothing
    finally:
        torch.Tensor.sqrt = kept
    assert [f for f in lint_source(REPLACED) if f.code == "TRC112"] == []


HOST_DEVICES = ['torch.device(type="cpu")', 'torch.device("cpu", 0)', 'torch.device(type="cpu", index=0)']


@pytest.mark.parametrize("dev", HOST_DEVICES)
@pytest.mark.parametrize("made", ["torch.arange(n).float().sqrt()", "torch.arange(n)",
                                  "torch.cat([torch.ones(n), torch.zeros(n)])"])
def test_trc112_a_host_device_spelled_otherwise_is_no_move(made, dev):
    """``.to(torch.device(type="cpu"))`` of a host tensor is the tensor itself, and
    ``torch.device("cpu", 0)`` stays on the host (a copy there, never a move): neither is
    "builds the tensor on the host and then moves it"."""
    for kw in ("", "device="):
        src = f"import torch\ndef f(n):\n    return {made}.to({kw}{dev})\n"
        ns: dict = {}
        exec(src, ns)
        assert ns["f"](4).device.type == "cpu"
        assert [f for f in lint_source(src) if f.code == "TRC112"] == []
    t = torch.arange(4).float()
    assert t.to(torch.device(type="cpu")) is t


CUDA_TYPE = """
import torch
torch.FloatTensor = torch.cuda.FloatTensor
def f(n):
    return torch.arange(n).type(torch.FloatTensor).cuda()
"""


def test_trc112_a_replaced_legacy_type_is_not_followed():
    """``.type(torch.FloatTensor)`` casts to whatever the module bound there: after
    ``torch.FloatTensor = torch.cuda.FloatTensor`` it moves the tensor itself, and the
    ``.cuda()`` after it moves nothing."""
    assert [f for f in lint_source(CUDA_TYPE) if f.code == "TRC112"] == []
    kept = torch.FloatTensor
    try:
        torch.FloatTensor = torch.DoubleTensor  # what runs is the module's binding
        assert torch.arange(2).type(torch.FloatTensor).dtype == torch.float64
    finally:
        torch.FloatTensor = kept


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_trc112_a_replaced_legacy_type_moves_by_itself():
    kept = torch.FloatTensor
    try:
        ns: dict = {}
        exec(CUDA_TYPE, ns)
        assert torch.arange(2).type(torch.FloatTensor).is_cuda
    finally:
        torch.FloatTensor = kept
