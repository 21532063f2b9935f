"""The module-level defs and classes a walker knows, found by the value their name is bound
to: keyed by a bare id, a value freed was found again under a later value's id (torch
2.13 nn/attention/flex_attention.py:1594, a call of a def nested in a function, took the
returns of the module's ``_apply_kernel_options``)."""
import ast
import gc

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis.values import HeldByValue, Value


def test_a_value_put_is_found_and_no_other():
    held = HeldByValue()
    node = ast.parse("def f(): return 1").body[0]
    v = Value(local_def=True)
    held.put(v, node)
    assert held.get(v) is node and held.get(Value(local_def=True)) is None and held.get(None) is None
    assert held.values() == [node]


def test_its_id_is_never_a_later_values():
    held = HeldByValue()
    v = Value(local_def=True)
    key = id(v)
    held.put(v, "def")
    del v
    gc.collect()
    later = [Value(local_def=True) for _ in range(2000)]  # with the value freed, one got its id
    assert all(held.get(w) is None for w in later) and all(id(w) != key for w in later)


def test_a_nested_def_is_not_a_module_def():
    src = ("import torch\n\ndef made():\n    return torch.zeros(2, 3).permute(1, 0)\n\n"
           "def f(x):\n    def made():\n        return x\n    return made().view(-1)\n")
    assert [f.code for f in lint_source(src)] == []
