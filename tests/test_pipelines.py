"""Hugging Face tokenizers with ``return_tensors="pt"`` (analysis/pipelines.py): the fact is
checked against transformers where it is installed, and its use by the rules everywhere."""
import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import pipelines

SRC = '''import torch
from transformers import AutoTokenizer

def f(texts, device):
    tok = AutoTokenizer.from_pretrained("bert-base-uncased")
    enc = tok(texts, padding=True, return_tensors="pt").to(device)
    ids = torch.tensor(enc["input_ids"])
    mask = torch.tensor(enc.attention_mask)
    one = torch.tensor(tok.encode(texts[0], return_tensors="pt"))
    return ids, mask, one
'''


def test_tokenizer_outputs_are_tensors_and_fixes_unsafe():
    found = [f for f in lint_source(SRC, "t.py") if f.code == "TRC101"]
    assert [f.line for f in found] == [7, 8, 9]
    assert all(f.fix is not None and f.fix.applicability == "unsafe" for f in found)


@pytest.mark.parametrize("src", [
    # without return_tensors="pt" the values are lists
    SRC.replace('return_tensors="pt"', 'return_tensors="np"'),
    SRC.replace(', return_tensors="pt")', ")"),
    # remote code may bring a tokenizer class of its own
    SRC.replace('("bert-base-uncased")', '("x", trust_remote_code=True)'),
    SRC.replace('("bert-base-uncased")', '("x", **kwargs)'),
    # something else that happens to be called from_pretrained
    SRC.replace("AutoTokenizer.from_pretrained", "AutoModel.from_pretrained"),
])
def test_other_uses_stay_quiet(src):
    assert [f for f in lint_source(src, "t.py") if f.code == "TRC101"] == []


@pytest.mark.parametrize("store", [
    'enc["input_ids"] = [[1]]',
    "enc.update(input_ids=[[1]])",
    "fill(enc)",
    "other = enc",
    "again = enc.to(device)",
    "enc |= {}",
])
def test_an_encoding_code_may_store_into_holds_nothing_known(store):
    # each line may replace the encoding's values (fill, other, again: through another name)
    src = SRC.replace("    ids = torch.tensor", f"    {store}\n    ids = torch.tensor")
    assert [f.line for f in lint_source(src, "t.py") if f.code == "TRC101"] == [10]  # tok.encode only


def test_an_encoding_read_only_keeps_its_values():
    src = SRC.replace("    ids = torch.tensor", "    enc = enc.to(device)\n    n = len(enc) + len(enc.keys())\n"
                      "    out = model(**enc) if enc else None\n    ids = torch.tensor")
    assert [f.line for f in lint_source(src, "t.py") if f.code == "TRC101"] == [10, 11, 12]


def test_encoding_members_are_not_values():
    enc = pipelines.call(pipelines.TOKENIZER, _call('tok(x, return_tensors="pt")'))
    assert enc is not None and pipelines.attribute(enc, "input_ids") is enc.mapped
    for member in ("keys", "to", "data", "word_ids", "_encodings"):
        assert pipelines.attribute(enc, member) is None


def _call(text):
    import ast
    return ast.parse(text, mode="eval").body


def test_transformers_returns_tensors(tmp_path):
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world"]))
    for cls in (transformers.BertTokenizerFast, transformers.BertTokenizer):
        tok = cls(vocab_file=str(vocab))
        enc = tok(["hello world", "hello"], padding=True, return_tensors="pt")
        assert enc and all(type(v) is torch.Tensor for v in enc.values())
        assert type(enc.input_ids) is torch.Tensor
        assert enc.to("cpu") is enc
        assert type(tok.encode("hello world", return_tensors="pt")) is torch.Tensor
        padded = tok.pad({"input_ids": [[5, 6], [5]]}, return_tensors="pt")
        assert all(type(v) is torch.Tensor for v in padded.values())
    public = {n for n in dir(transformers.BatchEncoding) if not n.startswith("_")}
    assert public <= pipelines._ENCODING_MEMBERS  # no method is taken for a value


LOADER = '''import torch
from torch.utils.data import DataLoader, TensorDataset

def train(n):
    x = torch.randn(n, 3)
    y = torch.arange(n)
    loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True)
    for xb, yb in loader:
        a = torch.tensor(xb)
        b = yb.clone().detach()
    first, label = TensorDataset(x, y)[0]
    return torch.tensor(first)
'''


def test_dataloader_batches_of_a_tensor_dataset_are_tensors():
    found = [(f.line, f.code, f.fix.applicability if f.fix else None) for f in lint_source(LOADER, "t.py")]
    assert found == [(9, "TRC101", "unsafe"), (10, "TRC103", "unsafe"), (12, "TRC101", "unsafe")]


@pytest.mark.parametrize("change", [
    ("batch_size=8, shuffle=True", "batch_size=8, collate_fn=list"),  # a collate of its own
    ("batch_size=8, shuffle=True", "batch_sampler=s"),
    ("TensorDataset(x, y), batch", "TensorDataset(*xs), batch"),  # items not known
    ("x = torch.randn(n, 3)", "x = n"),  # not a tensor
    ("DataLoader(TensorDataset(x, y)", "DataLoader(MyDataset(x, y)"),
])
def test_other_loaders_stay_quiet(change):
    src = LOADER.replace(*change)
    assert [f.line for f in lint_source(src, "t.py") if f.line == 9] == []  # (TRC103 reports any clone().detach())


def test_dataloader_fact_holds_in_torch():
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader, TensorDataset

    ds = TensorDataset(torch.randn(10, 3), torch.arange(10))
    assert all(type(t) is torch.Tensor for t in ds[0]) and len(ds[0]) == 2
    assert sum(1 for _ in iter(ds)) == 10  # iteration stops at the end (IndexError)
    for keywords in ({"batch_size": 4}, {"batch_size": None}, {"batch_size": 3, "shuffle": True,
                     "drop_last": True}, {"batch_size": 2, "pin_memory": False, "num_workers": 0}):
        batches = list(DataLoader(ds, **keywords))
        assert batches and all(len(b) == 2 and all(type(t) is torch.Tensor for t in b) for b in batches)
    import inspect

    from flake8_torchcopy.analysis import pipelines
    accepted = set(inspect.signature(DataLoader.__init__).parameters) - {"self"}
    assert pipelines._LOADER_KEYWORDS <= accepted
    assert accepted - pipelines._LOADER_KEYWORDS == {"collate_fn", "batch_sampler", "multiprocessing_context"}
