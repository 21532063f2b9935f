"""``try: import torch`` / ``except ImportError: torch = None``: where the import failed,
every attribute of ``torch`` raises, so ``torch.tensor(t)`` runs only with torch's own and
is reported; the fix is unsafe (with torch None the original raises, the fix may not).
Look-alikes whose handler binds something else, catches more, or whose body rebinds the
name stay unknown (quiet)."""
import textwrap
import warnings

import pytest
import torch

from flake8_torchcopy import lint_source

USE = """
def f():
    t = torch.zeros(3)
    return torch.tensor(t)
"""

REPORTED = [
    "try:\n    import torch\nexcept ImportError:\n    torch = None\n" + USE,
    "try:\n    import torch\nexcept (ImportError, ModuleNotFoundError):\n    torch = None\n" + USE,
    "try:\n    import torch\n    import numpy as np\nexcept ImportError:\n    torch = None\n    np = None\n"
    + USE,
    # at module level too
    "try:\n    import torch\nexcept ImportError:\n    torch = None\nt = torch.zeros(3)\nx = torch.tensor(t)\n",
]

QUIET = [
    # the handler binds another module, or a stand-in
    "try:\n    import torch\nexcept ImportError:\n    import numpy as torch\n" + USE,
    "try:\n    import torch\nexcept ImportError:\n    torch = Stub()\n" + USE,
    # catches more than a failed import
    "try:\n    import torch\nexcept Exception:\n    torch = None\n" + USE,
    "try:\n    import torch\nexcept ImportError:\n    torch = None\nexcept OSError:\n    pass\n" + USE,
    # the handler does more than bind None
    "try:\n    import torch\nexcept ImportError:\n    torch = None\n    setup()\n" + USE,
    # else rebinds the name
    "try:\n    import torch\nexcept ImportError:\n    torch = None\nelse:\n    torch = wrap(torch)\n" + USE,
]


def trc101(src):
    return [f for f in lint_source(src) if f.code == "TRC101"]


@pytest.mark.parametrize("src", REPORTED)
def test_optional_torch_is_torch_where_used(src):
    found = trc101(src)
    assert len(found) == 1
    assert found[0].fix is not None and not found[0].fix.safe
    ns: dict = {}
    with warnings.catch_warnings(record=True) as w:  # with torch installed, torch warns there
        warnings.simplefilter("always")
        exec(src, ns)
        if "f" in ns:
            ns["f"]()
    assert any("copy construct from a tensor" in str(x.message) for x in w)


@pytest.mark.parametrize("src", QUIET)
def test_optional_import_look_alikes_are_quiet(src):
    assert trc101(src) == []


def test_optional_torch_none_raises_at_the_call():
    # the claim the report rests on: with torch None, torch.tensor(...) never runs
    src = "torch = None\n" + USE
    ns: dict = {}
    exec(textwrap.dedent(src), ns)
    with pytest.raises(AttributeError):
        ns["f"]()
    assert torch.tensor is not None
