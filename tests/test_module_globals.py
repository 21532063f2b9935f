"""A module global bound once, to a tensor, before a function is defined: whenever the
function runs, the name holds that tensor (or raises ``NameError``), so a copy idiom on
it is reported.  Another module may rebind the global (``mod.ROOTS = [...]``): the fix is
unsafe.  Every other global stays unknown inside functions: rebound later, ``global`` in
a function, ``del``, a star import, dynamic stores, a binding in a module-level loop, a
binding placed after the def, a value that is a tensor on one branch only."""
import textwrap

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source

HEAD = "import torch\n"


def trc101(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC101"]


REPORTED = [
    """
    ROOTS = torch.tensor([[3.14, 6.28], [4.49, 7.72]])

    def use():
        return torch.tensor(ROOTS[:1])
    """,
    # read in a method
    """
    SCALE = torch.ones(2) * 2

    class Basis:
        def use(self):
            return torch.tensor(SCALE)

    def use():
        return Basis().use()
    """,
]


@pytest.mark.parametrize("body", REPORTED)
def test_a_global_bound_once_to_a_tensor_is_one_in_functions(body):
    found = trc101(body)
    assert len(found) == 1
    assert found[0].fix is not None and not found[0].fix.safe  # another module may rebind it
    assert copies_a_tensor(HEAD + textwrap.dedent(body))


QUIET = [
    # rebound after the def
    """
    T = torch.zeros(3)

    def use():
        return torch.tensor(T)

    T = [1.0, 2.0]
    """,
    # `global` in a function
    """
    T = torch.zeros(3)

    def use():
        return torch.tensor(T)

    def reset():
        global T
        T = [1.0]
    """,
    # deleted
    """
    T = torch.zeros(3)

    def use():
        return torch.tensor(T)

    del T
    """,
    # a star import may rebind any name
    """
    T = torch.zeros(3)
    from os.path import *

    def use():
        return torch.tensor(T)
    """,
    # dynamic stores
    """
    T = torch.zeros(3)
    globals()["T"] = [1.0]

    def use():
        return torch.tensor(T)
    """,
    # bound in a module-level loop, the def in it too
    """
    for n in (1, 2):
        T = torch.zeros(n)

        def use():
            return torch.tensor(T)
    """,
    # the one binding placed after the def: not assumed
    """
    def use():
        return torch.tensor(T)

    T = torch.zeros(3)
    """,
    # a tensor on one branch only
    """
    import os
    T = torch.zeros(3) if os.environ.get("X") else [1.0]

    def use():
        return torch.tensor(T)
    """,
    # a class attribute is no global of its methods
    """
    class Basis:
        T = torch.zeros(3)

        def use(self):
            return torch.tensor(T)
    """,
]


@pytest.mark.parametrize("body", QUIET)
def test_other_globals_stay_unknown_in_functions(body):
    assert trc101(body) == []


def test_methods_of_a_module_class_see_no_import_rebound_later():
    """The methods of a class at module level see the module as its functions do: a name
    the module binds again later (``torch = ...``) is unknown there too."""
    body = """
    class A:
        def f(self):
            t = torch.zeros(3)
            return torch.tensor(t)

    torch = None
    """
    assert trc101(body) == []
    assert len(trc101(body.replace("torch = None", ""))) == 1
