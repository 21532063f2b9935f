"""An attribute every store of which is a torch constructor or ``None`` (``self.buf = None`` in
``__init__``, ``self.buf = torch.cat(xs)`` in another method) is a tensor on some paths: the
data-flow rules report it as such, with no fix.  Any other store leaves it unknown."""
import textwrap

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source

CLASS = """
import copy
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.buf = None

    def setup(self, xs):
        self.buf = torch.cat(xs)

    def snap(self):
        {read}
"""


def source(read: str, extra: str = "") -> str:
    return textwrap.dedent(CLASS).format(read=read) + textwrap.dedent(extra)


@pytest.mark.parametrize("read, code", [
    ("return torch.tensor(self.buf)", "TRC101"),
    ("return copy.deepcopy(self.buf)", "TRC105"),
    ("return torch.Tensor(self.buf)", "TRC106"),
])
def test_a_tensor_or_none_attribute_is_a_tensor_on_some_paths(read, code):
    (finding,) = lint_source(source(read))
    assert finding.code == code and "on some paths" in finding.message
    assert finding.fix is None


def test_a_test_for_none_keeps_the_claim_true():
    # the report says "some paths", never "and not on others": inside the test it is a tensor
    src = source("if self.buf is not None:\n            return torch.tensor(self.buf)")
    (finding,) = lint_source(src)
    assert "on some paths" in finding.message and "not on others" not in finding.message


@pytest.mark.parametrize("other", [
    "self.buf = 3",  # a store of something else
    "self.buf = xs",  # of something unknown
    "self.buf += 1",  # an augmented store
])
def test_any_other_store_leaves_it_unknown(other):
    src = source("return torch.tensor(self.buf)").replace(
        "self.buf = torch.cat(xs)", f"self.buf = torch.cat(xs)\n        {other}")
    assert lint_source(src) == []


def test_only_none_stores_are_no_evidence():
    src = source("return torch.tensor(self.buf)").replace("self.buf = torch.cat(xs)", "self.buf = None")
    assert lint_source(src) == []


def test_torch_warns_once_the_attribute_holds_a_tensor():
    src = source("return torch.tensor(self.buf)")
    run = "(lambda m: (m.setup([torch.ones(2)]), m.snap()))(M())"
    assert copies_a_tensor(src, run)
    with pytest.raises(RuntimeError):  # and on the path where it is still None, it raises
        copies_a_tensor(src, "M().snap()")
