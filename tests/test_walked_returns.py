"""Returns of module functions through their data flow (analysis/returnwalker.py
``walked_returns``): a call of a module-level function is a tensor when the walk of the
function, its parameters unknown, proves every ``return`` a tensor (``y = torch.zeros(int(n));
return y * 2``), the function ends in a ``return`` and its name is bound once.

The reported cases warn when run (``torch.tensor`` copy-constructs from a tensor); each
look-alike may return something else and is quiet, and those run show no tensor arrives.
"""
import textwrap

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source

HEAD = "import torch\n\n"

REPORTED = {
    "a local built by torch, then an op": """
        def make(n):
            y = torch.zeros(int(n))
            return y * 2

        def use():
            return torch.tensor(make(3))
        """,
    "every return a tensor by its own way": """
        def make(c):
            if c:
                return torch.ones(2)
            y = torch.zeros(2)
            y[0] = 1.0
            return y + 1

        def use():
            return torch.tensor(make(False))
        """,
}

LOOKALIKES = {
    "a return that depends on a parameter": ("""
        def make(x):
            return x * 2

        def use():
            return torch.tensor(make(1.5))
        """, True),
    "one return that is no tensor": ("""
        def make(c):
            y = torch.zeros(2)
            if c:
                return y.tolist()
            return y

        def use():
            return torch.tensor(make(True))
        """, True),
    "a function that may fall off its end": ("""
        def make(c):
            if c:
                y = torch.zeros(2)
                return y * 1
            else:
                pass

        def use(c=False):
            return torch.tensor(make(c))  # None: raises
        """, False),
    "the name bound again": ("""
        def make():
            y = torch.zeros(2)
            return y * 2

        make = lambda: [1.0, 2.0]

        def use():
            return torch.tensor(make())
        """, True),
    "a decorated function": ("""
        import functools

        def listed(f):
            @functools.wraps(f)
            def g(*a):
                return f(*a).tolist()
            return g

        @listed
        def make():
            y = torch.zeros(2)
            return y * 2

        def use():
            return torch.tensor(make())
        """, True),
    "a global a function rebinds": ("""
        T = torch.zeros(2)

        def reset():
            global T
            T = [1.0, 2.0]

        def make():
            return T * 1

        def use():
            reset()
            return torch.tensor(make())
        """, True),
}


def source(body: str) -> str:
    return HEAD + textwrap.dedent(body).lstrip("\n")


@pytest.mark.parametrize("name", REPORTED)
def test_a_return_tensor_by_data_flow_is_evidence(name):
    (finding,) = lint_source(source(REPORTED[name]))
    assert finding.code == "TRC101" and finding.fix is not None and finding.fix.safe


@pytest.mark.parametrize("name", LOOKALIKES)
def test_returns_the_walk_cannot_prove_give_nothing(name):
    assert lint_source(source(LOOKALIKES[name][0])) == []


@pytest.mark.verify
@pytest.mark.parametrize("name", REPORTED)
def test_the_reported_calls_return_tensors(name):
    assert copies_a_tensor(source(REPORTED[name]))


@pytest.mark.verify
@pytest.mark.parametrize("name", [n for n, (_, runs) in LOOKALIKES.items() if runs])
def test_the_lookalikes_return_no_tensor(name):
    assert not copies_a_tensor(source(LOOKALIKES[name][0]))
