"""Library knowledge of data pipelines: what Hugging Face tokenizers and PyTorch's
``DataLoader`` over a ``TensorDataset`` return.

A tokenizer loaded by ``AutoTokenizer.from_pretrained(...)`` (or a named
``...Tokenizer``/``...TokenizerFast`` class's ``from_pretrained``, without
``trust_remote_code``, which may load a class of the model's own) and called with
``return_tensors="pt"`` returns a ``BatchEncoding`` whose every value is a
``torch.Tensor``: ``BatchEncoding.convert_to_tensors`` turns each value into one with
``torch.tensor`` or raises (transformers' ``tokenization_utils_base.py``).  Its values
are read by subscript (``enc["input_ids"]``) or attribute (``enc.input_ids``), and
``enc.to(device)`` returns the same object.  ``tokenizer.encode(..., return_tensors="pt")``
returns a tensor.  The tokenizer and the encoding are marked by their ``qualname``
(``TOKENIZER``, ``BATCH_ENCODING``), which no rule matches.  Evidence from here carries
the ``LIBRARY`` caveat: reports, and fixes marked unsafe.

``TensorDataset(a, b)`` (tensors, no starred arguments) yields tuples of as many tensors
(``tensor[index]`` each), and a ``DataLoader`` over it with the default collate
(no ``collate_fn``/``batch_sampler``, only the keywords listed in ``_LOADER_KEYWORDS``)
yields lists of as many tensors: ``default_collate`` stacks each position, and with
``batch_size=None`` the items come through as they are.  ``for x, y in loader:`` then
binds tensors (checked with torch in ``tests/test_pipelines.py``).  A dataset class of the
module reads the same way (:mod:`.datasets`).
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Optional

from .values import NOT, TENSOR, Value

TENSOR_DATASET = "torch:TensorDataset"
_DATASETS = frozenset({"torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset"})
_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
#: DataLoader keywords that keep the default collate and the dataset's items
_LOADER_KEYWORDS = frozenset(
    "dataset batch_size shuffle sampler num_workers pin_memory drop_last timeout "
    "worker_init_fn generator prefetch_factor persistent_workers pin_memory_device in_order".split())
TOKENIZER = "transformers:tokenizer"
BATCH_ENCODING = "transformers:BatchEncoding"
LIBRARY = "it rests on what a library returns (a Hugging Face tokenizer's output)"

_LOADER = re.compile(r"transformers\.(?:\w+\.)*(?:Auto|[A-Z]\w*)Tokenizer(?:Fast)?\.from_pretrained$")
#: tokenizer methods that return a BatchEncoding (``__call__`` is the tokenizer itself)
_ENCODING_METHODS = frozenset({"encode_plus", "batch_encode_plus", "pad"})
#: BatchEncoding attributes that are not its values
_ENCODING_MEMBERS = frozenset(
    "data keys values items get to convert_to_tensors encodings is_fast n_sequences tokens "
    "words word_ids sequence_ids token_to_word char_to_token word_to_tokens token_to_chars "
    "word_to_chars char_to_word token_to_sequence copy update pop setdefault clear fromkeys popitem".split())


#: the names this module knows start so
_PREFIXES = ("transformers", "torch.utils.data.")


def _pt(node: ast.Call) -> bool:
    return any(k.arg == "return_tensors" and isinstance(k.value, ast.Constant)
               and k.value.value == "pt" for k in node.keywords)


def _encoding() -> Value:
    return Value(NOT, qualname=BATCH_ENCODING, mapped=Value(TENSOR, caveat=LIBRARY))


def call(q: str, node: ast.Call, value_of: Optional[Callable[[ast.AST], Value]] = None) -> Optional[Value]:
    """What a call of qualified name ``q`` returns, when this module knows it (``value_of``:
    the values the evaluator found for the call's arguments)."""
    if not q.startswith(_PREFIXES):
        return None  # asked of every qualified call (torch.* above all): one prefix test
    if value_of is not None and (q in _DATASETS or q in _LOADERS):
        return _data(q, node, value_of)
    if _LOADER.match(q) and not any(k.arg == "trust_remote_code" or k.arg is None
                                    for k in node.keywords):
        return Value(NOT, qualname=TOKENIZER)
    if q == TOKENIZER or q.startswith(TOKENIZER + ".") and q[len(TOKENIZER) + 1:] in _ENCODING_METHODS:
        return _encoding() if _pt(node) else None
    if q == TOKENIZER + ".encode" and _pt(node):
        return Value(TENSOR, caveat=LIBRARY)
    if q == BATCH_ENCODING + ".to":
        return _encoding()
    return None


def _data(q: str, node: ast.Call, value_of: Callable[[ast.AST], Value]) -> Optional[Value]:
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return None
    if q in _DATASETS:
        if node.keywords or not node.args or any(value_of(a).kind != TENSOR for a in node.args):
            return None
        item = Value(NOT, elems=tuple(Value(TENSOR, caveat=LIBRARY) for _ in node.args))
        return Value(NOT, qualname=TENSOR_DATASET, item=item)
    if any(k.arg not in _LOADER_KEYWORDS for k in node.keywords) or len(node.args) > 1:
        return None  # collate_fn=, batch_sampler=, or positional options: not the default collate
    dataset = node.args[0] if node.args else next(
        (k.value for k in node.keywords if k.arg == "dataset"), None)
    held = value_of(dataset) if dataset is not None else None
    if held is None or held.qualname != TENSOR_DATASET or held.item is None:
        return None
    if held.item.kind == TENSOR:  # a dataset of tensors (.datasets): batches of tensors
        return Value(NOT, item=held.item)
    if held.item.elems is None:
        return None
    return Value(NOT, item=Value(NOT, elems=held.item.elems))


def attribute(base: Value, attr: str) -> Optional[Value]:
    """``enc.input_ids`` of an encoding: one of its values."""
    if base.qualname == BATCH_ENCODING and attr not in _ENCODING_MEMBERS \
            and not attr.startswith("_"):
        return base.mapped
    return None
