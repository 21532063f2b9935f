"""Parts of an untraced value laid out by a permutation keep its mark (hostile review 10).

``x.mT``, ``x.transpose(1, 2)``, ``x.movedim(...)`` of a name the analysis cannot trace give
a value of unknown kind marked permuted (numpy has ``.mT`` and ``.transpose`` too).  Its pieces
(``split``, ``chunk``, ``unbind``), what ``sort``-like methods return of it, and the fields of
a named tuple (``x.sort(1).values`` of a tensor) were taken for untraced, hence contiguous,
tensors: ``.t().view(-1)`` of them was reported as raising although torch keeps the strides
of the permuted input and the view is legal.  Each case is run with torch on a 2-d and a 3-d
input: the view succeeds where the report would have claimed it raises.
"""
import importlib.util
import textwrap

import pytest

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")

LEGAL = {
    "a piece of x.mT (split)": "v = x.movedim(1, 1).mT.split(2, 1)[1]\n    return v.permute(1, 0).view(-1)",
    "a piece of x.mT (unbind)": "v = x.mT.unbind(0)[0]\n    return v.t().view(-1)",
    "a piece of x.transpose(1, 2)": "v = x.transpose(1, 2).unbind(0)[0]\n    return v.t().view(-1)",
    "sort of x.mT": "v = x.mT.sort(0)[0]\n    return v.t().view(-1)",
    "sort of x.mT, .values": "v = x.mT.sort(0).values\n    return v.t().view(-1)",
    "sort of a transposed tensor, .values": "v = torch.randn(3, 4).t().sort(1).values\n    return v.t().view(-1)",
}
SHAPES = {"a piece of x.mT (split)": [(4, 5)], "a piece of x.mT (unbind)": [(2, 3, 4)],
          "a piece of x.transpose(1, 2)": [(2, 3, 4)], "sort of x.mT": [(3, 4)],
          "sort of x.mT, .values": [(3, 4)], "sort of a transposed tensor, .values": [(3, 4)]}


def _source(body):
    return "import torch\n\n\ndef f(x):\n    " + body + "\n"


@pytest.mark.parametrize("name", LEGAL)
def test_legal_views_of_parts_are_not_reported(name, tmp_path):
    src = _source(LEGAL[name])
    assert [f for f in lint_source(src) if f.code == "TRC201"] == []
    path = tmp_path / "case.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("case", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for shape in SHAPES[name]:
        mod.f(torch.randn(*shape))  # the view is legal: no RuntimeError


def test_a_raising_view_of_a_named_tuple_field_is_still_reported():
    src = textwrap.dedent("""\
        import torch


        def f():
            v = torch.randn(3, 4).t().topk(2, 1).values
            return v.t().view(-1)
        """)
    (finding,) = [f for f in lint_source(src) if f.code == "TRC201"]
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    with pytest.raises(RuntimeError, match="view"):
        ns["f"]()
    assert finding.fix is not None
