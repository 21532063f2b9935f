"""Hostile review of closures (:mod:`.flow` ``scope_outer``/``bound_once``), optional
``import torch`` and the per-function gates: each real break as a minimal case asserting the
right behaviour, checked against torch.  The last two were a right TRC201 report with a wrong
"unless" wording: the condition each forgot is now named, and checked against torch here."""
import textwrap

import pytest
import torch

from flake8_torchcopy import lint_source

# One binding statement inside a loop binds a different value on each pass: a closure
# made on the first pass, called after the loop, sees the last pass's value (a list).
LOOP_CLOSURE = textwrap.dedent("""
    import torch

    def outer():
        x = torch.zeros(3)
        fs = []
        for i in range(2):
            t = x
            def f():
                return torch.tensor(t)
            fs.append(f)
            x = [1.0, 2.0]
        return fs
""")


def test_loop_closure_really_sees_a_list():
    """The premise, against torch: the first closure's ``t`` is the list when called."""
    ns: dict = {}
    exec(compile(LOOP_CLOSURE, "<loop>", "exec"), ns)
    first = ns["outer"]()[0]
    assert isinstance(first.__closure__[0].cell_contents, list)
    assert torch.equal(first(), torch.tensor([1.0, 2.0]))  # the original runs
    t = first.__closure__[0].cell_contents
    with pytest.raises(AttributeError):
        t.detach().clone()  # the default fix's expression raises on it


def test_loop_closure_no_safe_tensor_report():
    found = [f for f in lint_source(LOOP_CLOSURE) if f.code == "TRC101"]
    # no safe fix, and no report claiming ``t`` is a tensor there on every path
    assert not any(f.fix is not None and f.fix.applicability == "safe" for f in found)
    assert all("on some paths" in f.message for f in found), [f.message for f in found]


# A list filled in a loop that may run zero times: ``torch.tensor([])`` is shape (0,), and
# ``.t().view(-1)`` of it works, yet the report says it raises unless one row.
EMPTY_ROWS = textwrap.dedent("""
    import torch

    def edges(n):
        pairs = []
        for i in range(n):
            pairs.append((i, i + 1))
        return torch.tensor(pairs).t().view(-1)
""")


def test_empty_rows_view_really_works():
    ns: dict = {}
    exec(compile(EMPTY_ROWS, "<rows>", "exec"), ns)
    assert ns["edges"](0).numel() == 0  # no rows: no RuntimeError
    assert ns["edges"](1).tolist() == [0, 1]
    with pytest.raises(RuntimeError):
        ns["edges"](2)


def test_empty_rows_message_names_the_empty_case():
    found = [f for f in lint_source(EMPTY_ROWS) if f.code == "TRC201"]
    assert found
    msg = found[0].message
    tail = msg.split("unless", 1)[-1]
    assert "raises" not in msg or any(w in tail for w in ("== 0", "empty", "numel")), msg
    assert tail.strip().endswith("pairs is empty"), msg


# ``.t()`` takes 0-d and 1-d tensors too (it returns them as they are); a receiver of
# unknown rank is taken as 2-d (methodlayouts._permute: rank = 2 for t), so the report
# claims a raise that a 1-d binding never gives.  (Older than today's commits.)
T_OF_UNKNOWN_RANK = textwrap.dedent("""
    import torch

    def h(pairs):
        x = torch.tensor(pairs)
        return x.t().view(-1)
""")


def test_t_of_1d_really_views():
    ns: dict = {}
    exec(compile(T_OF_UNKNOWN_RANK, "<t>", "exec"), ns)
    assert ns["h"]([1, 2, 3]).tolist() == [1, 2, 3]  # 1-d: no RuntimeError
    assert ns["h"](5.0).tolist() == [5.0]  # 0-d: t() returns it too
    assert ns["h"]([]).numel() == 0
    with pytest.raises(RuntimeError):  # 3-d: t() itself raises
        ns["h"]([[[1, 2], [3, 4]], [[1, 2], [3, 4]]])
    with pytest.raises(RuntimeError):
        ns["h"]([[1, 2], [3, 4]])


def test_t_of_unknown_rank_claims_no_raise():
    found = [f for f in lint_source(T_OF_UNKNOWN_RANK) if f.code == "TRC201"]
    assert all("raises" not in f.message or "dim" in f.message.split("unless", 1)[-1] for f in found), \
        [f.message for f in found]
    assert found and "x.dim() < 2" in found[0].message.split("unless", 1)[-1]


# Of a tensor whose rank is known, or rows known to have two dims, no rank condition is added.
@pytest.mark.parametrize("src", [
    "import torch\ndef h(x):\n    a, b = x.shape\n    return x.t().view(-1)\n",
    "import torch\ndef h(n):\n    p = []\n    for i in range(n):\n        p.append((i, i))\n"
    "    return torch.tensor(p).t().view(-1)\n",
])
def test_t_of_known_2d_names_no_rank(src):
    found = [f for f in lint_source(src) if f.code == "TRC201"]
    assert found and "dim()" not in found[0].message, [f.message for f in found]
