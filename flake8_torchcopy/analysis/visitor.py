"""What the walker calls for the nodes it evaluates: the :class:`Visitor` the engine implements.

The analysis knows no rule.  A visitor gives the walker hooks per node class
(:attr:`Visitor.hooks`): each expression node of such a class that the walker evaluates
while reporting is passed to them in order, with the :class:`~.context.Context`, once its
value is cached.  It also gives the word groups one of which must be in a function's text for a
hook to have anything to do there (:attr:`Visitor.function_triggers`): the walker skips
the other functions' bodies, the cheap pre-check every run of the plugin relies on.
:data:`NO_VISITOR` has no hook and matches nowhere (walks that only compute values).
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Callable, Mapping, Protocol, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .context import Context
    from .triggers import Word

#: called with each evaluated node of its class and the context of the walk
NodeHook = Callable[[ast.AST, "Context"], None]


class Visitor(Protocol):
    """The hooks a walk calls, and where they may have something to do."""

    #: node class -> its hooks, called in order (a class not here costs one dict lookup)
    hooks: Mapping[type, Sequence[NodeHook]]
    #: word groups: a function's body is walked only when its text holds every word of one
    #: (names imported under an alias are added by the walker)
    function_triggers: Sequence[Sequence["Word"]]


class _NoVisitor:
    hooks: Mapping[type, Sequence[NodeHook]] = {}
    function_triggers: Sequence[Sequence["Word"]] = ()


NO_VISITOR: Visitor = _NoVisitor()
