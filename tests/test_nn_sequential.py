"""``nn.Sequential`` outputs and ``m.forward(x)`` (analysis/nncontainers.py), checked against torch (CPU).

First the facts the analysis rests on, run with torch: a Sequential of instances of the
table's classes returns a tensor, an empty one returns its input, each way of giving it an
item later changes what it returns, and ``forward`` skips the hooks ``__call__`` runs.  Then
each form followed is a program run with torch that warns when run (a copy of a tensor), and
each look-alike is quiet and does not warn.
"""
import textwrap
from collections import OrderedDict

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import nncontainers

torch = pytest.importorskip("torch")
nn = torch.nn

pytestmark = pytest.mark.filterwarnings("ignore")


class ToList(nn.Module):
    def forward(self, x):
        return x.tolist()


def _seq():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))


x = torch.randn(3, 4)


# ------------------------------------------------------------------ facts
def test_a_sequential_of_tensor_modules_returns_a_tensor():
    assert type(_seq()(x)) is torch.Tensor
    assert type(_seq().forward(x)) is torch.Tensor
    od = nn.Sequential(OrderedDict([("fc", nn.Linear(4, 8)), ("act", nn.GELU())]))
    assert type(od(x)) is torch.Tensor
    assert type(nn.Sequential(OrderedDict(fc=nn.Linear(4, 8)))(x)) is torch.Tensor
    assert {"Linear", "ReLU", "GELU"} <= nncontainers.NN_TENSOR_MODULES


def test_an_empty_sequential_returns_its_input():
    assert nn.Sequential()([1.0]) == [1.0]
    assert nn.Sequential(OrderedDict())([1.0]) == [1.0]
    assert nn.Sequential(nn.Identity())([1.0]) == [1.0]


@pytest.mark.parametrize("change", [
    lambda s: s.append(ToList()),
    lambda s: s.extend([ToList()]),
    lambda s: s.insert(3, ToList()),
    lambda s: s.add_module("out", ToList()),
    lambda s: s.register_module("out", ToList()),
    lambda s: s.__setitem__(2, ToList()),
    lambda s: s.__iadd__(nn.Sequential(ToList())),
    lambda s: setattr(s, "out", ToList()),  # seq.out = m: one more item
    lambda s: s._modules.__setitem__("out", ToList()),
])
def test_each_change_of_items_changes_the_output(change):
    s = _seq()
    change(s)
    assert isinstance(s(x), list)


@pytest.mark.parametrize("change", [
    lambda s: [s.pop(0) for _ in range(len(s))],
    lambda s: [s.__delitem__(0) for _ in range(len(s))],
])
def test_each_removal_of_every_item_leaves_the_input(change):
    s = _seq()
    change(s)
    assert s([1.0]) == [1.0]


def test_forward_skips_hooks_and_a_slice_is_a_new_sequential():
    s = _seq()
    s.register_forward_hook(lambda m, a, out: out.tolist())
    assert isinstance(s(x), list) and type(s.forward(x)) is torch.Tensor
    s = _seq()
    s[1:].append(ToList())
    assert type(s(x)) is torch.Tensor and isinstance(s[0], nn.Linear)


def test_a_class_stored_on_an_item_changes_the_output():
    s = _seq()
    s[2].__class__ = ToList
    assert isinstance(s(x), list)


# ------------------------------------------------------------------ forms
HEAD = "import torch\nimport torch.nn as nn\nfrom collections import OrderedDict\n\n"


def source(body: str) -> str:
    return HEAD + textwrap.dedent(body).lstrip("\n")


COPIES = {
    "a local Sequential": """
        def use():
            mlp = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
            return torch.tensor(mlp(torch.randn(3, 4)))
        """,
    "moved and switched, called by forward": """
        def use(dev="cpu"):
            mlp = nn.Sequential(nn.Linear(4, 8), nn.Tanh()).to(dev)
            mlp.eval()
            return torch.tensor(mlp.forward(torch.randn(3, 4)))
        """,
    "an OrderedDict of literal pairs": """
        def use():
            mlp = nn.Sequential(OrderedDict([("fc", nn.Linear(4, 8)), ("act", nn.GELU())]))
            return torch.tensor(mlp(torch.randn(3, 4)))
        """,
    "an attribute, its last item initialised, its weights applied": """
        def _init(m):
            if isinstance(m, nn.Linear):
                nn.init.zeros_(m.bias)

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
                nn.init.zeros_(self.head[-1].bias)
                self.head.apply(_init)

            def forward(self, x):
                return torch.tensor(self.head(x))

        def use():
            return M()(torch.randn(3, 4))
        """,
    "an attribute's forward": """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Sequential(nn.Linear(4, 2), nn.Softmax(dim=-1))

            def forward(self, x):
                return torch.tensor(self.head.forward(x))

        def use():
            return M()(torch.randn(3, 4))
        """,
}

LOOKALIKES = {  # quiet; run: torch.tensor gets no tensor
    "an empty Sequential": """
        def use():
            mlp = nn.Sequential()
            return torch.tensor(mlp([1.0, 2.0]))
        """,
    "an Identity": """
        def use():
            mlp = nn.Sequential(nn.Identity())
            return torch.tensor(mlp([1.0, 2.0]))
        """,
    "an item appended": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        def use():
            mlp = nn.Sequential(nn.Linear(4, 2))
            mlp.append(ToList())
            return torch.tensor(mlp(torch.randn(3, 4)))
        """,
    "an item stored by index": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        def use():
            mlp = nn.Sequential(nn.Linear(4, 2))
            mlp[0] = ToList()
            return torch.tensor(mlp(torch.randn(3, 4)))
        """,
    "every item deleted": """
        def use():
            mlp = nn.Sequential(nn.ReLU())
            del mlp[0]
            return torch.tensor(mlp([1.0, 2.0]))
        """,
    "an item added as an attribute": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        def use():
            mlp = nn.Sequential(nn.Linear(4, 2))
            mlp.out = ToList()
            return torch.tensor(mlp(torch.randn(3, 4)))
        """,
    "extended in place": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        def use():
            mlp = nn.Sequential(nn.Linear(4, 2))
            mlp += nn.Sequential(ToList())
            return torch.tensor(mlp(torch.randn(3, 4)))
        """,
    "an alias appended to": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        def use():
            mlp = nn.Sequential(nn.Linear(4, 2))
            same = mlp
            same.append(ToList())
            return torch.tensor(mlp(torch.randn(3, 4)))
        """,
    "a helper that appends": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        def _grow(m):
            m.insert(1, ToList())
        def use():
            mlp = nn.Sequential(nn.Linear(4, 2))
            _grow(mlp)
            return torch.tensor(mlp(torch.randn(3, 4)))
        """,
    "an attribute appended to from outside": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Sequential(nn.Linear(4, 2))
            def forward(self, x):
                return torch.tensor(self.head(x))
        def use():
            m = M()
            m.head.extend([ToList()])
            return m(torch.randn(3, 4))
        """,
    "an attribute reached by getattr": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Sequential(nn.Linear(4, 2))
                getattr(self, "head").add_module("out", ToList())
            def forward(self, x):
                return torch.tensor(self.head(x))
        def use():
            return M()(torch.randn(3, 4))
        """,
    "a Sequential found by a walk of the modules": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Sequential(nn.Linear(4, 2))
                for mod in self.modules():
                    if isinstance(mod, nn.Sequential):
                        mod.append(ToList())
            def forward(self, x):
                return torch.tensor(self.head(x))
        def use():
            return M()(torch.randn(3, 4))
        """,
    "an item's class replaced": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        def use():
            mlp = nn.Sequential(nn.Linear(4, 2))
            mlp[0].__class__ = ToList
            return torch.tensor(mlp(torch.randn(3, 4)))
        """,
    "a hook on an item": """
        def use():
            mlp = nn.Sequential(nn.Linear(4, 2))
            mlp[0].register_forward_hook(lambda m, a, out: out.tolist())
            return torch.tensor(mlp(torch.randn(3, 4)))
        """,
    "a walk that tests by a tuple of classes": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Sequential(nn.Linear(4, 2))
                for mod in self.children():
                    if isinstance(mod, (nn.Sequential, nn.ModuleList)):
                        mod.append(ToList())
            def forward(self, x):
                return torch.tensor(self.head(x))
        def use():
            return M()(torch.randn(3, 4))
        """,
    "a walk that tries every module": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Sequential(nn.Linear(4, 2))
                for mod in self.modules():
                    try:
                        mod.append(ToList())
                    except AttributeError:
                        pass
            def forward(self, x):
                return torch.tensor(self.head(x))
        def use():
            return M()(torch.randn(3, 4))
        """,
    "a walk that stores an attribute": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Sequential(nn.Linear(4, 2))
                for _, mod in self.named_children():
                    mod.extra = ToList()
            def forward(self, x):
                return torch.tensor(self.head(x))
        def use():
            return M()(torch.randn(3, 4))
        """,
    "the first child of a walk": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Sequential(nn.Linear(4, 2))
                list(self.children())[0].append(ToList())
            def forward(self, x):
                return torch.tensor(self.head(x))
        def use():
            return M()(torch.randn(3, 4))
        """,
    "a function applied that stores an attribute": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        def _widen(m):
            if type(m).__name__ == "Sequential":
                m.extra = ToList()
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Sequential(nn.Linear(4, 2))
                self.apply(_widen)
            def forward(self, x):
                return torch.tensor(self.head(x))
        def use():
            return M()(torch.randn(3, 4))
        """,
    "a Sequential passed straight to a helper": """
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        def _run(m, x):
            m.append(ToList())
            return torch.tensor(m(x))
        def use():
            return _run(nn.Sequential(nn.Linear(4, 2)), torch.randn(3, 4))
        """,
}


@pytest.mark.parametrize("name", COPIES)
def test_copies_are_reported_with_unsafe_fixes(name):
    src = source(COPIES[name])
    found = [f for f in lint_source(src) if f.code == "TRC101"]
    assert len(found) == 1 and found[0].fix is not None and not found[0].fix.safe
    assert copies_a_tensor(src)


@pytest.mark.parametrize("name", LOOKALIKES)
def test_lookalikes_are_quiet(name):
    src = source(LOOKALIKES[name])
    assert lint_source(src) == []
    assert not copies_a_tensor(src)


def test_nested_and_built_sequentials_are_not_followed():
    """Sound but not followed: a Sequential item, items from a list."""
    for body in ("nn.Sequential(nn.Sequential(nn.Linear(4, 2)), nn.ReLU())",
                 "nn.Sequential(*[nn.Linear(4, 2), nn.ReLU()])"):
        src = source(f"""
            def use():
                mlp = {body}
                return torch.tensor(mlp(torch.randn(3, 4)))
            """)
        assert lint_source(src) == [] and copies_a_tensor(src)


def test_the_caveat_is_said():
    src = source(COPIES["a local Sequential"])
    assert "forward hook" in nncontainers.SEQUENTIAL_OUTPUT and "Sequential" in nncontainers.SEQUENTIAL_OUTPUT
    assert lint_source(src)[0].fix.applicability == "unsafe"
