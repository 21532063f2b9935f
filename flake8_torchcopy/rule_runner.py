"""The rule runner: walks a module with the rules and turns their reports into findings.

The analysis (:mod:`flake8_torchcopy.analysis`) knows no rule and no
:class:`~.finding.Finding`: its walker calls the hooks of a
:class:`~flake8_torchcopy.analysis.visitor.Visitor` and reports to a
:class:`~flake8_torchcopy.analysis.sink.Sink`.  :func:`run_rules` implements both: it
dispatches each node to the rules registered for its class (and gives the walker the
rules' function triggers, its cheap pre-check), builds one finding per position and
code, drops those of a function walked again (and tells each :class:`Recorder`, such as
the verifier's probe), and owns the unsafe policy of the rounds: where the later rounds
seeded a public function's parameters from its calls in this module, a finding those
rounds changed rests on calls not all seen (callers in other modules), so its fix is
unsafe.
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Protocol, Sequence, Tuple

from .analysis.flow import ModuleWalk, release
from .analysis.sink import Span
from .analysis.triggers import Word
from .analysis.visitor import NodeHook
from .finding import Finding, unsafe

if TYPE_CHECKING:  # pragma: no cover
    from .analysis.context import Context


class Checker(Protocol):
    """What the runner asks of a rule (:class:`~flake8_torchcopy.rules.base.Rule`, or the
    verifier's probe): the node classes to be called for, the words one group of which a
    function's text must hold for it to match there, and the check."""

    @property
    def node_types(self) -> Sequence[type]: ...

    @property
    def triggers(self) -> Sequence[Sequence[Word]]: ...

    @property
    def function_triggers(self) -> Optional[Sequence[Sequence[Word]]]: ...

    def check(self, node: ast.AST, ctx: Context) -> None: ...


class Recorder(Protocol):
    """What keeps what it saw during a walk (the verifier's probe, a pseudo-rule): told when
    lines are walked again, since what it saw there is replaced."""

    def forget(self, first: int, last: int) -> None:
        """Lines ``first..last`` are walked again."""


class _Dispatch:
    """The :class:`~flake8_torchcopy.analysis.visitor.Visitor` of a run: each node to the
    ``check`` of the rules registered for its class, in the rules' order."""

    def __init__(self, rules: Sequence[Checker]) -> None:
        checks: Dict[type, List[NodeHook]] = {}
        for rule in rules:
            for t in rule.node_types:
                checks.setdefault(t, []).append(rule.check)
        self.hooks: Mapping[type, Sequence[NodeHook]] = {t: tuple(found) for t, found in checks.items()}
        self.function_triggers: Sequence[Sequence[Word]] = [
            g for r in rules for g in (r.function_triggers or r.triggers)]


class _Findings:
    """The :class:`~flake8_torchcopy.analysis.sink.Sink` of a run: findings by position."""

    def __init__(self, recorders: Sequence[Recorder]) -> None:
        self.recorders = recorders
        self.findings: Dict[Tuple[int, int, str], Finding] = {}

    def report(self, code: str, message: str, span: Span, fix: Any, stmt_lines: Tuple[int, int]) -> None:
        line, col, end_line, end_col = span
        self.findings[(line, col, code)] = Finding(code, message, line, col, end_line, end_col, fix,
                                                   stmt_lines=stmt_lines)

    def forget(self, first: int, last: int) -> None:
        self.findings = {k: f for k, f in self.findings.items() if not first <= f.line <= last}
        for recorder in self.recorders:
            recorder.forget(first, last)


def run_rules(source: str, tree: ast.AST, rules: Sequence[Checker], options,
              path: Optional[str] = None, recorders: Sequence[Recorder] = (),
              words: Optional[Mapping[Word, bool]] = None) -> List[Finding]:
    """The findings of ``rules`` in the module (unsorted), over every round of the walk;
    ``recorders`` are told which lines each later round walks again; ``words``, where
    given, says which words ``source`` holds (:class:`.triggers.WordsIn`)."""
    try:
        return _walked_findings(source, tree, rules, options, path, recorders, words)
    finally:
        release()  # nothing of this module (its tree above all) is kept for the next


def _walked_findings(source: str, tree: ast.AST, rules: Sequence[Checker], options, path: Optional[str],
                     recorders: Sequence[Recorder], words: Optional[Mapping[Word, bool]]) -> List[Finding]:
    sink = _Findings(recorders)
    walk = ModuleWalk.of(source, tree, _Dispatch(rules), options, sink, path, words)
    if walk is None:
        return []  # no rule can match anywhere in the module
    walk.first_round()
    first = dict(sink.findings)
    walk.more_rounds()
    if walk.walker.optional_import:  # `torch = None` where the import failed: a fix may not raise
        return [unsafe(f) for f in sink.findings.values()]
    if walk.rests_on_public_calls:
        # a public function's callers in other modules are not seen: what rests on its
        # calls here is a finding, its fix unsafe
        # (Finding equality ignores the fix: compare it too)
        return [f if first.get(k) == f and first[k].fix == f.fix else unsafe(f)
                for k, f in sink.findings.items()]
    return list(sink.findings.values())
