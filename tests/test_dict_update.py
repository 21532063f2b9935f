"""Dicts merged with ``d.update(e)`` and dicts whose keys are not written out
(analysis/localdicts.py): ``e`` a dict display, a dict comprehension, or a call of a
function or method whose every ``return`` is such a dict or a local name bound only to
one (and handed to nothing else).

``d[k]`` of a key ``e`` lists is what ``e`` holds there; a key ``e`` may hold but does not
list (a comprehension's) may replace each of ``d``'s, so such a key holds a tensor only when
both are tensors, and a key read that only "any key" may hold is trusted only when every
value it may be is a tensor.  Reported cases run: ``torch.tensor`` warns that it
copy-constructs exactly when given a tensor.  Look-alikes that would be wrong if claimed run
too and pass no tensor; those refused by policy only (a name as the source, keywords) are
checked for silence alone.
"""
import textwrap

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")
HEAD = "import torch\n\n"

# (body, is the fix safe?)
REPORTED = {
    "update from a display": ("""
        def use():
            d = {"a": 1.0}
            d.update({"b": torch.zeros(3)})
            return torch.tensor(d["b"])
        """, True),
    "update of an empty display from a module-level function": ("""
        def stats():
            return {"m": torch.zeros(2), "n": 3}

        def use():
            d = {}
            d.update(stats())
            return torch.tensor(d["m"])
        """, True),
    "a key only a comprehension may hold": ("""
        def use(ks=("z",)):
            d = {}
            d.update({k: torch.zeros(()) for k in ks})
            return torch.tensor(d["z"])
        """, True),
    "a display's key and a method's comprehension, through a returned name (digital_typhoon)": ("""
        class D:
            def feats(self, names):
                fd = {n: torch.zeros(()) for n in names}
                return fd

            def get(self, names):
                sample = {"image": torch.zeros(2)}
                sample.update(self.feats(names))
                return torch.tensor(sample["image"])

        def use():
            return D().get(["x"])
        """, False),
    "a display with a computed key, read by another": ("""
        def use(k="a", j="a"):
            d = {k: torch.zeros(3)}
            return torch.tensor(d[j])
        """, False),  # an index not known: the subclass caveat of any subscript
}

# would be wrong if claimed: a run passes no tensor
LOOKALIKES = {
    "a key a comprehension may replace": """
        def use(ks=("b",)):
            d = {"a": 1.0}
            d.update({k: torch.zeros(3) for k in ks})
            return torch.tensor(d["a"])
        """,
    "a computed key of a dict not all tensors": """
        def use(k="n"):
            d = {"a": torch.zeros(3), "n": 1}
            return torch.tensor(d[k])
        """,
    "updated, then passed to a function that stores": """
        def fill(x):
            x["b"] = 1.0

        def use():
            d = {}
            d.update({"b": torch.zeros(3)})
            fill(d)
            return torch.tensor(d["b"])
        """,
    "update from a call the analysis does not know": """
        def load():
            return dict(b=1.0)

        def use():
            d = {"b": torch.zeros(3)}
            d.update(load())
            return torch.tensor(d["b"])
        """,
    "a method's returned name also held by the instance": """
        class M:
            def feats(self):
                fd = {"m": torch.zeros(2)}
                self.last = fd
                return fd

        def use():
            m = M()
            s = {}
            s.update(m.feats())
            t = m.feats()
            m.last["m"] = 1.0
            return torch.tensor(t["m"])
        """,
    "update in an expression": """
        def use():
            d = {"b": 1.0}
            x = d.update({"b": torch.zeros(3)}) or d.update({"b": 2.0})
            return torch.tensor(d["b"])
        """,
}

# refused by policy: silent, whatever a run passes
POLICY = {
    "a name as the source": """
        def use():
            e = {"b": torch.zeros(3)}
            d = {}
            d.update(e)
            return torch.tensor(d["b"])
        """,
    "keywords": """
        def use():
            d = {}
            d.update(b=torch.zeros(3))
            return torch.tensor(d["b"])
        """,
    "a store in a loop (what a join keeps of a dict is not followed)": """
        def use(ks=("b",)):
            d = {"b": torch.zeros(3)}
            for k in ks:
                d["b"] = torch.ones(3)
            return torch.tensor(d["b"])
        """,
}


def src(body: str) -> str:
    return HEAD + textwrap.dedent(body).lstrip("\n")


@pytest.mark.parametrize("name", REPORTED)
def test_a_merged_dict_is_read_back(name):
    body, safe = REPORTED[name]
    found = [(f.code, bool(f.fix and f.fix.safe)) for f in lint_source(src(body))]
    assert found == [("TRC101", safe)]
    assert copies_a_tensor(src(body))


@pytest.mark.parametrize("name", LOOKALIKES)
def test_what_a_merge_may_replace_gives_nothing(name):
    assert [f.code for f in lint_source(src(LOOKALIKES[name]))] == []
    assert not copies_a_tensor(src(LOOKALIKES[name]))


@pytest.mark.parametrize("name", POLICY)
def test_sources_not_followed_give_nothing(name):
    assert [f.code for f in lint_source(src(POLICY[name]))] == []


def test_every_value_read_by_computed_keys_is_trc108_evidence():
    body = """
        class D:
            def feats(self, names):
                return {n: torch.zeros(()) for n in names}

            def get(self, names, targets):
                sample = {"image": torch.zeros(())}
                sample.update(self.feats(names))
                return torch.tensor([sample[t] for t in targets], dtype=torch.float32)
        """
    (f,) = lint_source(src(body))
    assert f.code == "TRC108" and "on some paths" not in f.message and f.fix is None
    ns: dict = {}
    exec(compile(src(body).replace("torch.tensor(", "(lambda xs, dtype: xs)(", 1), "case", "exec"), ns)
    items = ns["D"]().get(["x"], ["image", "x"])
    assert all(isinstance(x, torch.Tensor) for x in items)
