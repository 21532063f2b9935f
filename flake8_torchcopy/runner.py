"""The runner: walks a module with the rules and turns their reports into findings.

The analysis (:mod:`flake8_torchcopy.analysis`) knows no :class:`~.finding.Finding`: it
reports to a :class:`~flake8_torchcopy.analysis.sink.Sink`.  :func:`run_rules` is the
sink's owner: it builds one finding per position and code, drops those of a function
walked again (and tells a rule that keeps what it saw, the verifier's probe), and owns
the unsafe policy of the rounds: where the later rounds seeded a public function's
parameters from its calls in this module, a finding those rounds changed rests on calls
not all seen (callers in other modules), so its fix is unsafe.
"""
from __future__ import annotations

import ast
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .analysis.flow import ModuleWalk
from .analysis.sink import Span
from .finding import Finding, unsafe


class _Findings:
    """The :class:`~flake8_torchcopy.analysis.sink.Sink` of a run: findings by position."""

    def __init__(self, rules: Sequence) -> None:
        self.rules = rules
        self.findings: Dict[Tuple[int, int, str], Finding] = {}

    def report(self, code: str, message: str, span: Span, fix: Any, stmt_lines: Tuple[int, int]) -> None:
        line, col, end_line, end_col = span
        self.findings[(line, col, code)] = Finding(code, message, line, col, end_line, end_col, fix,
                                                   stmt_lines=stmt_lines)

    def forget(self, first: int, last: int) -> None:
        self.findings = {k: f for k, f in self.findings.items() if not first <= f.line <= last}
        for rule in self.rules:  # a rule that keeps what it saw (the verifier's probe)
            forget = getattr(rule, "forget", None)
            if forget is not None:
                forget(first, last)


def run_rules(source: str, tree: ast.AST, rules: Sequence, options,
              path: Optional[str] = None) -> List[Finding]:
    """The findings of ``rules`` in the module (unsorted), over every round of the walk."""
    sink = _Findings(rules)
    walk = ModuleWalk(source, tree, rules, options, sink, path)
    walk.first_round()
    first = dict(sink.findings)
    walk.more_rounds()
    if walk.rests_on_public_calls:
        # a public function's callers in other modules are not seen: what rests on its
        # calls here is a finding, its fix unsafe
        # (Finding equality ignores the fix: compare it too)
        return [f if first.get(k) == f and first[k].fix == f.fix else unsafe(f)
                for k, f in sink.findings.items()]
    return list(sink.findings.values())
