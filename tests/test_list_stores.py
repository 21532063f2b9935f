"""What a list holds is trusted only while nothing the analysis does not follow stores into it
(analysis/locallists.py ``list_reads_safe``, asked by the evaluator for each name bound to a list).

``xs = [torch.zeros(())]`` then ``torch.tensor(xs[0])``: reported.  Each look-alike stores into
the list where the evaluator does not see it (``xs[0] = v``, a call, another name, an in-place
method, a list inside the list) and must stay quiet: these were reported, with safe fixes
(``xs[0].detach().clone()`` of a float raises).  Every case is run: ``torch.tensor`` warns that
it copy-constructs exactly when its argument is a tensor.
"""
import textwrap

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source

HEAD = "import random\nimport torch\n\n"

REPORTED = {
    "a display read by index": """
        def use():
            xs = [torch.zeros(())]
            return torch.tensor(xs[0])
        """,
    "appends, then iteration": """
        def use():
            xs = []
            xs.append(torch.zeros(()))
            for x in xs:
                return torch.tensor(x)
        """,
    "read by max and sum of it alone": """
        def use():
            xs = [torch.zeros(())]
            max(xs)
            sum(xs)
            return torch.tensor(xs[0])
        """,
    "read by len, unpacking, torch.stack and a test": """
        def use():
            xs = [torch.zeros(())]
            if xs and len(xs) == 1:
                torch.stack(xs)
            a, = xs
            return torch.tensor(a)
        """,
}

LOOKALIKES = {
    "an index stored": """
        def use():
            xs = [torch.zeros(())]
            xs[0] = 1.0
            return torch.tensor(xs[0])
        """,
    "passed to a function that stores": """
        def fill(lst):
            lst[0] = 1.0

        def use():
            xs = [torch.zeros(())]
            fill(xs)
            return torch.tensor(xs[0])
        """,
    "passed to a function, then iterated": """
        def fill(lst):
            lst.insert(0, 1.0)

        def use():
            xs = []
            xs.append(torch.zeros(()))
            fill(xs)
            for x in xs:
                return torch.tensor(x)
        """,
    "another name stores": """
        def use():
            xs = [torch.zeros(())]
            ys = xs
            ys[0] = 1.0
            return torch.tensor(xs[0])
        """,
    "insert": """
        def use():
            xs = [torch.zeros(())]
            xs.insert(0, 1.0)
            return torch.tensor(xs[0])
        """,
    "reverse": """
        def use():
            xs = [torch.zeros(()), 1.0]
            xs.reverse()
            return torch.tensor(xs[0])
        """,
    "augmented assignment": """
        def use():
            xs = []
            xs.append(torch.zeros(()))
            xs += [1.0]
            return torch.tensor(xs[-1])
        """,
    "an append in a conditional expression": """
        def use(c=True):
            xs = [torch.zeros(())]
            xs.append(1.0) if c else None
            return torch.tensor(xs[-1])
        """,
    "random.shuffle with one item left": """
        def use():
            xs = [torch.zeros(()), 1.0]
            xs.pop(0)
            random.shuffle(xs)
            return torch.tensor(xs[0])
        """,
    "a list inside the list stored into by index": """
        def use():
            xs = [[torch.zeros(())]]
            xs[0][0] = 1.0
            return torch.tensor(xs[0][0])
        """,
    "a list inside the list stored into through the loop name": """
        def use():
            xs = [[torch.zeros(())]]
            for row in xs:
                row[0] = 1.0
            return torch.tensor(xs[0][0])
        """,
    "held in another list": """
        def use():
            xs = [torch.zeros(())]
            box = [xs]
            box[0][0] = 1.0
            return torch.tensor(xs[0])
        """,
    "max of it and another list, stored into": """
        def use():
            xs = [torch.zeros(())]
            max(xs, [], key=len)[0] = 1.0
            return torch.tensor(xs[0])
        """,
    "sum with it as the start, stored into": """
        def use():
            xs = [torch.zeros(())]
            sum([], xs).insert(0, 1.0)
            return torch.tensor(xs[0])
        """,
    "len shadowed by a function that stores": """
        def len(lst):
            lst[0] = 1.0
            return 1

        def use():
            xs = [torch.zeros(())]
            len(xs)
            return torch.tensor(xs[0])
        """,
}


def src(body: str) -> str:
    return HEAD + textwrap.dedent(body).lstrip("\n")


@pytest.mark.parametrize("name", REPORTED)
def test_a_list_nothing_stores_into_keeps_its_items(name):
    assert [f.code for f in lint_source(src(REPORTED[name]))] == ["TRC101"]


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_list_stored_into_unseen_holds_nothing_known(name):
    assert [f.code for f in lint_source(src(LOOKALIKES[name]))] == []


@pytest.mark.verify
@pytest.mark.parametrize("name", REPORTED)
def test_the_kept_items_are_tensors(name):
    assert copies_a_tensor(src(REPORTED[name]))


@pytest.mark.verify
@pytest.mark.parametrize("name", LOOKALIKES)
def test_the_lookalikes_read_no_tensor(name):
    assert not copies_a_tensor(src(LOOKALIKES[name]))


@pytest.mark.parametrize("source, followed", [
    ("out = []\nout.append(1)\n", True),
    ("out = []\ndef g():\n    out.append(2)\n", False),
    ("out = []\nf = lambda: out\n", False),
    ("out = []\nclass C:\n    x = out\n", False),
    ("out = []\ndef g():\n    return 'out'  # out\n", True),  # the word only in a string, a comment
    ("out = []\ndef out2():\n    outs = 1\n", True),
    ("out = []\ndef out():\n    pass\n", False),
])
def test_a_name_used_in_a_nested_scope_is_not_followed(source, followed):
    import ast

    from flake8_torchcopy.analysis.locallists import uses_in_scope
    tree = ast.parse(source)
    assert (uses_in_scope(tree, "out", source) is not None) is followed


def test_dynamic_access_split_matches_the_one_pattern():
    """locallists._dynamic (one word-led pattern per word, for speed) says what the single
    lookbehind-led pattern said, on every mix of the words and their neighbours."""
    import itertools
    import re

    from flake8_torchcopy.analysis.locallists import _dynamic
    one = re.compile(r"(?<![.\w])(?:locals|globals|vars|exec|eval)\b|__dict__|\bf_locals\b|\bbuiltins\b|__builtins__")
    parts = ["locals", "globals", "vars", "exec", "eval", "f_locals", "builtins", "__dict__", "__builtins__",
             ".", "_", "a", "é", "(", " "]
    for n in (1, 2, 3):
        for pieces in itertools.product(parts, repeat=n):
            text = "".join(pieces)
            assert _dynamic(text) == bool(one.search(text)), text
    assert _dynamic("x = locals()") and not _dynamic("model.eval()") and not _dynamic("cocoeval(x)")
