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
# ... and ``.detach()``: the same tensor, cut from a graph a factory's tensor has no node in (no
# view either: ``detach_()`` of it works; checked with torch), so a TRC110 fix that moved the
# detach before the move (``torch.ones(3).detach().to(d)``) leaves the host build in sight
NOT_VIEWS = TENSOR_CASTS | {"detach"}


def through_host_ops(node: ast.AST) -> tuple:
    """The factory call under ``node`` and the host ops applied to it (innermost first):
    ``torch.tensor(m).view(-1, 1, 1).int()`` gives ``torch.tensor(m)`` and the two calls;
    ``torch.tensor(a)[None].T`` the subscript and the attribute."""
    chain: list = []
    while True:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords \
                and not any(isinstance(a, ast.Starred) for a in node.args) \
                and (node.func.attr in HOST_VIEWS or node.func.attr in NOT_VIEWS and not node.args):
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



# what an operand of arithmetic or a comparison stands next to: the result holds no view
_OPERATORS = ("+", "-", "*", "/", "%", "@", "&", "|", "^", "<", ">", "==", "!=", "<=", ">=")


def view_kept(chain: list, node: ast.AST, ctx) -> bool:
    """Built on the device, a view op in ``chain`` leaves the fix's result a view, where the
    move gave a fresh tensor: ``detach_()`` of a view raises, and so does changing in place with
    grad a view made under ``no_grad`` (checked with torch).  False where the chain holds only
    casts and detaches (they copy, or return the factory's own tensor, no view), or the result is at once an operand of
    arithmetic or a comparison (``x - m.view(-1, 1).to(d)``), which holds no view of it."""
    if all(isinstance(c, ast.Call) and getattr(c.func, "attr", None) in NOT_VIEWS for c in chain):
        return False
    start, end = ctx.start(node), ctx.end(node)
    before, after = ctx.source[max(0, start - 400):start].rstrip(), ctx.source[end:end + 400].lstrip()
    operand = before.endswith(_OPERATORS) and "#" not in before[before.rfind("\n") + 1:] \
        or after.startswith(_OPERATORS)
    return not operand
