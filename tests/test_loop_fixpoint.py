"""A loop is walked until what its body binds stops changing, not a fixed two passes.

``z`` below is a tensor on the first two iterations and a float from the third: a fix
``torch.tensor(z)`` -> ``z.detach().clone()`` marked safe would raise there (run with torch).
"""
import textwrap

import pytest
import torch

from flake8_torchcopy import fix_source, lint_source

CHAIN = """
import torch


def f(x):
    z = torch.zeros(())
    y = torch.ones(())
    for _ in range(3):
        out = torch.tensor(z)
        z = y
        y = x.sum().item()
    return out
"""

LONGER = """
import torch


def f(x):
    a = torch.zeros(())
    b = c = d = torch.ones(())
    while x.sum() > 0:
        out = a.clone().detach()
        a, b, c, d = b, c, d, 1.5
        x = x - 1
    return out
"""

STABLE = """
import torch


def f(x):
    z = torch.zeros(())
    for _ in range(3):
        out = torch.tensor(z)
        z = z + 1
    return out
"""


def _run(src, x):
    ns = {}
    exec(compile(src, "<case>", "exec"), ns)
    return ns["f"](x)


@pytest.mark.parametrize("src", [CHAIN, LONGER], ids=["chain", "longer"])
def test_a_value_that_changes_kind_late_gets_no_safe_fix(src):
    src = textwrap.dedent(src)
    fixed = fix_source(src)  # safe fixes only
    x = torch.tensor([2.0])
    try:
        expected = _run(src, x)
    except Exception as e:  # the original's own error must stay the same
        expected = type(e)
    try:
        got = _run(fixed, x)
    except Exception as e:
        got = type(e)
    assert type(got) is type(expected) or got is expected, (fixed, got, expected)
    findings = [f for f in lint_source(src) if f.fix is not None and f.fix.safe]
    assert findings == []


def test_a_loop_that_stays_a_tensor_keeps_its_safe_fix():
    src = textwrap.dedent(STABLE)
    assert any(f.code == "TRC101" and f.fix is not None and f.fix.safe for f in lint_source(src))
    assert torch.equal(_run(fix_source(src), torch.zeros(1)), _run(src, torch.zeros(1)))
