"""Layouts that travel into a parameter from the calls of the module (analysis/paramlayouts.py).

A public method called as ``self.m(...)`` inside its class (YOLOv4's ``build_target``)
takes from those calls the order its tensor parameter is laid out in, and nothing else: a
view that order makes raise is reported, its fix unsafe (callers elsewhere are not seen).
Every raising verdict is run with torch."""
import pytest

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")

LOSS = """
import torch
from torch import nn


class Loss(nn.Module):
    def __init__(self, n_anchors=3):
        super().__init__()
        self.n_anchors = n_anchors

    def build(self, pred, batchsize):
        out = []
        for b in range(batchsize):
            out.append(pred[b].view(-1))  # raises
        return out

    def forward(self, x):
        batchsize, fsize = x.shape[0], x.shape[2]
        x = x.view(batchsize, self.n_anchors, 6, fsize, fsize)
        pred = x.permute(0, 1, 3, 4, 2)[..., :4].clone()
        return self.build(pred, batchsize)
"""


def _run(src: str, *call):
    ns: dict = {}
    exec(compile(src, "<test>", "exec"), ns)
    return ns["Loss"]()(*call)


def _views(src: str):
    lines = src.splitlines()
    return [(f.line, f.code, f.fix.applicability if f.fix else None)
            for f in lint_source(src, "m.py") if f.code == "TRC201" and "view(" in lines[f.line - 1]]


def test_a_public_method_takes_the_layout_its_one_caller_passes():
    line = LOSS.splitlines().index("            out.append(pred[b].view(-1))  # raises") + 1
    assert _views(LOSS) == [(line, "TRC201", "unsafe")]
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        _run(LOSS, torch.randn(2, 18, 5, 5))


def test_the_message_names_the_parameter_s_sizes_and_the_caller_s_by_the_call_line():
    [f] = [f for f in lint_source(LOSS, "m.py") if f.code == "TRC201"]
    assert "unless pred.size(4) == 1 or " in f.message and "at the call" not in f.message
    # a size of the caller's that is no size of the argument: said of the call
    src = LOSS.replace("x.view(batchsize, self.n_anchors, 6, fsize, fsize)",
                       "x.view(batchsize, self.n_anchors, 5 + self.k, fsize, fsize)")
    [f] = [f for f in lint_source(src, "m.py") if f.code == "TRC201"]
    assert "or 5 + self.k == 1 at the call on line 21" in f.message


QUIET = {
    # the method is also called on another object: its callers are not all of one kind
    "other object": LOSS + "\n\ndef use(loss, p):\n    return loss.build(p, 2)\n",
    # a contiguous tensor: nothing travels (the view works)
    "contiguous": LOSS.replace("x.permute(0, 1, 3, 4, 2)[..., :4].clone()", "x[:, :, :4].clone()"),
    # one caller passes something unknown
    "unknown": LOSS.replace("        return self.build(pred, batchsize)",
                            "        self.build(x.foo, batchsize)\n        return self.build(pred, batchsize)"),
    # two orders
    "two orders": LOSS.replace("        return self.build(pred, batchsize)",
                               "        self.build(x.permute(0, 2, 1, 3, 4).clone(), batchsize)\n"
                               "        return self.build(pred, batchsize)"),
    # a class meant to be subclassed: its own method may never run
    "abstract": LOSS + "\n    def head(self, x):\n        raise NotImplementedError\n",
    # overridden in the module
    "overridden": LOSS + "\n\nclass Sub(Loss):\n    def build(self, pred, batchsize):\n        return pred\n",
    # decorated
    "decorated": LOSS.replace("    def build(", "    @torch.no_grad()\n    def build("),
}


@pytest.mark.parametrize("case", sorted(QUIET))
def test_where_the_calls_do_not_say_it_stays_quiet(case):
    assert _views(QUIET[case]) == []


def test_the_contiguous_case_works_with_torch():
    _run(QUIET["contiguous"], torch.randn(2, 18, 5, 5))


def test_only_a_layout_travels_into_a_public_method():
    src = ("import torch\nfrom torch import nn\n\n\nclass M(nn.Module):\n"
           "    def keep(self, t):\n        return torch.tensor(t), t.view(-1)\n\n"
           "    def forward(self, x):\n        return self.keep(x + 1)\n")
    assert [f.code for f in lint_source(src, "m.py")] == []


def test_a_nested_function_takes_the_layout_with_an_unsafe_fix():
    src = ("import torch\n\n\ndef f(x):\n    def flat(t):\n        return t.view(-1)\n\n    a, b = x.shape\n"
           "    return flat(x.permute(1, 0).clone())\n")
    assert [(f.line, f.code, f.fix.applicability) for f in lint_source(src, "m.py")] == [(6, "TRC201", "unsafe")]
    ns: dict = {}
    exec(src, ns)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        ns["f"](torch.randn(3, 4))


def test_a_function_holding_a_view_is_followed_only_where_its_callers_may_permute():
    import ast

    from flake8_torchcopy.analysis.flow import ModuleWalk
    from flake8_torchcopy.analysis.sink import NO_SINK
    from flake8_torchcopy.engine import DEFAULT_OPTIONS
    from flake8_torchcopy.rule_runner import _Dispatch
    from flake8_torchcopy.rules import ALL_RULES

    plain = ("\n\nclass Plain(nn.Module):\n    def flat(self, t):\n        return t.view(-1)\n\n"
             "    def forward(self, x):\n        return self.flat(x + 1)\n")
    src = LOSS + plain
    walk = ModuleWalk.of(src, ast.parse(src), _Dispatch(ALL_RULES), DEFAULT_OPTIONS, NO_SINK)
    assert sorted(c.node.name for c in walk.walker.sites.functions()) == ["build"]


RNN_CALLER = """
import torch
from torch import nn


class Ranker(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.rnn = nn.LSTM(4, 8, batch_first=True)

    def forward(self, tokens):
        outputs, _ = self.rnn(self.embed(tokens))
        return self.pack_seq(outputs)

    def pack_seq(self, seq):
        return seq.view(seq.size(0) * seq.size(1), -1)
"""


def test_an_rnn_output_passed_to_a_method_carries_its_layout():
    """kbqa-ar-smcnn's model.py hands a batch_first LSTM's output to a method that views it:
    the function around the call holds no ``view(``, yet the instances it calls are looked up
    (it passes a closed function values), so the layout travels; torch raises."""
    line = RNN_CALLER.splitlines().index("        return seq.view(seq.size(0) * seq.size(1), -1)") + 1
    found = [f for f in lint_source(RNN_CALLER, "m.py") if f.code == "TRC201"]
    assert [(f.line, f.fix.safe) for f in found] == [(line, False)]  # the caller's path only
    assert "seq.size(0) == 1 or seq.size(1) == 1" in found[0].message
    ns: dict = {}
    exec(compile(RNN_CALLER, "<test>", "exec"), ns)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        ns["Ranker"]()(torch.randint(0, 10, (3, 5)))
    assert ns["Ranker"]()(torch.randint(0, 10, (1, 5))).shape == (5, 8)  # a batch of one: legal
    # the method called with a contiguous tensor instead: quiet
    assert [f for f in lint_source(RNN_CALLER.replace("self.pack_seq(outputs)", "self.pack_seq(outputs.contiguous())"),
                                   "m.py") if f.code == "TRC201"] == []
