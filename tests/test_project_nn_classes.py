"""Outputs of the project's own nn.Module subclasses (analysis/nnclasses.py), run with torch.

Each reported form is a program whose reported copy warns when run (and its fix is unsafe:
a hook may replace the output); each refusal is a program where the output is no tensor
(the class, its instance or its module changes what a call returns), quiet and not copying.
Then the same across two modules of a package.
"""
import importlib
import sys
import textwrap
import warnings

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import nnclasses

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.filterwarnings("ignore")

HEAD = "import torch\nimport torch.nn as nn\n\n"

NET = """
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x).relu()

"""


#: a class whose forward needs no torch.nn instance (a hook text refuses those too)
ZEROS = """
class Net(nn.Module):
    def forward(self, x):
        return torch.zeros(3, 2) + x.sum()

"""


def source(body: str, net: str = NET) -> str:
    return HEAD + textwrap.dedent(net).lstrip("\n") + "\n" + textwrap.dedent(body).lstrip("\n")


REPORTED = {
    "a local instance": """
        def use():
            m = Net()
            return torch.tensor(m(torch.randn(3, 4)))
        """,
    "m.forward(x)": """
        def use():
            m = Net()
            return torch.tensor(m.forward(torch.randn(3, 4)))
        """,
    "moved and switched to eval": """
        def use():
            m = Net().to("cpu").eval()
            return torch.tensor(m(torch.randn(3, 4)))
        """,
    "an attribute of another class (pytorch-tabnet's self.network)": """
        class Model:
            def __init__(self):
                self.network = Net()

            def predict(self, x):
                return torch.tensor(self.network(x))

        def use():
            return Model().predict(torch.randn(3, 4))
        """,
    "a tuple with a tensor at a known position": """
        class Pair(nn.Module):
            def __init__(self):
                super().__init__()
                self.enc = nn.Linear(4, 2)

            def forward(self, x):
                if x.sum() > 0:
                    return self.enc(x), None
                return torch.zeros(3, 2), [1.0]

        def use():
            m = Pair()
            out, extra = m(torch.randn(3, 4))
            return torch.tensor(out)
        """,
    "forward inherited from a base of the module": """
        class Child(Net):
            def __init__(self):
                super().__init__()
                self.scale = 2.0

        def use():
            return torch.tensor(Child()(torch.randn(3, 4)))
        """,
}


@pytest.mark.parametrize("name", REPORTED)
def test_outputs_are_reported_with_unsafe_fixes(name):
    src = source(REPORTED[name])
    found = [f for f in lint_source(src) if f.code == "TRC101"]
    assert len(found) == 1 and found[0].fix is not None and not found[0].fix.safe
    assert copies_a_tensor(src)


LIST = "lambda *a, **k: [1.0]"
QUIET = {
    "__call__ defined in the class": ("""
        def use():
            return torch.tensor(Net()(torch.randn(3, 4)))
        """, NET + "    def __call__(self, x):\n        return [1.0]\n"),
    "__call__ defined in a base": ("""
        class Base(nn.Module):
            def __call__(self, *a):
                return [1.0]

        class Net2(Base):
            def forward(self, x):
                return torch.zeros(1)

        def use():
            return torch.tensor(Net2()(torch.randn(3, 4)))
        """, NET),
    "__call__ assigned in the class body": ("""
        class Net2(nn.Module):
            def forward(self, x):
                return torch.zeros(1)
            __call__ = """ + LIST + """

        def use():
            return torch.tensor(Net2()(torch.randn(3, 4)))
        """, NET),
    "a forward hook on the instance": ("""
        def use():
            m = Net()
            m.register_forward_hook(lambda mod, inp, out: [1.0])
            return torch.tensor(m(torch.randn(3, 4)))
        """, ZEROS),
    "a forward hook registered in the class": ("""
        def use():
            return torch.tensor(Net()(torch.randn(3, 4)))
        """, ZEROS.replace("    def forward",
                           "    def __init__(self):\n        super().__init__()\n"
                           "        self.register_forward_hook(lambda m, i, o: [1.0])\n\n    def forward")),
    "forward replaced on the instance": ("""
        def use():
            m = Net()
            m.forward = """ + LIST + """
            return torch.tensor(m(torch.randn(3, 4)))
        """, ZEROS),
    "forward replaced by setattr": ("""
        def use():
            setattr(Net, "for" + "ward", """ + LIST + """)
            return torch.tensor(Net()(torch.randn(3, 4)))
        """, ZEROS),
    "the instance's class replaced": ("""
        class Other(nn.Module):
            def forward(self, x):
                return [1.0]

        def use():
            m = Net()
            m.__class__ = Other
            return torch.tensor(m(torch.randn(3, 4)))
        """, ZEROS),
    "the attribute reassigned elsewhere": ("""
        class Model:
            def __init__(self):
                self.network = Net()

            def predict(self, x):
                return torch.tensor(self.network(x))

        def use():
            model = Model()
            model.network = """ + LIST + """
            return model.predict(torch.randn(3, 4))
        """, NET),
    "the attribute stored with two classes": ("""
        class Listy(nn.Module):
            def forward(self, x):
                return [1.0]

        class Model:
            def __init__(self, fast=True):
                self.network = Net() if fast else Listy()

            def predict(self, x):
                return torch.tensor(self.network(x))

        def use():
            return Model(fast=False).predict(torch.randn(3, 4))
        """, NET),
    "a local bound to a subclass on some path": ("""
        class Sub(Net):
            def forward(self, x):
                return [1.0]

        def use(k=0):
            m = Net() if k else Sub()
            return torch.tensor(m(torch.randn(3, 4)))
        """, NET),
    "a subclass that overrides forward": ("""
        class Sub(Net):
            def forward(self, x):
                return x.tolist()

        def use():
            return torch.tensor(Sub()(torch.randn(3, 4)))
        """, NET),
    "forward returns its input on a path": ("""
        class Skip(nn.Module):
            def forward(self, x, skip=True):
                if skip:
                    return x
                return torch.zeros(1)

        def use():
            return torch.tensor(Skip()([1.0]))
        """, NET),
    "forward returns a list on a path (pytorch-tabnet's multi-task output)": ("""
        class Heads(nn.Module):
            def __init__(self, tasks=2):
                super().__init__()
                self.tasks = tasks
                self.fc = nn.Linear(4, 2)

            def forward(self, x):
                if self.tasks > 1:
                    out = [self.fc(x).sum().item() for _ in range(self.tasks)]
                else:
                    out = self.fc(x)
                return out, torch.zeros(1)

        def use():
            out, loss = Heads()(torch.randn(3, 4))
            return torch.tensor(out)
        """, NET),
    "a decorated forward": ("""
        def listify(f):
            return """ + LIST + """

        class Net2(nn.Module):
            @listify
            def forward(self, x):
                return torch.zeros(1)

        def use():
            return torch.tensor(Net2()(torch.randn(3, 4)))
        """, NET),
    "a class that overrides .to": ("""
        class Net2(nn.Module):
            def forward(self, x):
                return torch.zeros(1)

            def to(self, *a, **k):
                return """ + LIST + """

        def use():
            m = Net2().to("cpu")
            return torch.tensor(m(torch.randn(3, 4)))
        """, NET),
    "the class name a parameter where the attribute is stored": ("""
        class Net2(nn.Module):
            def forward(self, x):
                return torch.zeros(1)

        class Model:
            def __init__(self, Net2=lambda: """ + LIST + """):
                self.network = Net2()

            def predict(self, x):
                return torch.tensor(self.network(x))

        def use():
            return Model().predict(torch.randn(3, 4))
        """, NET),
}


@pytest.mark.parametrize("name", QUIET)
def test_refusals_are_quiet(name):
    body, net = QUIET[name]
    src = source(body, net)
    assert [f for f in lint_source(src) if f.code == "TRC101"] == []
    assert not copies_a_tensor(src)


def test_the_module_says_what_it_follows():
    assert nnclasses.__doc__.startswith("Instances of the project's own")
    assert "__call__" in nnclasses.CALLING and "_call_impl" in nnclasses.CALLING


# ----------------------------------------------------------------------- across modules
NETS = """
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 2)

    def forward(self, x):
        h = self.enc(x)
        return h, torch.zeros(1)
"""

HOOKED = """
import torch
import torch.nn as nn


class Hooked(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_forward_hook(lambda m, i, o: [1.0])

    def forward(self, x):
        return torch.zeros(3, 2) + x.sum()
"""

CALLED = """
import torch
import torch.nn as nn


class Called(nn.Module):
    def forward(self, x):
        return torch.zeros(1)

    def __call__(self, x):
        return [1.0]
"""

MODEL = """
import torch
from tnet import nets
from .hooked import Hooked
from .called import Called


class Model:
    def __init__(self):
        self.network = nets.Encoder().to("cpu")
        self.hooked = Hooked()

    def predict(self, x):
        output, m_loss = self.network(x)
        predictions = output.cpu().detach().numpy()
        return predictions, torch.tensor(self.hooked(x))


def called(x):
    m = Called()
    return torch.tensor(m(x))
"""


def test_an_instance_of_a_class_of_another_module(tmp_path):
    pkg = tmp_path / "tnet"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, text in (("nets", NETS), ("hooked", HOOKED), ("called", CALLED)):
        (pkg / f"{name}.py").write_text(text.lstrip("\n"))
    (pkg / "model.py").write_text(MODEL.lstrip("\n"))
    path = pkg / "model.py"
    found = lint_source(path.read_text(), str(path))
    assert [(f.code, f.line) for f in found] == [("TRC110", 14)]
    assert found[0].fix is not None and not found[0].fix.safe  # evidence from another module
    sys.path.insert(0, str(tmp_path))
    try:
        mod = importlib.import_module("tnet.model")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            predictions, hooked = mod.Model().predict(torch.randn(3, 4))
            called = mod.called(torch.randn(3, 4))
        assert predictions.shape == (3, 2)
        assert not any("copy construct from a tensor" in str(w.message) for w in caught)
        assert hooked.tolist() == [1.0] and called.tolist() == [1.0]  # lists: the quiet ones are right
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("tnet")]:
            del sys.modules[name]
