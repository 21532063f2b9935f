"""A tensor whose layout the module permuted before it reached a function (a module global,
an enclosing function's name, a helper's return) is never taken for a contiguous one there:
``R.t().view(-1)`` of ``R = torch.zeros(4, 3).t()`` is legal, and TRC201 stays quiet; the
same of a contiguous origin raises, and is reported.  Each source is run with torch."""
import pytest

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")

ORIGINS = {
    "a module global": ("import torch\nR = {made}\n\n\ndef f():\n    return R.t().view(-1)\n", "f()"),
    "a closure": ("import torch\n\n\ndef g():\n    R = {made}\n\n    def h():\n        return R.t().view(-1)\n"
                  "    return h()\n", "g()"),
    "a helper's return": ("import torch\n\n\ndef make():\n    return {made}\n\n\ndef f():\n"
                          "    return make().t().view(-1)\n", "f()"),
    "a helper's tuple": ("import torch\n\n\ndef make():\n    return {made}, 1\n\n\ndef f():\n"
                         "    r, _ = make()\n    return r.t().view(-1)\n", "f()"),
    "a helper's tuple, iterated": ("import torch\n\n\ndef make():\n    return {made}, {made}\n\n\ndef f():\n"
                                   "    return [r.t().view(-1) for r in make()]\n", "f()"),
}


def _raises(source: str, call: str) -> bool:
    scope: dict = {}
    exec(compile(source, "<origin>", "exec"), scope)
    try:
        eval(call, scope)
    except RuntimeError as e:
        assert "view size is not compatible" in str(e)
        return True
    return False


@pytest.mark.parametrize("origin", sorted(ORIGINS))
def test_a_permuted_origin_is_not_taken_for_contiguous(origin):
    template, call = ORIGINS[origin]
    permuted = template.format(made="torch.zeros(4, 3).t()")
    assert not _raises(permuted, call)
    assert "TRC201" not in [f.code for f in lint_source(permuted)]


@pytest.mark.parametrize("origin", ["a module global", "a closure", "a helper's return",
                                    "a helper's tuple, iterated"])
def test_a_contiguous_origin_still_raises_and_is_reported(origin):
    template, call = ORIGINS[origin]
    contiguous = template.format(made="torch.zeros(4, 3)")
    assert _raises(contiguous, call)
    assert "TRC201" in [f.code for f in lint_source(contiguous)]
