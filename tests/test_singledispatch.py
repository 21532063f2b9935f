"""``functools.singledispatch`` registrations prove a tensor (analysis/dispatch.py).

A function registered for ``torch.Tensor`` on a singledispatch function (or method) is
called by it only with a tensor, maybe a subclass: ``x.cpu().detach()`` in it is reported
(TRC110) without ``--trust-annotations``, its fix unsafe.  What the analysis assumes is
checked with torch and functools first; each look-alike breaks one condition and stays quiet.
"""
import functools
import textwrap

import numpy as np
import pytest
import torch
from project_tree import write_tree

from flake8_torchcopy import lint_source

BODY = "    return x.cpu().detach().numpy()\n"
LOCAL = "import functools\nimport torch\n\n@functools.singledispatch\ndef to_numpy(x):\n    return x\n\n"


def trc110(src: str, path=None):
    return [bool(f.fix and f.fix.safe) for f in lint_source(textwrap.dedent(src), path) if f.code == "TRC110"]


# --------------------------------------------------------------- torch and functools
def test_only_tensors_reach_the_registration():
    seen = []

    @functools.singledispatch
    def f(x):
        return "base"

    @f.register(torch.Tensor)
    def _(x):
        seen.append(type(x))
        return "tensor"

    class Sub(torch.Tensor):
        pass

    assert f(torch.ones(1)) == f(torch.ones(1).as_subclass(Sub)) == f(torch.nn.Parameter(torch.ones(1))) == "tensor"
    assert f(np.ones(1)) == f([1.0]) == f(1.0) == "base"
    assert seen == [torch.Tensor, Sub, torch.nn.Parameter]  # a subclass: the caveat
    assert f.register(torch.Tensor)(len) is len  # register hands the function back: `_` may call it


def test_annotation_form_dispatches_on_the_first_annotation():
    @functools.singledispatch
    def f(x):
        return "base"

    @f.register
    def _(x: torch.Tensor):
        return "tensor"

    @f.register
    def _(x, y: list):  # noqa: F811 -- the first annotation decides, whatever parameter it is on
        return "list"

    assert f(torch.ones(1)) == "tensor" and f([1], 2) == "list" and f("s") == "base"


def test_singledispatchmethod_dispatches_on_the_first_argument_after_self():
    class C:
        @functools.singledispatchmethod
        def m(self, x):
            return "base"

        @m.register(torch.Tensor)
        def _(self, x):
            return type(x)

    assert C().m(torch.ones(1)) is torch.Tensor and C().m(np.ones(1)) == "base"


# --------------------------------------------------------------- reported
REPORTED = {
    "functools.singledispatch": LOCAL + "@to_numpy.register(torch.Tensor)\ndef _(x):\n" + BODY,
    "from functools import": "from functools import singledispatch\nimport torch\n\n@singledispatch\n"
                             "def to_numpy(x):\n    return x\n\n@to_numpy.register(torch.Tensor)\ndef _(x):\n" + BODY,
    "a Parameter": LOCAL + "@to_numpy.register(torch.nn.Parameter)\ndef _(x):\n" + BODY,
    "annotated": LOCAL + "@to_numpy.register\ndef _(x: torch.Tensor):\n" + BODY,
    "one of several": LOCAL + "@to_numpy.register(list)\ndef _(x):\n    return x\n\n"
                      "@to_numpy.register(torch.Tensor)\ndef _(x):\n" + BODY,
    "a method": "import functools\nimport torch\n\nclass C:\n    @functools.singledispatchmethod\n"
                "    def m(self, x):\n        return x\n\n    @m.register(torch.Tensor)\n    def _(self, x):\n"
                "        return x.cpu().detach()\n",
}


@pytest.mark.parametrize("name", sorted(REPORTED))
def test_reported_with_an_unsafe_fix(name):
    src = REPORTED[name]
    assert trc110(src) == [False]
    ns: dict = {}
    exec(src, ns)  # the registered function runs, and on tensors alone
    if "C" in ns:
        assert ns["C"]().m(torch.ones(1)).shape == (1,)
    else:
        assert ns["to_numpy"](torch.ones(2)).shape == (2,) and ns["to_numpy"]("s") == "s"


# --------------------------------------------------------------- quiet
QUIET = {
    "another name": LOCAL + "@to_numpy.register(torch.Tensor)\ndef conv(x):\n" + BODY,
    "_ called": LOCAL + "@to_numpy.register(torch.Tensor)\ndef _(x):\n" + BODY + "\nprint(_(np.zeros(1)))\n",
    "_ read in a function": LOCAL + "@to_numpy.register(torch.Tensor)\ndef _(x):\n" + BODY
                            + "\ndef g():\n    return _\n",
    "the registry": LOCAL + "@to_numpy.register(torch.Tensor)\ndef _(x):\n" + BODY
                    + "\nto_numpy.dispatch(torch.Tensor)(1)\n",
    "no singledispatch": "import torch\n\ndef to_numpy(x):\n    return x\n\n"
                         "to_numpy.register = lambda t: lambda f: f\n\n"
                         "@to_numpy.register(torch.Tensor)\ndef _(x):\n" + BODY,
    "a registry object": "import torch\nimport dill\n\n@dill.register(torch.Tensor)\ndef _(x):\n" + BODY,
    "bound twice": LOCAL + "to_numpy = object()\n@to_numpy.register(torch.Tensor)\ndef _(x):\n" + BODY,
    "another decorator too": LOCAL + "@to_numpy.register(torch.Tensor)\n@functools.lru_cache\ndef _(x):\n" + BODY,
    "stacked": LOCAL + "@to_numpy.register(torch.Tensor)\n@to_numpy.register(list)\ndef _(x):\n" + BODY,
    "numpy's type": LOCAL + "import numpy as np\n@to_numpy.register(np.ndarray)\ndef _(x):\n" + BODY,
    "a union": LOCAL + "@to_numpy.register\ndef _(x: torch.Tensor | list):\n" + BODY,
    "an earlier annotation": LOCAL + "@to_numpy.register\ndef _(y: list, x: torch.Tensor = None):\n"
                             "    return x.cpu().detach()\n",
    "decorated twice": "import functools\nimport torch\n\n@functools.singledispatch\n@functools.lru_cache\n"
                       "def to_numpy(x):\n    return x\n\n@to_numpy.register(torch.Tensor)\ndef _(x):\n" + BODY,
    "singledispatchmethod at the top": "import functools\nimport torch\n\n@functools.singledispatchmethod\n"
                                       "def to_numpy(x):\n    return x\n\n@to_numpy.register(torch.Tensor)\n"
                                       "def _(x):\n" + BODY,
    "in a function": "import functools\nimport torch\n\ndef setup():\n    @functools.singledispatch\n"
                     "    def to_numpy(x):\n        return x\n\n    @to_numpy.register(torch.Tensor)\n"
                     "    def _(x):\n        return x.cpu().detach()\n",
    "the method reached as C._": "import functools\nimport torch\n\nclass C:\n    @functools.singledispatchmethod\n"
                                "    def m(self, x):\n        return x\n\n    @m.register(torch.Tensor)\n"
                                "    def _(self, x):\n        return x.cpu().detach()\n\nC()._(1)\n",
}


@pytest.mark.parametrize("name", sorted(QUIET))
def test_look_alikes_stay_quiet(name):
    assert trc110(QUIET[name]) == []


# --------------------------------------------------------------- across modules
USER = "import torch\nfrom app.gen import to_numpy\n\n@to_numpy.register(torch.Tensor)\ndef _(x):\n" + BODY
GEN = "from functools import singledispatch\n\n@singledispatch\ndef to_numpy(x):\n    return x\n"


@pytest.mark.parametrize("gen, reported", [
    (GEN, True),
    (GEN.replace("@singledispatch\n", ""), False),  # a plain function with a register attribute
    (GEN + "to_numpy = None\n", False),  # bound twice
    (GEN.replace("from functools import singledispatch", "from app.util import singledispatch"), False),
    ("from .impl import to_numpy\n", False),  # a re-export is not followed
])
def test_a_dispatcher_of_another_module(tmp_path, gen, reported):
    write_tree(tmp_path, {"app/__init__.py": "", "app/gen.py": gen, "app/impl.py": GEN, "app/user.py": USER})
    path = tmp_path / "app" / "user.py"
    assert trc110(path.read_text(), str(path)) == ([False] if reported else [])
