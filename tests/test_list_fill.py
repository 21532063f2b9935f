"""Lists filled by index (analysis/listfill.py): ``xs = [None] * n`` then ``xs[i] = t``.

A loop that certainly stores every slot (``for i in range(len(xs))`` or ``range(n)`` over
the ``n`` of ``[None] * n``, the store a statement of its own, no ``continue`` before it, no
``break``) leaves a list of tensors: TRC108 reports ``torch.tensor(xs)`` with its fix.
Where a slot may keep its ``None`` the items are tensors on some paths only: reported, no
fix.  Where the list escapes (a call, another name, a method, ``del``) or ``n`` is no proven
int, nothing.  Every case is run: each claim about the items is checked against the list a
run builds (``torch.tensor(xs)`` replaced by ``xs``).
"""
import textwrap

import pytest
from copywarning import copies_a_tensor
from probe import analysed

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")

HEAD = "import torch\n"


def trc108(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC108"]


def built(body, *args):
    """The list the case's ``use(*args)`` hands to ``torch.tensor``/``torch.Tensor``, run."""
    src = HEAD + textwrap.dedent(body).replace("torch.tensor(xs)", "xs").replace("torch.Tensor(xs)", "xs")
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    return ns["use"](*args)


# (body, the arguments of a run): every slot is certainly a tensor
FILLED = {
    "range(len(xs)) over [None] * len(m)": ("""
        def use(m):
            xs = [None] * len(m)
            for i in range(len(xs)):
                xs[i] = torch.zeros(())
            return torch.tensor(xs)
        """, ([1, 2, 3],)),
    "range(k) over [None] * k, k = len(m)": ("""
        def use(m):
            k = len(m)
            xs = [None] * k
            y = 2
            for i in range(k):
                e = torch.ones(()) * i
                xs[i] = e + y
                if i > 1:
                    continue
            return torch.tensor(xs)
        """, ([1, 2, 3],)),
    "a comprehension of None": ("""
        def use(m):
            k = 3
            xs = [None for _ in range(k)]
            for i in range(k):
                xs[i] = torch.zeros(())
            return torch.tensor(xs)
        """, ([],)),
    "n * [0.0] filled from another filled list": ("""
        def use(m):
            k = 3
            zs = [None for _ in range(k)]
            for i in range(k):
                zs[i] = torch.zeros(())
            xs = 4 * [0.0]
            for i in range(len(xs)):
                xs[i] = zs[i % 3] * 2
            return torch.tensor(xs)
        """, ([],)),
}

# a slot may keep what the list was made with: tensors on some paths
SOME = {
    "stored by a computed index (avalanche models/expert_gate.py)": ("""
        def use(m):
            xs = [None] * len(m)
            for j in m:
                xs[int(j)] = torch.zeros(())
            return torch.Tensor(xs)
        """, (["0", "0"],)),
    "a continue before the store": ("""
        def use(m):
            xs = [None] * len(m)
            for i in range(len(xs)):
                if i == 1:
                    continue
                xs[i] = torch.zeros(())
            return torch.tensor(xs)
        """, ([1, 2],)),
    "a store under a test": ("""
        def use(m):
            xs = [None] * len(m)
            for i in range(len(xs)):
                if i != 1:
                    xs[i] = torch.zeros(())
            return torch.tensor(xs)
        """, ([1, 2],)),
    "a break after the store": ("""
        def use(m):
            xs = [None] * len(m)
            for i in range(len(xs)):
                xs[i] = torch.zeros(())
                break
            return torch.tensor(xs)
        """, ([1, 2],)),
    "one slot fewer": ("""
        def use(m):
            k = len(m)
            xs = [None] * k
            for i in range(k - 1):
                xs[i] = torch.zeros(())
            return torch.tensor(xs)
        """, ([1, 2],)),
    "n rebound between": ("""
        def use(m):
            k = len(m)
            xs = [None] * k
            k = 1
            for i in range(k):
                xs[i] = torch.zeros(())
            return torch.tensor(xs)
        """, ([1, 2],)),
    "the loop in another block": ("""
        def use(m):
            k = len(m)
            xs = [None] * k
            if m:
                k = 1
                for i in range(k):
                    xs[i] = torch.zeros(())
            return torch.tensor(xs)
        """, ([1, 2],)),
    "the index rebound before the store": ("""
        def use(m):
            xs = [None] * len(m)
            for i in range(len(xs)):
                i = 0
                xs[i] = torch.zeros(())
            return torch.tensor(xs)
        """, ([1, 2],)),
    "a later store of None": ("""
        def use(m):
            xs = [None] * len(m)
            for i in range(len(xs)):
                xs[i] = torch.zeros(())
            xs[0] = None
            return torch.tensor(xs)
        """, ([1, 2],)),
    "another store in the loop": ("""
        def use(m):
            xs = [None] * len(m)
            for i in range(len(xs)):
                xs[i] = torch.zeros(())
                xs[0] = None
            return torch.tensor(xs)
        """, ([1, 2],)),
    "a handler may skip the rest": ("""
        def use(m):
            xs = [None] * len(m)
            try:
                for i in range(len(xs)):
                    xs[i] = torch.zeros(()) + 1 / (i - 1)
            except ZeroDivisionError:
                pass
            return torch.tensor(xs)
        """, ([1, 2],)),
}

# the list escapes, or what [c] * n makes is not known: nothing
QUIET = {
    "passed to a function": """
        def fill(lst):
            lst[0] = 1.0

        def use(m):
            xs = [None] * len(m)
            for i in range(len(xs)):
                xs[i] = torch.zeros(())
            fill(xs)
            return torch.tensor(xs)
        """,
    "held by another name": """
        def use(m):
            xs = [None] * len(m)
            ys = xs
            for i in range(len(xs)):
                xs[i] = torch.zeros(())
            ys[0] = 1.0
            return torch.tensor(xs)
        """,
    "an insert": """
        def use(m):
            xs = [None] * len(m)
            for i in range(len(xs)):
                xs[i] = torch.zeros(())
            xs.insert(0, 1.0)
            return torch.tensor(xs)
        """,
    "a slice stored": """
        def use(m):
            xs = [None] * len(m)
            for i in range(len(xs)):
                xs[i] = torch.zeros(())
            xs[0:1] = [1.0]
            return torch.tensor(xs)
        """,
    "an augmented store": """
        def use(m):
            xs = [None] * len(m)
            for i in range(len(xs)):
                xs[i] = torch.zeros(())
                xs[i] += 1
            return torch.tensor(xs)
        """,
    "a count not proven an int (its __rmul__ may make anything)": """
        def use(n):
            xs = [None] * n
            for i in range(len(xs)):
                xs[i] = torch.zeros(())
            return torch.tensor(xs)
        """,
}


# a second name for the list made without reading it (a chained target, :=): stores through it
# are not seen on the first; these were reported, TRC101 with a safe fix on a float
ALIASED = {
    "a chained target, an index stored": """
        def use():
            xs = ys = [torch.zeros(())]
            ys[0] = 1.0
            return torch.tensor(xs[0])
        """,
    "a chained target, an append": """
        def use():
            xs = ys = [torch.zeros(())]
            ys.append(1.0)
            return torch.tensor(xs[1])
        """,
    "a := in the value": """
        def use():
            xs = (ys := [torch.zeros(())])
            ys[0] = 1.0
            return torch.tensor(xs[0])
        """,
    "bound by :=": """
        def use():
            ys = (xs := [torch.zeros(())])
            ys[0] = 1.0
            return torch.tensor(xs[0])
        """,
    "a filled list with a chained target": """
        def use():
            xs = ys = [None] * 2
            for i in range(len(xs)):
                xs[i] = torch.zeros(())
            ys[0] = 1.0
            return torch.tensor(xs[0])
        """,
}


@pytest.mark.parametrize("name", ALIASED)
def test_a_list_another_name_holds_from_its_store_is_not_followed(name):
    src = HEAD + textwrap.dedent(ALIASED[name])
    assert lint_source(src) == []
    assert not copies_a_tensor(src)


@pytest.mark.parametrize("name", FILLED)
def test_filled_lists_are_lists_of_tensors(name):
    body, args = FILLED[name]
    findings = trc108(body)
    assert findings and all("on some paths" not in f.message and f.fix is not None and not f.fix.safe
                            for f in findings)
    xs = built(body, *args)
    assert xs and all(isinstance(x, torch.Tensor) for x in xs)


@pytest.mark.parametrize("name", SOME)
def test_a_slot_that_may_keep_none_gives_the_some_path_report(name):
    body, args = SOME[name]
    (finding,) = trc108(body)
    assert "on some paths" in finding.message and finding.fix is None
    xs = built(body, *args)
    assert any(x is None for x in xs) and any(isinstance(x, torch.Tensor) for x in xs)


@pytest.mark.parametrize("name", QUIET)
def test_escapes_and_unproven_counts_are_quiet(name):
    assert trc108(QUIET[name]) == []


def test_what_an_rmul_makes_is_not_a_list_of_none():
    class Count:
        def __rmul__(self, other):
            return [1.0, 2.0]
    xs = built(QUIET["a count not proven an int (its __rmul__ may make anything)"], Count())
    assert all(isinstance(x, torch.Tensor) for x in xs)  # filled here, but [None] * n proved nothing
    assert [None] * Count() == [1.0, 2.0]


def test_items_read_by_iteration_and_by_a_computed_index():
    src = HEAD + textwrap.dedent("""
        def use(m, j):
            xs = [None] * len(m)
            for i in range(len(xs)):
                xs[i] = torch.zeros(())
            probe(xs[j])
            for x in xs:
                probe(x)
            ys = [None] * len(m)
            for k in m:
                ys[k] = torch.zeros(())
            probe(ys[j])
        """)
    a, b, c = analysed(src)
    assert a.kind == "tensor" and b.kind == "tensor"
    assert c.kind == "unknown" and c.some


# every slot overwritten at a negative or bool constant index (hostile review 10: these
# were joined as unknown slots, so "the items of xs are tensors on some paths" was reported
# of a list of floats, and TRC101 "xs[1] is a tensor on some paths" of a float)
OVERWRITTEN = {
    "a negative index": """
        def use():
            xs = [torch.zeros(()), torch.ones(())]
            xs[0] = 1.0
            xs[-1] = 2.0
            return torch.tensor(xs), torch.tensor(xs[1])
        """,
    "bool indices": """
        def use():
            xs = [torch.zeros(()), torch.ones(())]
            xs[False] = 1.0
            xs[True] = 2.0
            return torch.tensor(xs), torch.tensor(xs[-1])
        """,
}


@pytest.mark.parametrize("name", OVERWRITTEN)
def test_slots_overwritten_at_constant_indices_are_not_tensors(name):
    src = HEAD + textwrap.dedent(OVERWRITTEN[name])
    assert lint_source(src) == []
    assert not copies_a_tensor(src)


def test_a_tensor_stored_at_a_negative_index_is_that_slots():
    src = HEAD + textwrap.dedent("""
        def use():
            xs = [1.0, 2.0]
            xs[-1] = torch.zeros(())
            return torch.tensor(xs[1])
        """)
    (finding,) = lint_source(src)
    assert finding.code == "TRC101" and finding.fix is not None and finding.fix.safe
    assert copies_a_tensor(src)
