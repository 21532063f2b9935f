"""A message that names a method call on an expression parenthesizes it, as the fix would:
``(x + 1).detach().clone()``, never ``x + 1.detach().clone()``."""
import re
import textwrap

import pytest

from flake8_torchcopy import lint_source

HEAD = "import copy\nimport torch\nx = torch.randn(3)\n"

CASES = [
    ("a = torch.tensor(x + 1)\n", "TRC101"),
    ("b = torch.Tensor(x + 1)\n", "TRC106"),
    ("c = (x + 0).new_tensor(x * 2)\n", "TRC102"),
    ("d = copy.deepcopy(x + 1)\n", "TRC105"),
    ("e = torch.tensor((x + 1).tolist())\n", "TRC107"),
]

#: an operator followed by an operand and a method call with no parenthesis in between
UNPARENTHESIZED = re.compile(r"[-+*/] \w+\.(detach|clone|to|new_tensor|dtype|device)\b")


@pytest.mark.parametrize("body,code", CASES)
def test_method_receivers_are_parenthesized(body, code):
    messages = [f.message for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == code]
    assert messages, body
    for m in messages:
        assert not UNPARENTHESIZED.search(m), m
        assert ".detach()" in m or ".new_tensor(" in m
