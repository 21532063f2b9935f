"""Values read back from dicts (analysis/localdicts.py): ``d["a"]`` of a local dict display,
and of the fresh dict a method or a module-level function returns.

Each case defines ``use()``, which calls ``torch.tensor`` on a value read from a dict.  The
reporting cases are reported (TRC101, with the fix safety shown); each look-alike stores into
the dict, lets another name hold it, or binds something else, and must stay quiet.  Every case
is also run: ``torch.tensor`` warns that it copy-constructs exactly when its argument is a
tensor, so a run shows that what the analysis claims (or refuses to claim) is what happens.
"""
import textwrap

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source

HEAD = "import torch\n\n"

REPORTED = {
    "a dict display read by its key": ("""
        def use():
            d = {"a": torch.zeros(3), "n": 1}
            return torch.tensor(d["a"])
        """, True),
    "read in a test, a loop over its items, and returned": ("""
        def use():
            d = {"a": torch.zeros(3)}
            if d:
                if "a" in d:
                    for k, v in d.items():
                        pass
            out = torch.tensor(d["a"])
            if d.get("a") is None:
                return d
            return out
        """, True),
    "a module-level function that returns a dict display": ("""
        def stats():
            return {"m": torch.zeros(2), "n": 3}

        def use():
            s = stats()
            return torch.tensor(s["m"])
        """, True),
    "a method that returns a dict display (a subclass may override it)": ("""
        class M:
            def stats(self, c):
                if c:
                    return {"m": torch.ones(2)}
                return {"m": torch.zeros(2), "k": 1}

            def run(self):
                s = self.stats(True)
                return torch.tensor(s["m"])

        def use():
            return M().run()
        """, False),
    "a store by a constant key into an empty display": ("""
        def use():
            d = {}
            d["a"] = torch.zeros(3)
            d[0] = 1.0
            return torch.tensor(d["a"])
        """, True),
    "a store by its key replaces a number": ("""
        def use():
            d = {"a": 1.0, "b": 2}
            d["a"] = torch.zeros(3)
            return torch.tensor(d["a"])
        """, True),
}

LOOKALIKES = {
    "a store by a computed key": """
        def use():
            k = "a"
            d = {}
            d["a"] = torch.zeros(3)
            d[k] = 1.0
            return torch.tensor(d["a"])
        """,
    "a store by a float key equal to an int key": """
        def use():
            d = {1: torch.zeros(3)}
            d[1.0] = 1.0
            return torch.tensor(d[1])
        """,
    "a store in a tuple target": """
        def use():
            d = {"a": torch.zeros(3)}
            d["a"], x = 1.0, 2
            return torch.tensor(d["a"])
        """,
    "a chained store": """
        def use():
            d = {"a": torch.zeros(3)}
            e = d["a"] = 1.0
            return torch.tensor(d["a"])
        """,
    "a store on a branch not taken leaves the number": """
        def use(c=False):
            d = {"a": 1.0}
            if c:
                d["a"] = torch.zeros(3)
            return torch.tensor(d["a"])
        """,
    "a store after the display": """
        def use():
            d = {"a": torch.zeros(3)}
            d["a"] = 1.0
            return torch.tensor(d["a"])
        """,
    "update": """
        def use():
            d = {"a": torch.zeros(3)}
            d.update(a=1.0)
            return torch.tensor(d["a"])
        """,
    "passed to a function that stores": """
        def fill(x):
            x["a"] = 1.0

        def use():
            d = {"a": torch.zeros(3)}
            fill(d)
            return torch.tensor(d["a"])
        """,
    "another name holds it": """
        def use():
            d = {"a": torch.zeros(3)}
            e = d
            e["a"] = 1.0
            return torch.tensor(d["a"])
        """,
    "read through another name": """
        def use():
            d = {"a": torch.zeros(3)}
            e = d
            d["a"] = 1.0
            return torch.tensor(e["a"])
        """,
    "pop then store": """
        def use():
            d = {"a": torch.zeros(3)}
            d.pop("a")
            d["a"] = 1.0
            return torch.tensor(d["a"])
        """,
    "augmented assignment of the dict": """
        def use():
            d = {"a": torch.zeros(3)}
            d |= {"a": 1.0}
            return torch.tensor(d["a"])
        """,
    "a for target into the dict": """
        def use():
            d = {"a": torch.zeros(3)}
            for d["a"] in [1.0]:
                pass
            return torch.tensor(d["a"])
        """,
    "a nested function stores": """
        def use():
            d = {"a": torch.zeros(3)}
            def g():
                d["a"] = 1.0
            g()
            return torch.tensor(d["a"])
        """,
    "a key given twice (the last wins)": """
        def use():
            d = {"a": torch.zeros(3), "a": 1.0}
            return torch.tensor(d["a"])
        """,
    "True and 1 are one key": """
        def use():
            d = {1: torch.zeros(3), True: 1.0}
            return torch.tensor(d[1])
        """,
    "rebound in a loop after the read": """
        def use():
            d = {"a": torch.zeros(3)}
            out = None
            for i in range(2):
                if i:
                    out = torch.tensor(d["a"])
                d = {"a": 1.0}
            return out
        """,
    "bound to a value that is not fresh": """
        BASE = {"a": 1.0}

        def use():
            d = {"a": torch.zeros(3)}
            d = BASE
            return torch.tensor(d["a"])
        """,
    "escaped through `or`": """
        def use():
            d = {"a": torch.zeros(3)}
            e = d or {}
            e["a"] = 1.0
            return torch.tensor(d["a"])
        """,
    "a dict held in a list": """
        def use():
            d = {"a": torch.zeros(3)}
            box = [d]
            box[0]["a"] = 1.0
            return torch.tensor(d["a"])
        """,
    "the function overridden in the module": """
        class M:
            def stats(self):
                return {"m": torch.zeros(2)}

            def run(self):
                s = self.stats()
                return torch.tensor(s["m"])

        class N(M):
            def stats(self):
                return {"m": 1.0}

        def use():
            return N().run()
        """,
    "one return holds no tensor under the key": """
        class M:
            def stats(self, c):
                if c:
                    return {"m": 1.0}
                return {"m": torch.zeros(2)}

            def run(self):
                s = self.stats(True)
                return torch.tensor(s["m"])

        def use():
            return M().run()
        """,
    "a return that is no display": """
        class M:
            cache = {"m": 1.0}

            def stats(self, c):
                if c:
                    return self.cache
                return {"m": torch.zeros(2)}

            def run(self):
                s = self.stats(True)
                return torch.tensor(s["m"])

        def use():
            return M().run()
        """,
    "the function rebound": """
        def stats():
            return {"m": torch.zeros(2)}

        stats = lambda: {"m": 1.0}

        def use():
            s = stats()
            return torch.tensor(s["m"])
        """,
    "the returned dict stored into": """
        def stats():
            return {"m": torch.zeros(2)}

        def use():
            s = stats()
            s["m"] = 1.0
            return torch.tensor(s["m"])
        """,
}


def src(body: str) -> str:
    return HEAD + textwrap.dedent(body).lstrip("\n")


@pytest.mark.parametrize("name", REPORTED)
def test_a_value_read_back_from_a_fresh_dict_is_evidence(name):
    body, safe = REPORTED[name]
    found = [(f.code, bool(f.fix and f.fix.safe)) for f in lint_source(src(body))]
    assert found == [("TRC101", safe)]


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_dict_the_analysis_cannot_follow_gives_nothing(name):
    assert [f.code for f in lint_source(src(LOOKALIKES[name]))] == []


@pytest.mark.verify
@pytest.mark.parametrize("name", REPORTED)
def test_the_reported_values_are_tensors(name):
    assert copies_a_tensor(src(REPORTED[name][0]))


@pytest.mark.verify
@pytest.mark.parametrize("name", LOOKALIKES)
def test_the_lookalikes_read_no_tensor(name):
    assert not copies_a_tensor(src(LOOKALIKES[name]))
