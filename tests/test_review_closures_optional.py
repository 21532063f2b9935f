"""Hostile review of closures (:mod:`.flow` ``scope_outer``/``bound_once``), optional
``import torch`` and the per-function gates: each real break as a minimal case, marked
``xfail(strict=True)`` and asserting the right behaviour, checked against torch."""
import textwrap

import pytest
import torch

from flake8_torchcopy import lint_source

# One binding statement inside a loop binds a different value on each pass: a closure
# made on the first pass, called after the loop, sees the last pass's value (a list).
LOOP_CLOSURE = textwrap.dedent("""
    import torch

    def outer():
        x = torch.zeros(3)
        fs = []
        for i in range(2):
            t = x
            def f():
                return torch.tensor(t)
            fs.append(f)
            x = [1.0, 2.0]
        return fs
""")


def test_loop_closure_really_sees_a_list():
    """The premise, against torch: the first closure's ``t`` is the list when called."""
    ns: dict = {}
    exec(compile(LOOP_CLOSURE, "<loop>", "exec"), ns)
    first = ns["outer"]()[0]
    assert isinstance(first.__closure__[0].cell_contents, list)
    assert torch.equal(first(), torch.tensor([1.0, 2.0]))  # the original runs
    t = first.__closure__[0].cell_contents
    with pytest.raises(AttributeError):
        t.detach().clone()  # the default fix's expression raises on it


@pytest.mark.xfail(strict=True, reason="scope_outer trusts the first loop pass's env at the def: "
                   "a once-bound name in a loop rebinds each pass (flow.py scope_outer, statements.py s_FunctionDef)")
def test_loop_closure_no_safe_tensor_report():
    found = [f for f in lint_source(LOOP_CLOSURE) if f.code == "TRC101"]
    # no safe fix, and no report claiming ``t`` is a tensor there on every path
    assert not any(f.fix is not None and f.fix.applicability == "safe" for f in found)
    assert all("on some paths" in f.message for f in found), [f.message for f in found]
