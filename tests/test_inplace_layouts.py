"""Layouts changed in place (``y.t_()``, ``y.set_(t)``, ``y.data = t``, through an alias or a
callee): the walk does not follow them, so no view is judged in a module that may do so.

Each case runs with torch: its view is legal, and TRC201 must stay quiet.  Without the
in-place change the same view raises and is reported (the cases are not quiet by accident).
"""
import pytest

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")

HEAD = "import torch\n\n\ndef f():\n    y = torch.randn(4, 3).permute(1, 0)\n"
CHANGES = {
    "t_": "    y.t_()\n",
    "transpose_": "    y.transpose_(0, 1)\n",
    "swapdims_": "    y.swapdims_(0, 1)\n",
    "set_": "    y.set_(torch.randn(3, 4))\n",
    "data": "    y.data = torch.randn(3, 4)\n",
    "as_strided_": "    y.as_strided_((3, 4), (4, 1))\n",
    "an alias": "    w = y\n    w.t_()\n",
    "a list's item": "    w = [y]\n    w[0].t_()\n",
    "getattr": "    getattr(y, 't_')()\n",
    "the unbound method": "    torch.Tensor.t_(y)\n",
    "a callee": "    g(y)\n",
}
TAIL = "\n\ndef g(t):\n    t.t_()\n"


def _src(change: str, view: str) -> str:
    return HEAD + change + f"    return {view}\n" + (TAIL if "g(y)" in change else "")


@pytest.mark.parametrize("name", CHANGES)
def test_a_view_after_a_layout_changed_in_place_is_not_judged(name):
    for view in ("y.view(-1)", "y[None].view(-1)"):
        src = _src(CHANGES[name], view)
        ns: dict = {}
        exec(compile(src, "<case>", "exec"), ns)
        ns["f"]()  # legal: the in-place change made y contiguous
        assert [f.code for f in lint_source(src)] == [], src
        plain = _src("", view)
        ns = {}
        exec(compile(plain, "<case>", "exec"), ns)
        with pytest.raises(RuntimeError, match="view size is not compatible"):
            ns["f"]()
        assert [f.code for f in lint_source(plain)] == ["TRC201"], plain
