"""The forms issue 18 names as where real bugs get their evidence, one program each.

Every program defines ``use()``; run with torch, it raises "view size is not compatible"
(a ``VIEWS`` case) or makes ``torch.tensor`` warn that it copy-constructs from a tensor (a
``COPIES`` case), and the tool reports it with the rule given.  The look-alikes bind no
tensor (run: no warning) and are not reported.  The table is the record of which forms the
analysis follows; a form it does not is a strict xfail with the reason.
"""
import textwrap

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source

HEAD = ("import copy\nimport torch\nimport torch.nn as nn\n"
        "from torch.utils.data import DataLoader, Dataset, TensorDataset\n\n")

VIEWS = {
    "an elementwise op after .t()": """
        def use():
            x = torch.randn(4, 5)
            return (x.t() + 1).view(-1)
        """,
    "a comparison of transposed tensors": """
        def use():
            x, y = torch.randn(4, 5), torch.randn(4, 5)
            return x.t().eq(y.t()).view(-1)
        """,
    "the top-k accuracy helper": """
        def use(k=2):
            output, target = torch.randn(8, 10), torch.randint(0, 10, (8,))
            _, pred = output.topk(k, 1, True, True)
            pred = pred.t()
            correct = pred.eq(target.view(1, -1).expand_as(pred))
            return correct[:k].view(-1)
        """,
    "indices of sort(dim) transposed": """
        def use():
            v, i = torch.randn(8, 10).sort(dim=0)
            return i.t().view(-1)
        """,
    "a slice of a transposed tensor": """
        def use():
            return torch.randn(6, 7).t()[:3].view(-1)
        """,
    "expand_as": """
        def use():
            return torch.randn(4, 5).t().expand_as(torch.randn(5, 4)).view(-1)
        """,
    "a chunk of a transposed tensor": """
        def use():
            a, b = torch.randn(3, 4, 5).transpose(1, 2).chunk(2, dim=0)
            return a.view(-1)
        """,
    "clone keeps the strides": """
        def use():
            return torch.randn(3, 4).t().clone().view(-1)
        """,
    "torch.where of permuted tensors": """
        def use():
            b = torch.randn(2, 3, 4).permute(0, 2, 1)
            return torch.where(b > 0, b, torch.zeros_like(b)).view(2, 12)
        """,
}

COPIES = {
    "tuple assignment": ("TRC101", """
        def use():
            a, b = torch.zeros(3), 1
            return torch.tensor(a)
        """),
    "starred assignment": ("TRC101", """
        def use():
            a, *rest = torch.zeros(3), 1, 2
            return torch.tensor(a)
        """),
    "a dict display": ("TRC101", """
        def use():
            d = {"a": torch.zeros(3), "n": 1}
            return torch.tensor(d["a"])
        """),
    "a store into a dict": ("TRC101", """
        def use():
            d = {}
            d["a"] = torch.zeros(3)
            return torch.tensor(d["a"])
        """),
    "a list display": ("TRC101", """
        def use():
            xs = [torch.zeros(3), torch.ones(3)]
            return torch.tensor(xs[0])
        """),
    "the values of a dict a method returns": ("TRC101", """
        class M:
            def stats(self):
                return {"m": torch.zeros(2), "n": 3}

            def run(self):
                s = self.stats()
                return torch.tensor(s["m"])

        def use():
            return M().run()
        """),
    "an attribute set by torch in another method": ("TRC101", """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.buf = None

            def fill(self, xs):
                self.buf = torch.cat(xs)

            def snap(self):
                return torch.tensor(self.buf)

        def use():
            m = M()
            m.fill([torch.ones(2)])
            return m.snap()
        """),
    "a tensor on some paths to deepcopy": ("TRC105", """
        def use(c=True, y=None):
            x = torch.zeros(3, requires_grad=True) if c else y
            return copy.deepcopy(x), torch.tensor(torch.zeros(1))
        """),
    "a tensor on some paths to torch.Tensor": ("TRC106", """
        def use(c=True, y=None):
            x = torch.zeros(3) if c else y
            return torch.Tensor(x), torch.tensor(torch.zeros(1))
        """),
    "the return of a module function through its data flow": ("TRC101", """
        def make(n):
            y = torch.zeros(n)
            return y * 2

        def use():
            return torch.tensor(make(3))
        """),
    "a closure": ("TRC101", """
        def use():
            t = torch.zeros(3)

            def inner():
                return torch.tensor(t)
            return inner()
        """),
    "a subclass passing a tensor to super().__init__": ("TRC101", """
        class Base(nn.Module):
            def __init__(self, w):
                super().__init__()
                self.w = w

        class Child(Base):
            def __init__(self):
                super().__init__(torch.zeros(3))

            def snap(self):
                return torch.tensor(self.w)

        def use():
            return Child().snap()
        """),
    "DataLoader over a TensorDataset": ("TRC101", """
        def use():
            ds = TensorDataset(torch.randn(8, 3), torch.arange(8))
            for x, y in DataLoader(ds, batch_size=4):
                return torch.tensor(x)
        """),
    "DataLoader over a dataset class of the module": ("TRC101", """
        class Pairs(Dataset):
            def __init__(self):
                self.x = torch.randn(8, 3)

            def __len__(self):
                return 8

            def __getitem__(self, i):
                return self.x[i], i

        def use():
            for x, y in DataLoader(Pairs(), batch_size=4):
                return torch.tensor(x)
        """),
}

# ``torch.tensor([...])`` of a list mixing tensors and numbers goes through Python scalars
MIXED_LIST = """
    def use():
        x = torch.randn(3, requires_grad=True)
        return torch.tensor([x.sum(), 1.0])
    """

LOOKALIKES = {
    "a numpy array": """
        import numpy as np

        def use():
            return torch.tensor(np.zeros(3))
        """,
    "a store of a number over the tensor": """
        def use():
            d = {"a": torch.zeros(3)}
            d["a"] = 1.0
            return torch.tensor(d["a"])
        """,
}

LEGAL_VIEWS = {
    "a chunk of a contiguous tensor": """
        def use():
            a, b = torch.randn(4, 5).chunk(2, dim=0)
            return a.view(-1)
        """,
    "a split of a transposed tensor that keeps the merged dims whole": """
        def use():
            a, b, c = torch.randn(3, 4, 5).transpose(0, 2).split(2, dim=0)
            return a.view(a.size(0), -1, 3)
        """,
}


def source(body: str) -> str:
    return HEAD + textwrap.dedent(body).lstrip("\n")


@pytest.mark.parametrize("name", VIEWS)
def test_views_that_raise_are_reported(name):
    src = source(VIEWS[name])
    assert "TRC201" in [f.code for f in lint_source(src)]
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        ns["use"]()


@pytest.mark.parametrize("name", COPIES)
def test_copies_are_reported(name):
    code, body = COPIES[name]
    src = source(body)
    assert code in [f.code for f in lint_source(src)]
    assert copies_a_tensor(src)


def test_a_list_mixing_a_tensor_and_numbers_is_reported():
    src = source(MIXED_LIST)
    assert [f.code for f in lint_source(src)] == ["TRC108"]
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    assert ns["use"]().grad_fn is None  # the list went through Python scalars: no graph


@pytest.mark.parametrize("name", LOOKALIKES)
def test_lookalikes_are_quiet(name):
    src = source(LOOKALIKES[name])
    assert lint_source(src) == []
    assert not copies_a_tensor(src)


@pytest.mark.parametrize("name", LEGAL_VIEWS)
def test_legal_views_are_quiet(name):
    src = source(LEGAL_VIEWS[name])
    assert lint_source(src) == []
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    ns["use"]()  # works
