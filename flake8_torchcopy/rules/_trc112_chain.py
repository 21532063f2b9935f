"""TRC112: the host ops a factory's tensor may go through before its move
(``torch.tensor(m).view(-1, 1, 1)``, ``[None]``, ``.T``), which keep it dense and whole."""
from __future__ import annotations

import ast

from ._trc112_moves import TENSOR_CASTS

# ops between the factory and the move that keep the tensor on the host and leave it dense and
# non-overlapping, so that ``.to(device)`` (preserve_format) gives it the strides the same ops
# give on the device: views that only split, merge, add or drop dims or reorder them, and dtype
# casts (an expand or a slice is not: ``.to()`` would materialise it contiguous)
HOST_VIEWS = frozenset({"view", "reshape", "unsqueeze", "squeeze", "flatten", "t", "transpose",
                         "permute", "contiguous"})
# ... and the attributes and indexes that are such views: ``.T``, ``.mT``, ``[None]``, ``[:, None]``
HOST_ATTRS = frozenset({"T", "mT"})


def through_host_ops(node: ast.AST) -> tuple:
    """The factory call under ``node`` and the host ops applied to it (innermost first):
    ``torch.tensor(m).view(-1, 1, 1).int()`` gives ``torch.tensor(m)`` and the two calls;
    ``torch.tensor(a)[None].T`` the subscript and the attribute."""
    chain: list = []
    while True:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords \
                and not any(isinstance(a, ast.Starred) for a in node.args) \
                and (node.func.attr in HOST_VIEWS or node.func.attr in TENSOR_CASTS and not node.args):
            chain.append(node)
            node = node.func.value
        elif isinstance(node, ast.Attribute) and node.attr in HOST_ATTRS \
                or isinstance(node, ast.Subscript) and keeps_every_element(node.slice):
            chain.append(node)
            node = node.value
        else:
            break
    if not isinstance(node, ast.Call):
        return None, chain
    return node, chain[::-1]


def keeps_every_element(index: ast.AST) -> bool:
    """An index that only adds dims or keeps them whole: ``None``, ``...``, ``:`` (a dense
    view of every element, as ``unsqueeze``; not ``[0]``, ``[:k]``, ``[::2]``)."""
    items = index.elts if isinstance(index, ast.Tuple) else [index]
    return all(isinstance(i, ast.Constant) and (i.value is None or i.value is Ellipsis)
               or isinstance(i, ast.Slice) and i.lower is i.upper is i.step is None for i in items)


def op_args(op: ast.AST) -> list:
    """The arguments of a host op in the chain (a subscript's or an attribute's: none to evaluate)."""
    return op.args if isinstance(op, ast.Call) else []


def plain_arg(a: ast.AST) -> bool:
    """An argument whose evaluation cannot depend on when it happens: a number, ``-1``, a name."""
    if isinstance(a, ast.UnaryOp) and isinstance(a.op, ast.USub):
        a = a.operand
    return isinstance(a, ast.Constant) or isinstance(a, ast.Name)
