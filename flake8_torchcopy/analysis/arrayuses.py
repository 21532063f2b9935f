"""Names of numpy arrays (TRC109) or tensors (TRC107) whose shape nothing may change in place.

What the analysis knows of an array held in a name (its dtype, rank, non-zero length:
:mod:`.numpyish`) is read off its binding.  ``a.resize((0,), refcheck=False)``,
``np.ndarray.resize(a, ...)``, ``a.shape = (2, 2)``, ``a.dtype = np.int32`` change them
in place, and so may any function ``a`` is handed to (``helper(a)``, of another module
too), another name bound to it (``b = a``, ``lst = [a]``), or a view's ``.base``
(checked with numpy and torch in tests/test_review12.py).  :func:`array_stays_put` says
"yes" for a name of a function whose every read (:func:`.locallists.uses_in_scope`, which
refuses parameters, ``global`` names and names of nested scopes) is an operand (``a + 1``,
``-a``, ``a[0]``, a comparison), the receiver of a method or attribute load other than a
dunder and ``resize`` (``a.copy()``, ``a.astype(...)``, ``a.shape``; for a tensor, other
than :data:`TENSOR_SHAPERS`: ``t.resize_(0, 3)``), an argument of the builtin ``len``,
``print``, ``isinstance``, ``id``, ``type`` (where the caller shows them the builtins:
:func:`.modulescan.builtin`), or an item of a list or tuple display passed straight to a
call ``constructors`` accepts; in a function whose text names no ``resize``, ``.base``,
``setattr`` or ``__setattr__`` (for a tensor: ``setattr``, ``__setattr__``,
``swap_tensors``, ``__setstate__``).  Its stores are the evaluator's (it follows
rebinding); a store through it (``t.data = e``) refuses it.  At module level likewise (a
name a function of the module uses is refused; another module's code runs only where a
statement calls it).
"""
from __future__ import annotations

import ast
from typing import Callable, FrozenSet

from .locallists import uses_in_scope

_TEXT = ("resize", ".base", "setattr", "__setattr__")
# a tensor's sizes changed in place (TRC107 reads them off its binding: an empty tensor comes
# back through numpy with zero strides): by these methods, or a store of ``.data``
TENSOR_SHAPERS = frozenset("resize_ resize_as_ set_ as_strided_ squeeze_ unsqueeze_ t_ transpose_ swapdims_ "
                           "swapaxes_".split())
_TENSOR_TEXT = ("setattr", "__setattr__", "swap_tensors", "__setstate__")
#: builtins that read an array and change nothing of it (where they are the builtins)
HARMLESS = frozenset({"len", "print", "isinstance", "id", "type"})


def array_stays_put(scope: ast.AST, name: str, source_text: str, constructors: Callable[[ast.Call], bool],
                    harmless: FrozenSet[str] = frozenset(), tensor: bool = False) -> bool:
    """Is the array ``name`` holds in ``scope`` (a function or the module) changed in place
    nowhere?  With ``tensor``, the tensor's sizes (:data:`TENSOR_SHAPERS`)."""
    if any(w in source_text for w in (_TENSOR_TEXT if tensor else _TEXT)):
        return False
    shapers = TENSOR_SHAPERS if tensor else frozenset({"resize"})
    found = uses_in_scope(scope, name, source_text)
    if found is None:
        return False
    uses, parents = found
    for node, parent in uses:
        if isinstance(node.ctx, ast.Store):
            continue
        if not isinstance(node.ctx, ast.Load):
            return False  # del a
        if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare)):
            continue
        if isinstance(parent, ast.Subscript) and parent.value is node:
            continue
        if isinstance(parent, ast.Attribute):
            if not isinstance(parent.ctx, ast.Load) or parent.attr in shapers or parent.attr.startswith("__"):
                return False
            continue
        if isinstance(parent, ast.Call) and node in parent.args and isinstance(parent.func, ast.Name) \
                and parent.func.id in harmless:
            continue  # len(a): the builtin
        if isinstance(parent, (ast.List, ast.Tuple)):
            call = parents.get(id(parent))
            if isinstance(call, ast.Call) and parent in call.args and constructors(call):
                continue
        return False
    return True
