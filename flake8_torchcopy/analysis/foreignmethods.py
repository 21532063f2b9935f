"""Names on which the code calls a method no ``torch.Tensor`` has (``data.del_("index")`` of
a TensorDict, ``batch.to_data_list()``): where such a call returns, the object is no plain
tensor.  A rule that would report on what may be a tensor stays quiet there; a Tensor
subclass that adds such a method only makes it miss.  Tensor's methods are those the
generated tables of :mod:`.torchfacts` describe (every public callable of ``torch.Tensor``,
checked against torch in ``tests/test_torch_facts.py``); private names are never counted."""
from __future__ import annotations

import ast

from . import torchfacts as facts
from .nodeindex import walk

TENSOR_METHOD_NAMES = frozenset().union(*(getattr(facts, table) for table in (
    "TENSOR_METHODS", "TENSOR_LIST_METHODS", "TUPLE_METHODS", "NON_TENSOR_METHODS", "VARYING_METHODS",
    "ALONE_METHODS", "OTHER_METHODS", "FLAG_TUPLE_METHODS", "UNDESCRIBED_METHODS")))


def foreign_method_called(scope: ast.AST, name: str) -> bool:
    """Does ``scope`` (a function, or a module) call ``name.m(...)`` for a public ``m`` that
    ``torch.Tensor`` lacks?  Asked only for a report about to be made: a walk of the scope."""
    for node in walk(scope):
        if node.__class__ is ast.Call:
            func = node.func
            if func.__class__ is ast.Attribute and func.value.__class__ is ast.Name \
                    and func.value.id == name and not func.attr.startswith("_") \
                    and func.attr not in TENSOR_METHOD_NAMES:
                return True
    return False
