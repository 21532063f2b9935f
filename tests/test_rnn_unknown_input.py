"""An RNN run on an input not proven a tensor (``forward(self, x)``): its output keeps the
layout a tensor output would have, so a view that merges batch and time is reported; a
``PackedSequence`` input gives no tensor, so no copy rule reports it.  Each claim is run
with torch."""
import textwrap

import pytest
import torch
from torch import nn

from flake8_torchcopy import lint_source

# adapted from geyang/deep-auto-punctuation model.py (GruRNN.forward, issue #3): the GRU
# is run on forward's parameter; the view reads the output's batch size
ATTRIBUTE = """
import torch
import torch.nn as nn


class GruRNN(nn.Module):
    def __init__(self, input_size, hidden_size):
        super(GruRNN, self).__init__()
        self.gru = nn.GRU(input_size, hidden_size, 1, batch_first=True)

    def forward(self, x, hidden):
        gru_output, hidden = self.gru(x, hidden)
        return gru_output.view(gru_output.size(0), -1)
"""

LOCAL = """
import torch
import torch.nn as nn


def use(x):
    rnn = nn.LSTM(8, 16, batch_first=True)
    out, _ = rnn(x)
    return out.view(out.size(0), -1)
"""


@pytest.mark.parametrize("src", [
    pytest.param(ATTRIBUTE, id="attribute"),
    pytest.param(LOCAL, id="local")])
def test_a_view_of_an_rnn_output_on_a_parameter_is_reported(src):
    found = [f for f in lint_source(src) if f.code == "TRC201"]
    assert len(found) == 1 and "batch_first=True" in found[0].message
    assert "x.dim() == 2" in found[0].message  # a 2-d input gives a contiguous output
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    use = ns.get("use") or (lambda x: ns["GruRNN"](8, 16)(x, torch.zeros(1, x.size(0), 16) if x.dim() == 3
                                                          else torch.zeros(1, 16)))
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        use(torch.randn(2, 5, 8))
    assert use(torch.randn(5, 8)).shape[0] == 5  # unbatched: the view works
    packed = nn.utils.rnn.pack_padded_sequence(torch.randn(2, 5, 8), [5, 3], batch_first=True)
    with pytest.raises(AttributeError):  # a PackedSequence has no view: it raises too
        use(packed)


def test_no_copy_rule_reports_the_output_of_a_parameter():
    src = textwrap.dedent("""
        import torch
        import torch.nn as nn

        def use(x):
            rnn = nn.LSTM(8, 16, batch_first=True)
            out, _ = rnn(x)
            return torch.tensor(out)
        """)
    assert lint_source(src) == []
    packed = nn.utils.rnn.pack_padded_sequence(torch.randn(2, 5, 8), [5, 3], batch_first=True)
    out, _ = nn.LSTM(8, 16, batch_first=True)(packed)
    assert not isinstance(out, torch.Tensor)  # the value may be no tensor at all


def test_without_batch_first_the_output_of_a_parameter_is_quiet():
    src = LOCAL.replace(", batch_first=True", "")
    assert lint_source(src) == []
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    assert ns["use"](torch.randn(5, 2, 8)).shape == (5, 32)
