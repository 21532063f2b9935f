"""``# noqa`` handling for ``torchcopy-fix`` (flake8 applies noqa itself for the plugin).

What is honoured, as flake8 does it:

* ``# noqa`` on any line of the (possibly multi-line) statement holding a
  finding suppresses every finding of that statement;
* ``# noqa: TRC101,TRC2`` (comma and/or space separated, case-insensitive
  ``noqa``) suppresses the findings whose code starts with one of the codes;
* ``# flake8: noqa`` on a line of its own skips the whole file.  With codes
  (``# flake8: noqa: TRC101``) it is ignored, as flake8 ignores it.

Only real comments count: ``tokenize`` finds them, so ``"# noqa"`` inside a
string suppresses nothing.
"""
from __future__ import annotations

import io
import re
import tokenize
from typing import Dict, Iterable, List, Optional, Tuple

from ..finding import Finding
from ..source import LINE_START, split_lines

# ``# noqa``, ``#noqa:TRC101``, ``# NOQA: TRC101, TRC2 TRC3``
NOQA_INLINE = re.compile(
    r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]*(?:[,\s]+[A-Z]+[0-9]*)*))?",
    re.IGNORECASE,
)
# ``# flake8: noqa`` (or ``flake8=noqa``), optionally followed by codes.
NOQA_FILE = re.compile(r"#\s*flake8[:=]\s*noqa(?P<codes>\s*:.*)?\s*$", re.IGNORECASE)

_SPLIT = re.compile(r"[,\s]+")

# line -> None (blanket noqa) or the tuple of upper-cased code prefixes
LineNoqa = Optional[Tuple[str, ...]]


def _comments(source: str) -> List[Tuple[int, int, str]]:
    """(line, column, text) of every comment in ``source``."""
    out = []
    try:
        # newline=None: ``\r`` and ``\r\n`` end lines here as they do for ``ast``
        for tok in tokenize.generate_tokens(io.StringIO(source, newline=None).readline):
            if tok.type == tokenize.COMMENT:
                out.append((tok.start[0], tok.start[1], tok.string))
    except (tokenize.TokenError, SyntaxError, ValueError):
        # The engine only sees sources that parse, so this is a last resort:
        # keep the comments found so far, and scan the rest of the lines naively.
        seen = {line for line, _, _ in out}
        for no, text in enumerate(split_lines(source), 1):
            if no in seen or "#" not in text:
                continue
            idx = text.index("#")
            out.append((no, idx, text[idx:]))
    return out


class NoqaIndex:
    """The noqa comments of one source text."""

    def __init__(self, source: str) -> None:
        self.lines: Dict[int, LineNoqa] = {}
        self.skip_file = False
        lines = split_lines(source)
        for line, col, text in _comments(source):
            fm = NOQA_FILE.match(text)
            if fm:
                own_line = line <= len(lines) and not lines[line - 1][:col].strip()
                if own_line and not fm.group("codes"):
                    self.skip_file = True
                continue
            m = NOQA_INLINE.search(text)
            if not m:
                continue
            codes = m.group("codes")
            if codes is None:
                self.lines[line] = None
            else:
                parsed = tuple(c.upper() for c in _SPLIT.split(codes.strip()) if c)
                prev = self.lines.get(line, ())
                if prev is not None:
                    self.lines[line] = prev + parsed

    def suppresses(self, finding: Finding) -> bool:
        first, last = finding.stmt_lines
        if not first:
            first, last = finding.line, finding.end_line
        first = min(first, finding.line)
        last = max(last, finding.end_line, finding.line)
        for line in range(first, last + 1):
            if line not in self.lines:
                continue
            codes = self.lines[line]
            if codes is None or any(finding.code.startswith(c) for c in codes):
                return True
        return False

    def filter(self, findings: Iterable[Finding]) -> List[Finding]:
        if self.skip_file:
            return []
        if not self.lines:
            return list(findings)
        return [f for f in findings if not self.suppresses(f)]


# A line that could hold ``# flake8: noqa`` on its own: only then is tokenizing worth it.
_FILE_NOQA_LINE = re.compile(LINE_START + r"[ \t]*#\s*flake8[:=]\s*noqa", re.IGNORECASE | re.MULTILINE)


def file_is_skipped(source: str) -> bool:
    """True when ``source`` has a ``# flake8: noqa`` line (without codes)."""
    if not _FILE_NOQA_LINE.search(source):
        return False  # cheap: no such line at all, so no need to tokenize
    return NoqaIndex(source).skip_file


def filter_findings(source: str, findings: Iterable[Finding]) -> List[Finding]:
    """The findings of ``source`` that no noqa comment suppresses."""
    findings = list(findings)
    if not findings or "noqa" not in source.lower():
        return findings
    return NoqaIndex(source).filter(findings)
