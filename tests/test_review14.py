"""Review 14: the second ``if`` of ``if len(v) > 0: ...`` / ``if len(v) < 1 or ...:``
(``analysis/narrowing.py``, ``false_entry``) starts its false branch from the end of the first's
body, assuming the two ``len(v)`` reads agree.  They need not:

* a disjunct before the ``len`` test runs first and may change ``v`` (``grow(v) or len(v) < 1``):
  the first body never ran, ``x`` is still the list, yet ``torch.tensor(x)`` got the SAFE fix
  ``x.detach().clone()`` (AttributeError).  Only the first disjunct is read now.
* a ``__len__`` may answer otherwise the second time: a tensor only the first body binds is
  proven by two ``len()`` reads, so its fix is unsafe (``LEN_TWICE``); the report stays.
Each shown with torch: the default (safe) fix of the old code changes what the function does.
"""
import textwrap
import warnings

import pytest
import torch

from flake8_torchcopy import fix_source, lint_source

GROW = """
import torch


def f(v, grow):
    x = [1.0, 2.0]
    if len(v) > 0:
        x = torch.ones(2)
    if grow(v) or len(v) < 1:
        pass
    else:
        return torch.tensor(x)
    return None
"""

COUNTING = """
import torch


class Counting:
    def __init__(self):
        self.n = 0

    def __len__(self):
        self.n += 1
        return self.n - 1


def f(v, grow=None):
    x = [1.0, 2.0]
    if len(v) > 0:
        x = torch.ones(2)
    if len(v) < 1:
        pass
    else:
        return torch.tensor(x)
    return None
"""

OLD_FIX = "return x.detach().clone()"


def _run(src, *args):
    ns: dict = {}
    exec(compile(textwrap.dedent(src), "<review14>", "exec"), ns)
    fresh = {"counting": lambda: ns["Counting"](), "empty": list}
    args = tuple(fresh[a]() if isinstance(a, str) else a for a in args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ns["f"](*args)


@pytest.mark.parametrize("src, args", [
    (GROW, ("empty", lambda v: v.append(1))),
    (COUNTING, ("counting",)),
])
def test_the_old_safe_fix_changes_behaviour_with_torch(src, args):
    out = _run(src, *args)
    assert isinstance(out, torch.Tensor) and out.tolist() == [1.0, 2.0]  # the body never ran: x is the list
    fixed = src.replace("return torch.tensor(x)", OLD_FIX)
    with pytest.raises(AttributeError):
        _run(fixed, *args)


@pytest.mark.parametrize("src", [GROW, COUNTING])
def test_no_safe_fix_where_the_len_reads_may_disagree(src):
    found = [f for f in lint_source(src) if f.code == "TRC101"]
    assert len(found) == 1  # a tensor on some paths (GROW), or with sane __len__ (COUNTING)
    assert found[0].fix is None or not found[0].fix.safe
    assert fix_source(src) == src


def test_a_len_test_after_another_disjunct_keeps_the_join():
    found = [f for f in lint_source(GROW) if f.code == "TRC101"]
    assert "on some paths" in found[0].message


def test_the_len_test_first_still_proves_the_first_body():
    # the mmhuman3d reduction stays quiet (tests/test_corpora_eighteenth_round.py); with the
    # tensor from the first body the report stays, unsafe, and says why
    found = [f for f in lint_source(COUNTING) if f.code == "TRC101"]
    assert "on some paths" not in found[0].message
