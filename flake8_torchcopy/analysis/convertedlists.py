"""Lists converted in place: after ``xs = torch.tensor(xs)`` the name holds the tensor, not the list.

:func:`converted_uses` finds the occurrences of a name that can only see what such a
statement bound, so :mod:`.locallists` need not judge them as reads of the list: the
statement ``name = conv(name)...`` (``conv`` a call that makes a new object of the list,
``torch.tensor``/``stack``/``numpy.array``..., with a chain of method calls, attributes or
subscripts on its result) and the occurrences in the statements after it in its statement
list, when none of those stores or deletes the name: control reaches them only through the
statement, and nothing binds the name again on the way.  The occurrences in the
statement's value are reads of the list, judged as before.
"""
from __future__ import annotations

import ast
from typing import Callable, Dict, List, Optional, Set, Tuple

from .nodeindex import walk

Converts = Callable[[ast.Call], bool]  # a call that makes a new object of the list it is given


def converted_uses(scope: ast.AST, name: str, uses: List[Tuple[ast.Name, ast.AST]],
                   parents: Dict[int, ast.AST], converts: Converts) -> Set[int]:
    """ids of the occurrences of ``name`` in ``scope`` (``uses``, with their parents) that see
    only a conversion's result: each conversion statement's target and the occurrences after
    it in its statement list (none of them a store or ``del``)."""
    out: Set[int] = set()
    for node, parent in uses:
        if not (isinstance(node.ctx, ast.Store) and isinstance(parent, ast.Assign)
                and len(parent.targets) == 1 and parent.targets[0] is node
                and _conversion_of(parent.value, name, converts)):
            continue
        body = _statement_list(scope, parent, parents)
        if body is None:
            continue
        after = [n for s in body[_index(body, parent) + 1:] for n in walk(s)
                 if isinstance(n, ast.Name) and n.id == name]
        if any(not isinstance(n.ctx, ast.Load) for n in after):
            continue  # bound again (or deleted) after the conversion: not followed
        out.add(id(node))
        out.update(id(n) for n in after)
    return out


def _conversion_of(value: ast.AST, name: str, converts: Converts) -> bool:
    """Is ``value`` ``conv(name)`` (``converts(conv call)``, ``name`` a positional argument),
    possibly followed by method calls, attributes and subscripts?  Every occurrence of the
    name in ``value`` stays a read the caller judges."""
    v = value
    while not (isinstance(v, ast.Call) and converts(v)):
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute):
            v = v.func.value
        elif isinstance(v, (ast.Attribute, ast.Subscript)):
            v = v.value
        else:
            return False
    return any(isinstance(a, ast.Name) and a.id == name for a in v.args)


def _statement_list(scope: ast.AST, stmt: ast.AST, parents: Dict[int, ast.AST]) -> Optional[List[ast.stmt]]:
    """The statement list that holds ``stmt`` (the scope's body for its own statements)."""
    holder = parents.get(id(stmt), scope)
    for field in ("body", "orelse", "finalbody"):
        body = getattr(holder, field, None)
        if isinstance(body, list) and any(s is stmt for s in body):
            return body
    return None


def _index(body: List[ast.stmt], stmt: ast.AST) -> int:
    return next(i for i, s in enumerate(body) if s is stmt)
