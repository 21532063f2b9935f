"""TRC201 judges no view of a value not proven a tensor in a module that defines ``view``:
``p.t().view(-1)`` may be a class of its own (run: no reshape to fix it with)."""
import pytest

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")

OWN = '''
class P:
    def t(self):
        return self

    def view(self, *shape):
        return shape


def flat(pred):
    return pred.t().view(-1)
'''


def test_an_untraced_receiver_is_not_judged_where_the_module_defines_view():
    ns: dict = {}
    exec(compile(OWN, "<case>", "exec"), ns)
    assert ns["flat"](ns["P"]()) == (-1,)
    assert lint_source(OWN) == []
    # the same function in a module with no view of its own is reported, and raises for a tensor
    plain = "def flat(pred):\n    return pred.t().view(-1)\n"
    assert [f.code for f in lint_source(plain)] == ["TRC201"]
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        torch.randn(2, 3).t().view(-1)


def test_a_proven_tensor_is_judged_all_the_same():
    src = OWN + "\n\ndef g():\n    import torch\n    return torch.randn(2, 3).t().view(-1)\n"
    assert [f.code for f in lint_source(src)] == ["TRC201"]
