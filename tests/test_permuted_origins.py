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



# An index or slice of a permuted origin is a part of a permuted tensor: never taken for a
# contiguous one (``R[0]`` of ``R = torch.zeros(4, 3).t()`` has a stride 3).  Per form: the
# index, the permuted origin, the contiguous one.
THREE = ("torch.zeros(2, 4, 3).transpose(1, 2)", "torch.zeros(2, 4, 3)")
TWO = ("torch.zeros(4, 3).t()", "torch.zeros(4, 3)")
PARTS = {
    "an index": ("R[0]",) + THREE,
    "a negative index": ("R[-1]",) + THREE,
    "an index and full slices": ("R[0, :, :]",) + THREE,
    "an index and an ellipsis": ("R[0, ...]",) + THREE,
    "a slice": ("R[:, 1:]",) + TWO,
    "a slice after an ellipsis": ("R[..., 1:]",) + TWO,
    "a bounded slice": ("R[:, 1:3]",) + TWO,
}
PART_ORIGIN = ("import torch\nR = {made}\n\n\ndef f():\n    a = {part}\n    return a.t().view(-1)\n", "f()")


@pytest.mark.parametrize("part", sorted(PARTS))
def test_a_part_of_a_permuted_origin_is_not_taken_for_contiguous(part):
    index, made, _ = PARTS[part]
    permuted = PART_ORIGIN[0].format(made=made, part=index)
    assert not _raises(permuted, PART_ORIGIN[1])
    assert "TRC201" not in [f.code for f in lint_source(permuted)]


@pytest.mark.parametrize("part", sorted(PARTS))
def test_a_part_of_a_contiguous_origin_still_raises_and_is_reported(part):
    index, _, made = PARTS[part]
    contiguous = PART_ORIGIN[0].format(made=made, part=index)
    assert _raises(contiguous, PART_ORIGIN[1])
    assert "TRC201" in [f.code for f in lint_source(contiguous)]


def test_the_row_of_a_transposed_global_is_not_reported():
    """The issue's case: ``R[0]`` is one-dimensional of stride 3; ``.t()`` keeps it, and
    ``.view(-1)`` of it is legal."""
    source = PART_ORIGIN[0].format(made="torch.zeros(4, 3).t()", part="R[0]")
    assert not _raises(source, "f()")
    assert "TRC201" not in [f.code for f in lint_source(source)]


ROWS = ("import torch\nR = {made}\n\n\ndef f():\n    return [a.t().view(-1) for a in R]\n", "f()")


def test_the_rows_of_a_permuted_origin_are_not_taken_for_contiguous():
    permuted, contiguous = (ROWS[0].format(made=m) for m in THREE)
    assert not _raises(permuted, ROWS[1])
    assert "TRC201" not in [f.code for f in lint_source(permuted)]
    assert _raises(contiguous, ROWS[1])
    assert "TRC201" in [f.code for f in lint_source(contiguous)]
