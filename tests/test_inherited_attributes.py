"""Attributes a base class's ``__init__`` stores from a tensor the class passes
(analysis/inherited.py, through analysis/summaries.py).

``class Child(Base)`` calls ``super().__init__(torch.zeros(3))`` and ``Base.__init__(self, w)``
does ``self.w = w``: ``torch.tensor(self.w)`` in ``Child`` is reported.  Each look-alike runs
``Base.__init__`` (or another store) on a ``Child`` with something else, and must stay quiet.
Every case is also run: ``torch.tensor`` warns that it copy-constructs exactly when its
argument is a tensor.
"""
import textwrap

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source

HEAD = "import torch\nimport torch.nn as nn\n\n"

def case(*parts: str) -> str:
    return "\n\n".join(textwrap.dedent(p).strip("\n") for p in parts) + "\n"


BASE = """
class Base:
    def __init__(self, w, k=1):
        self.w = w
        self.k = k
"""

CHILD = """
class Child(Base):
    def __init__(self):
        super().__init__(torch.zeros(3))

    def g(self):
        return torch.tensor(self.w)
"""

RESET_STORE = "\n\n    def reset(self):\n        self.w = 1.0\n"
RESET_INIT = "\n\n    def reset(self):\n        super().__init__(1.0)\n"
AFTER_RESET = "(lambda c: (c.reset(), c.g())[1])(Child())"

REPORTED = {
    "passed positionally": (case(BASE, CHILD), "Child().g()"),
    "passed by keyword, through nn.Module": (case("""
        class Base(nn.Module):
            def __init__(self, k, *, w):
                super().__init__()
                self.w = w

        class Child(Base):
            def __init__(self):
                super().__init__(1, w=nn.Parameter(torch.zeros(3)))

            def g(self):
                return torch.tensor(self.w)
        """), "Child().g()"),
    "the base's __init__ called by name": (case(BASE, """
        class Child(Base):
            def __init__(self):
                Base.__init__(self, torch.ones(2))

            def g(self):
                return torch.tensor(self.w)
        """), "Child().g()"),
    "a subclass of the class that calls super()": (case(BASE, CHILD, """
        class Grand(Child):
            def __init__(self):
                super().__init__()
        """), "Grand().g()"),
}

LOOKALIKES = {
    "another parameter gets the tensor": (case(BASE, """
        class Child(Base):
            def __init__(self):
                super().__init__(1.0, torch.zeros(3))

            def g(self):
                return torch.tensor(self.w)
        """), "Child().g()"),
    "the parameter left to its default": (case("""
        class Base:
            def __init__(self, w=1.0, k=None):
                self.w = w

        class Child(Base):
            def __init__(self):
                super().__init__(k=torch.zeros(3))

            def g(self):
                return torch.tensor(self.w)
        """), "Child().g()"),
    "the class has no __init__ (callers pass anything)": (case(BASE, """
        class Child(Base):
            def g(self):
                return torch.tensor(self.w)
        """), "Child(1.0).g()"),
    "the parameter rebound in the base": (case("""
        class Base:
            def __init__(self, w):
                w = float(w.sum())
                self.w = w

        class Child(Base):
            def __init__(self):
                super().__init__(torch.zeros(3))

            def g(self):
                return torch.tensor(self.w)
        """), "Child().g()"),
    "another method of the base stores": (case(BASE.rstrip() + RESET_STORE, CHILD), AFTER_RESET),
    "another call of super().__init__ in the class": (case(BASE, CHILD.rstrip() + RESET_INIT), AFTER_RESET),
    "a subclass calls the base's __init__ by name": (case(BASE, CHILD, """
        class Grand(Child):
            def __init__(self):
                Base.__init__(self, 1.0)
        """), "Grand().g()"),
    "a subclass skips the class with super(Child, self)": (case(BASE, CHILD, """
        class Grand(Child):
            def __init__(self):
                super(Child, self).__init__(1.0)
        """), "Grand().g()"),
    "a sibling's inherited __init__ called on an instance": (case(BASE, CHILD, """
        class Sibling(Base):
            pass

        def reinit(c):
            Sibling.__init__(c, 1.0)
            return c
        """), "reinit(Child()).g()"),
    "__init__ named in a string": (case(BASE, CHILD, """
        def reinit(c):
            getattr(Base, "__init__")(c, 1.0)
            return c
        """), "reinit(Child()).g()"),
    "multiple inheritance puts another __init__ next": (case(BASE, CHILD, """
        class Other(Base):
            def __init__(self, *args):
                super().__init__(1.0)

        class Both(Child, Other):
            pass
        """), "Both().g()"),
    "a store from outside": (case(BASE, CHILD, """
        def reset(c):
            c.w = 1.0
            return c
        """), "reset(Child()).g()"),
}


def src(body: str) -> str:
    return HEAD + body


@pytest.mark.parametrize("name", REPORTED)
def test_an_attribute_the_base_stores_from_a_passed_tensor_is_evidence(name):
    found = [(f.code, bool(f.fix and f.fix.safe)) for f in lint_source(src(REPORTED[name][0]))]
    assert found == [("TRC101", False)]  # an attribute read from an instance: the fix is unsafe


@pytest.mark.parametrize("name", LOOKALIKES)
def test_an_attribute_the_module_may_store_otherwise_gives_nothing(name):
    assert [f.code for f in lint_source(src(LOOKALIKES[name][0]))] == []


@pytest.mark.verify
@pytest.mark.parametrize("name", REPORTED)
def test_the_reported_attributes_are_tensors(name):
    assert copies_a_tensor(src(REPORTED[name][0]), REPORTED[name][1])


@pytest.mark.verify
@pytest.mark.parametrize("name", LOOKALIKES)
def test_the_lookalikes_hold_no_tensor(name):
    assert not copies_a_tensor(src(LOOKALIKES[name][0]), LOOKALIKES[name][1])
