"""What the analysis reports to: the :class:`Sink` protocol the engine's rule runner implements.

The analysis builds no findings and decides no fix's safety: a rule's report (through
:meth:`~.context.Context.report`) reaches the sink as a code, a message, the span of the
node in characters, the fix the rule made (opaque here) and the lines of the statement
it stands in; when a function is walked again, the sink forgets what it was told about
its lines.  :data:`NO_SINK` discards everything (walks that run no rule).
"""
from __future__ import annotations

from typing import Any, Protocol, Tuple

#: (line, col, end_line, end_col), columns in characters
Span = Tuple[int, int, int, int]


class Sink(Protocol):
    """Receives the reports of the rules during a walk."""

    def report(self, code: str, message: str, span: Span, fix: Any, stmt_lines: Tuple[int, int]) -> None:
        """A rule reports ``code`` at ``span``; ``fix`` is whatever the rule made of it."""

    def forget(self, first: int, last: int) -> None:
        """Lines ``first..last`` are walked again: what was reported there is replaced."""


class _NoSink:
    def report(self, code: str, message: str, span: Span, fix: Any, stmt_lines: Tuple[int, int]) -> None:
        pass

    def forget(self, first: int, last: int) -> None:
        pass


NO_SINK: Sink = _NoSink()
