"""A list converted in place (``xs = torch.tensor(xs)``): the reads after it see the tensor.

piq 0.8.0 piq/isc.py:62 ``partial_scores = torch.tensor(partial_scores)`` of a list of 0-d
tensors went unreported: the later ``torch.mean(partial_scores)`` counted as a read of the list
(one that may store into it).  It reads the tensor; where control can reach a read without
passing the conversion, or the name is bound again, the read is still judged as before.
"""
import textwrap

import numpy as np
import pytest
import torch

from flake8_torchcopy import lint_source

PIQ = """
import torch

def inception_score(probas, num_splits):
    partial_scores = []
    for i in range(num_splits):
        p_y = torch.mean(probas[i], dim=0)
        partial_scores.append(p_y.sum().exp())
    partial_scores = torch.tensor(partial_scores)
    return torch.mean(partial_scores), torch.std(partial_scores)
"""


def _lines(source, code="TRC108"):
    return sorted(f.line for f in lint_source(textwrap.dedent(source)) if f.code == code)


def test_the_reads_after_the_conversion_are_the_tensor():
    assert _lines(PIQ) == [9]


def test_a_method_chain_on_the_conversion():
    source = PIQ.replace("torch.tensor(partial_scores)", "torch.tensor(partial_scores).to(probas.device)[None]")
    assert _lines(source) == [9]


@pytest.mark.parametrize("old, new", [
    # conditional: the read after the if may see the list
    ("    partial_scores = torch.tensor(partial_scores)\n",
     "    if num_splits:\n        partial_scores = torch.tensor(partial_scores)\n"),
    # bound again after the conversion: the later reads may see that binding
    ("    return torch.mean(", "    partial_scores = list(partial_scores)\n    return torch.mean("),
    # deleted after it
    ("    return torch.mean(partial_scores), torch.std(partial_scores)",
     "    del partial_scores\n    return 0"),
    # the list handed to code not followed before the conversion
    ("    partial_scores = torch.tensor(", "    keep(partial_scores)\n    partial_scores = torch.tensor("),
    # the name twice in the value: dtype= is worked out first, by code not followed
    ("torch.tensor(partial_scores)", "torch.tensor(partial_scores, dtype=pick(partial_scores))"),
    # not a conversion with method calls on it
    ("torch.tensor(partial_scores)", "torch.tensor(partial_scores) + len(partial_scores)"),
    # a conversion of another list
    ("    partial_scores = torch.tensor(partial_scores)\n",
     "    others = list(partial_scores)\n    partial_scores = torch.tensor(others)\n"),
])
def test_reads_that_may_see_the_list_still_count(old, new):
    assert old in PIQ
    assert _lines(PIQ.replace(old, new)) == []


def test_the_same_for_a_list_of_arrays():
    source = """
    import numpy as np
    import torch

    def collate(batch):
        rows = []
        for sample in batch:
            rows.append(np.asarray(sample, dtype=np.float32))
        rows = torch.tensor(rows)
        return rows.mean(0)
    """
    assert _lines(source, "TRC109") == [9]


def test_what_the_reports_say_holds():
    """torch.tensor of 0-d tensors equals their stack; of arrays, their stacked array."""
    items = [torch.tensor(0.5), torch.tensor(2.0)]
    assert torch.equal(torch.tensor(items), torch.stack(items))
    rows = [np.zeros(3, dtype=np.float32), np.ones(3, dtype=np.float32)]
    with pytest.warns(UserWarning, match="extremely slow"):
        slow = torch.tensor(rows)
    assert torch.equal(slow, torch.from_numpy(np.stack(rows)))
