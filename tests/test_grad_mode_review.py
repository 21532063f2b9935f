"""Places a review found where recording was taken as "certainly off" though autograd
records when the code runs (a TRC103 report lost): each is run with torch (the clone
records a node), and the lint keeps the report."""
import textwrap

import pytest
import torch

from flake8_torchcopy import lint_source

CASES = {
    # torch's no_grad decorator wraps only the call that makes the coroutine; the body runs later
    "async_def_decorated": """
        @torch.no_grad()
        async def f(w):
            return w.clone().detach()
    """,
    # set_grad_enabled(True) as an assignment, not an expression statement
    "set_grad_enabled_assigned": """
        def f(w):
            with torch.no_grad():
                prev = torch.set_grad_enabled(True)
                return w.clone().detach()
    """,
    # after a yield inside the with, the body runs under the caller's mode
    "generator_after_yield": """
        def f(w):
            with torch.no_grad():
                yield 1
                yield w.clone().detach()
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_recording_is_on_at_run_time(name):
    # the clone made a node: detach drops it, so clone().detach() wasted one
    ns = {"torch": torch}
    src = textwrap.dedent(CASES[name]).replace(".detach()", "")
    exec(src, ns)
    w = torch.randn(3, requires_grad=True)
    f = ns["f"]
    if name == "async_def_decorated":
        coro = f(w)
        with pytest.raises(StopIteration) as stop:
            coro.send(None)
        out = stop.value.value
    elif name == "generator_after_yield":
        g = f(w)
        next(g)
        with torch.enable_grad():
            out = next(g)
    else:
        out = f(w)
        torch.set_grad_enabled(True)
    assert out.grad_fn is not None


@pytest.mark.parametrize("name", sorted(CASES))
def test_report_kept(name):
    codes = [f.code for f in lint_source("import torch\n" + textwrap.dedent(CASES[name]))]
    assert "TRC103" in codes
