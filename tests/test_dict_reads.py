"""Values read from a recorded dict through its methods (analysis/dictreads.py): the items of
``d.values()``/``d.items()`` iterated at once, ``d.get("k")``, and ``f()["k"]`` of a dict a
call just made.

Each case defines ``use()``, which calls ``torch.tensor`` on such a value.  The reported cases
are reported (TRC101, with the fix safety shown) and run: ``torch.tensor`` warns that it
copy-constructs exactly when its argument is a tensor.  A view is live: a store into the dict
while it is iterated, or a view kept and iterated later, shows the stored value.  Those cases
stay quiet, and each is run with the fix applied by hand (``v.clone().detach()``): it raises,
so no fix there could be safe.
"""
import textwrap

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source

HEAD = "import torch\n\n"

REPORTED = {
    "a loop over items()": ("""
        def use():
            d = {"a": torch.zeros(3), "b": torch.ones(2)}
            for k, v in d.items():
                torch.tensor(v)
        """, True),
    "a comprehension over values()": ("""
        def use():
            d = {"a": torch.zeros(3)}
            return [torch.tensor(v) for v in d.values()]
        """, True),
    "get of a listed key": ("""
        def use():
            d = {"a": torch.zeros(3)}
            return torch.tensor(d.get("a", None))
        """, True),
    "values() where one value is not known: a tensor on some paths": ("""
        def use(c=1.0):
            d = {"a": torch.zeros(3), "c": c}
            for v in d.values():
                torch.tensor(v)
        """, None),
    "the items of a dict a module-level function returns": ("""
        def stats():
            return {"m": torch.zeros(2)}

        def use():
            for name, v in stats().items():
                torch.tensor(v)
        """, True),
    "a key of the dict a call just made": ("""
        def stats():
            return {"m": torch.zeros(2), "n": 3}

        def use():
            return torch.tensor(stats()["m"])
        """, True),
    "a key of the dict a method returns (a subclass may override it)": ("""
        class M:
            def out(self):
                return {"m": torch.zeros(2)}

            def run(self):
                return torch.tensor(self.out()["m"])

        def use():
            return M().run()
        """, False),
}

LIVE_VIEWS = {
    "a store into the dict while its items are iterated": """
        def use():
            d = {"a": torch.zeros(3), "b": torch.zeros(3)}
            for k, v in d.items():
                d["b"] = [1.0]
                torch.tensor(v)
        """,
    "update() while its values are iterated": """
        def use():
            d = {"a": torch.zeros(3), "b": torch.zeros(3)}
            for v in d.values():
                torch.tensor(v)
                d.update({"b": 1.0})
        """,
    "a generator expression over values(), run after a store": """
        def use():
            d = {"a": torch.zeros(3), "b": torch.zeros(3)}
            g = (torch.tensor(v) for v in d.values())
            d["b"] = [1.0]
            return list(g)
        """,
    "a generator expression over the items of a call's dict, run after a store": """
        def stats():
            return {"a": torch.zeros(3), "b": torch.zeros(3)}

        def use():
            s = stats()
            g = ([torch.tensor(v) for k, v in s.items()] for _ in range(1))
            s["b"] = [1.0]
            return list(g)
        """,
    "a view kept, the dict stored into, the view iterated": """
        def use():
            d = {"a": torch.zeros(3)}
            vs = d.values()
            d["a"] = [1.0]
            for v in vs:
                torch.tensor(v)
        """,
}


EQUAL_KEYS = {
    "keys 1 and 1.0 of a display: one key, holding the list": """
        def use():
            d = {1: torch.zeros(3), 1.0: [1.0]}
            return [torch.tensor(v) for v in d.values()]
        """,
    "keys 0 and False of a display": """
        def use():
            d = {0: torch.zeros(3), "b": 2.0, False: [1.0]}
            for k, v in d.items():
                torch.tensor(v)
        """,
}


@pytest.mark.parametrize("name", EQUAL_KEYS)
def test_constant_keys_that_compare_equal_keep_the_last_value(name):
    """Not even "a tensor on some paths": no run of it copies a tensor."""
    code = src(EQUAL_KEYS[name])
    assert [f.code for f in lint_source(code)] == []
    assert not copies_a_tensor(code)


def src(body: str) -> str:
    return HEAD + textwrap.dedent(body)


@pytest.mark.parametrize("name", REPORTED)
def test_a_value_read_through_a_dict_method_is_evidence(name):
    body, safe = REPORTED[name]
    found = [(f.code, None if f.fix is None else f.fix.safe) for f in lint_source(src(body))]
    assert found == [("TRC101", safe)]
    assert copies_a_tensor(src(body))


@pytest.mark.parametrize("name", LIVE_VIEWS)
def test_a_view_the_loop_may_change_gives_nothing(name):
    code = src(LIVE_VIEWS[name])
    assert [f.code for f in lint_source(code)] == []
    ns: dict = {}
    exec(compile(code.replace("torch.tensor(v)", "v.clone().detach()"), "case", "exec"), ns)
    with pytest.raises(AttributeError):
        ns["use"]()


def test_a_key_between_equal_constant_keys_leaves_the_first_value_replaced():
    code = src("""
        def use(x="b"):
            d = {1: torch.zeros(3), x: 2.0, 1.0: [1.0]}
            for v in d.values():
                torch.tensor(v)
        """)
    assert [f.code for f in lint_source(code)] == []
    assert not copies_a_tensor(code)
