"""What a ``DataLoader`` yields over a map-style dataset class of the module
(analysis/datasets.py).

Each case defines ``use()``, which calls ``torch.tensor`` on something a loop over a loader
(or over the dataset) binds.  The reported cases are reported (TRC101, unsafe fix: it rests
on the library) and run: ``torch.tensor`` warns that it copy-constructs exactly when its
argument is a tensor.  Each look-alike changes what indexing or the fetch does, or what
the call makes, and must stay quiet; those marked run show no tensor reaches the call.
"""
import textwrap

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source

HEAD = "import torch\nfrom torch.utils.data import DataLoader, Dataset\n\n"

PAIRS = """
class Pairs(Dataset):
    def __init__(self, n):
        self.x = torch.randn(n, 3)
        self.y = torch.arange(n)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]
"""

REPORTED = {
    "a loader over a dataset of tensor pairs": PAIRS + """
def use():
    for x, y in DataLoader(Pairs(8), batch_size=4, shuffle=True):
        return torch.tensor(x)
""",
    "a loader without batching": PAIRS + """
def use():
    loader = DataLoader(Pairs(8), batch_size=None)
    for x, y in loader:
        return torch.tensor(y)
""",
    "the dataset iterated itself": PAIRS + """
def use():
    for x, y in Pairs(4):
        return torch.tensor(x)
""",
    "a tensor and a label": """
class Labelled(Dataset):
    def __init__(self):
        self.x = torch.randn(4, 2)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i < 0:
            raise IndexError(i)
        return self.x[i], int(i)

def use():
    for x, label in DataLoader(Labelled(), batch_size=2):
        return torch.tensor(x)
""",
    "a dataset of tensors": """
class Noise(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.zeros(3) + i

def use():
    for batch in DataLoader(Noise(), batch_size=2):
        return torch.tensor(batch)
""",
}

LOOKALIKES = {
    "a collate function": (PAIRS + """
def use():
    for x, y in DataLoader(Pairs(8), batch_size=4, collate_fn=lambda b: ([1.0], [2.0])):
        return torch.tensor(x)
""", True),
    "a batched fetch of its own": (PAIRS.replace("    def __len__", """    def __getitems__(self, idx):
        return [(1.0, 2.0) for _ in idx]

    def __len__""") + """
def use():
    for x, y in DataLoader(Pairs(8), batch_size=2, collate_fn=list):
        return torch.tensor(x)
""", True),
    "a position that is a string on one path": ("""
class Mixed(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        if i > 5:
            return torch.zeros(2), 1
        return [1.0], 1

def use():
    for x, y in DataLoader(Mixed(), batch_size=None):
        return torch.tensor(x)
""", True),
    "__getitem__ replaced on the class": (PAIRS + """
Pairs.__getitem__ = lambda self, i: ([1.0], 2)

def use():
    for x, y in DataLoader(Pairs(8), batch_size=None):
        return torch.tensor(x)
""", True),
    "the name bound again": (PAIRS + """
class Other(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        return [1.0], 2

Pairs = Other

def use():
    for x, y in DataLoader(Pairs(), batch_size=None):
        return torch.tensor(x)
""", True),
    "a base of the module between": (PAIRS.replace("class Pairs(Dataset)", "class Base(Dataset):\n    pass\n\n\n"
                                                   "class Pairs(Base)") + """
def use():
    for x, y in DataLoader(Pairs(8), batch_size=4):
        return torch.tensor(x)
""", False),
    "a __getattr__ that may give __getitems__": (PAIRS.replace("    def __len__", """    def __getattr__(self, name):
        raise AttributeError(name)

    def __len__""") + """
def use():
    for x, y in DataLoader(Pairs(8), batch_size=4):
        return torch.tensor(x)
""", False),
    "an instance that changes its class": (PAIRS.replace(
        "        self.y = torch.arange(n)", "        self.y = torch.arange(n)\n        self.__class__ = Other") + """
class Other(Dataset):
    def __len__(self):
        return 1

    def __getitem__(self, i):
        return [1.0], 2

def use():
    for x, y in DataLoader(Pairs(8), batch_size=None):
        return torch.tensor(x)
""", True),
    "a generator __getitem__": ("""
class Gen(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        yield torch.zeros(2)

def use():
    for x in Gen():
        return x
""", False),
}


def source(body: str) -> str:
    return HEAD + textwrap.dedent(body).lstrip("\n")


@pytest.mark.parametrize("name", REPORTED)
def test_a_loader_over_a_dataset_of_the_module_yields_tensors(name):
    (finding,) = lint_source(source(REPORTED[name]))
    assert finding.code == "TRC101" and finding.fix is not None and not finding.fix.safe


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_dataset_the_analysis_cannot_follow_gives_nothing(name):
    assert lint_source(source(LOOKALIKES[name][0])) == []


@pytest.mark.verify
@pytest.mark.parametrize("name", REPORTED)
def test_the_reported_values_are_tensors(name):
    assert copies_a_tensor(source(REPORTED[name]))


@pytest.mark.verify
@pytest.mark.parametrize("name", [n for n, (_, runs) in LOOKALIKES.items() if runs])
def test_the_lookalikes_read_no_tensor(name):
    assert not copies_a_tensor(source(LOOKALIKES[name][0]))


def test_torch_dataset_base_leaves_indexing_fetch_and_attributes_to_the_class():
    torch = pytest.importorskip("torch")
    from flake8_torchcopy.analysis.summaries import DATA_BASE_MEMBERS, DATA_BASES

    for qualname in DATA_BASES:
        module, _, name = qualname.rpartition(".")
        assert getattr(__import__(module, fromlist=[name]), name) is torch.utils.data.Dataset
    base = torch.utils.data.Dataset
    for member in ("__getitems__", "__iter__", "__getattr__"):
        assert not hasattr(base, member), member
    assert base.__new__ is object.__new__
    assert base.__setattr__ is object.__setattr__ and base.__getattribute__ is object.__getattribute__
    own = {m for m in dir(base) if not (m.startswith("__") and m.endswith("__"))}
    assert own == DATA_BASE_MEMBERS
    assert not any(isinstance(getattr(k, "__dict__", {}).get(m), property) for k in base.__mro__ for m in dir(base))


def test_an_attribute_of_a_dataset_class_is_evidence():
    src = source(PAIRS.rstrip("\n") + "\n\n    def snapshot(self):\n        return torch.tensor(self.x)\n")
    (finding,) = lint_source(src)
    assert finding.code == "TRC101"
