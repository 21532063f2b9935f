"""The seventeenth round of research packages (2026-11-25): espnet, mmtrack,
torch-geometric-signed-directed, opennmt-py, pytorch-transformers, sample-factory,
simpletransformers, texar-pytorch.  One wrong report, three times: espnet's mini-omni
``get_input_ids_TA``/``_TT`` (``sds/end_to_end/mini_omni/inference.py:73,75,88``) store a list
into a slot and convert that very slot on the next line::

    for i in range(7):
        input_ids_item[i] = [...] * (len(text_tokens) + 2) + [...]
        input_ids_item[i] = torch.tensor(input_ids_item[i]).unsqueeze(0)

The list's items were followed as one joined value, so the tensors stored by earlier
iterations made ``input_ids_item[i]`` "a tensor on some paths" (TRC101).  A read of the slot a
store just filled (the same int literal, or a local name not bound since) is now what was
stored (:func:`flake8_torchcopy.analysis.listfill.slot`); a rebinding of the index, an append,
a join or a comprehension rebinding the name in between keeps the joined items.
"""
import textwrap

import torch
from round_helpers import run_warnings

from flake8_torchcopy import lint_source


def _found(source):
    return sorted((f.line, f.code) for f in lint_source(textwrap.dedent(source)))


_run = run_warnings


# espnet 202511 espnet2/sds/end_to_end/mini_omni/inference.py:66-89, reduced
MINI_OMNI = """
import torch

def get_input_ids_TA(text_tokens):
    input_ids_item = [[] for _ in range(8)]
    for i in range(7):
        input_ids_item[i] = [i] * (len(text_tokens) + 2) + [i + 1]
        input_ids_item[i] = torch.tensor(input_ids_item[i]).unsqueeze(0)
    input_ids_item[-1] = [0] + text_tokens.tolist() + [1]
    input_ids_item[-1] = torch.tensor(input_ids_item[-1]).unsqueeze(0)
    return input_ids_item

def get_input_ids_TT(text_tokens):
    input_ids_item = [[] for i in range(8)]
    text_tokens = text_tokens.tolist()
    for i in range(7):
        input_ids_item[i] = torch.tensor([i] * (len(text_tokens) + 3)).unsqueeze(0)
    input_ids_item[-1] = [0] + text_tokens + [1]
    input_ids_item[-1] = torch.tensor(input_ids_item[-1]).unsqueeze(0)
    return input_ids_item
"""


def test_slot_just_stored_is_not_reported():
    assert _found(MINI_OMNI) == []


def test_slot_just_stored_holds_a_list_with_torch():
    for name in ("get_input_ids_TA", "get_input_ids_TT"):
        assert _run(MINI_OMNI, name, torch.tensor([5, 6])) == []


# the slot read is not the one just stored: the joined items stay, and each is a tensor there
KEPT = """
import torch

def other_key(n):
    items = [[] for _ in range(2)]
    items[0] = [1]
    i = 0
    items[i] = torch.zeros(n)
    items[1] = [2]
    return torch.tensor(items[i])

def index_rebound(n):
    items = [[] for _ in range(3)]
    items[0] = torch.zeros(n)
    i = 1
    items[i] = [1]
    i = 0
    return torch.tensor(items[i])

def appended(n):
    items = [[] for _ in range(3)]
    items[0] = torch.zeros(n)
    items[-1] = [1]
    items.append(torch.zeros(n))
    return torch.tensor(items[-1])

def comprehension(n):
    items = [[] for _ in range(3)]
    items[0] = torch.zeros(n)
    i = 1
    items[i] = [1]
    return [torch.tensor(items[i]) for i in range(3)]

def joined(n, flag):
    items = [[] for _ in range(3)]
    items[0] = [1]
    if flag:
        items[0] = torch.zeros(n)
    return torch.tensor(items[0])
"""


def test_slot_not_just_stored_stays_reported():
    assert _found(KEPT) == [(10, "TRC101"), (18, "TRC101"), (25, "TRC101"), (32, "TRC101"), (39, "TRC101")]


def test_slot_not_just_stored_holds_a_tensor_with_torch():
    for name, args in (("other_key", (3,)), ("index_rebound", (3,)), ("appended", (3,)),
                       ("comprehension", (3,)), ("joined", (3, True))):
        assert any("copy construct" in m for m in _run(KEPT, name, *args)), name


def test_index_not_rebound_reads_the_slot():
    quiet = KEPT.replace("    i = 0\n    return torch.tensor(items[i])", "    return torch.tensor(items[i])")
    assert (18, "TRC101") not in _found(quiet)
    assert _run(quiet, "index_rebound", 3) == []


# the index rebound later in a loop: the read sees the slot again with another index
LOOPED = """
import torch

def looped(n, j, rounds):
    items = [[] for _ in range(3)]
    items[1] = torch.zeros(n)
    i = 0
    items[i] = [1]
    out = []
    while rounds:
        out.append(torch.tensor(items[i]))
        i = j
        rounds -= 1
    return out
"""


def test_index_rebound_later_in_a_loop_stays_reported():
    assert _found(LOOPED) == [(11, "TRC101")]
    assert any("copy construct" in m for m in _run(LOOPED, "looped", 3, 1, 2))
