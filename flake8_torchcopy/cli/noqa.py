"""``# noqa`` for ``torchcopy-fix`` and the LibCST codemod, exactly as flake8 applies it to
the plugin's findings (flake8 7: ``defaults.NOQA_INLINE_REGEXP``,
``FileProcessor._noqa_line_mapping``, ``Violation.is_inline_ignored``,
``FileProcessor.should_ignore_file``), so that a file gives the same findings through
``flake8``, ``torchcopy-fix``, pre-commit's hooks and the codemod:

* a finding belongs to the line it starts on (what the plugin yields to flake8);
* that line is looked up in its *token group*: the physical lines from the first token
  after one ``NEWLINE``/``NL`` token to the next one.  A backslash continuation or a
  multi-line string (or f-string) joins lines into one group; a line break inside
  brackets ends one (tokenize gives it an ``NL``), so a ``# noqa`` on another line of a
  bracketed statement does not cover the finding, while one at the end of a
  multi-line string's last line covers every line of the string;
* the group's text is searched for ``# noqa`` (one space, any case), optionally
  followed by ``:`` and codes: ``# noqa``, ``# NOQA:TRC101``, ``# noqa: TRC101,E501``.
  The search is over the raw text, as flake8 does it: ``'# noqa'`` in a string counts,
  ``#noqa`` (no space) does not;
* codes are comma/space separated and compared case-sensitively as prefixes
  (``# noqa:trc101`` suppresses nothing); codes without digits (``# noqa:TRC``) are
  not read as codes, so the comment is a blanket ``# noqa``;
* a line that starts (after whitespace) with ``# flake8: noqa`` (or ``flake8=noqa``,
  with or without codes after it) skips the whole file.
"""
from __future__ import annotations

import re
import tokenize
from typing import Dict, Iterable, List, Optional, Tuple

from ..finding import Finding
from ..source import LINE_BREAK

# flake8's defaults.NOQA_INLINE_REGEXP, verbatim
NOQA_INLINE = re.compile(
    r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?",
    re.IGNORECASE,
)
# flake8's defaults.NOQA_FILE, verbatim (used with .match on each line)
NOQA_FILE = re.compile(r"\s*# flake8[:=]\s*noqa", re.I)
# flake8's utils.COMMA_SEPARATED_LIST_RE
_SPLIT = re.compile(r"[,\s]")


def physical_lines(source: str) -> List[str]:
    """The lines of ``source`` as flake8 reads them (universal newlines, each ending in
    ``\\n`` but perhaps the last)."""
    parts = LINE_BREAK.sub("\n", source).split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def codes_of(comment_codes: str) -> List[str]:
    """The codes of ``# noqa: CODES`` as flake8 parses them."""
    return [c.strip() for c in _SPLIT.split(comment_codes) if c.strip()]


def suppressed_by(text: str, code: str) -> bool:
    """Does the noqa text of a finding's line (its token group) suppress ``code``?"""
    m = NOQA_INLINE.search(text)
    if m is None:
        return False
    codes = m.group("codes")
    if codes is None:
        return True
    parsed = codes_of(codes)
    return code in parsed or code.startswith(tuple(parsed))


class NoqaIndex:
    """The ``# noqa`` state of one source text, as flake8 would see it."""

    def __init__(self, source: str) -> None:
        self.lines = physical_lines(source)
        self.skip_file = any(NOQA_FILE.match(line) for line in self.lines)
        self._groups: Optional[Dict[int, Tuple[int, int]]] = None

    def noqa_text(self, line: int) -> str:
        """The text searched for ``# noqa`` for a finding on ``line``: the joined lines of
        its token group (flake8's ``_noqa_line_mapping``), or the physical line alone when
        the source cannot be tokenized (flake8 falls back to ``linecache``)."""
        if self._groups is None:
            self._groups = _groups_and_comments(self.lines)[0]
        first, last = self._groups.get(line, (line, line))
        return "".join(self.lines[max(first, 1) - 1:last])

    def suppresses(self, finding: Finding) -> bool:
        return suppressed_by(self.noqa_text(finding.line), finding.code)

    def filter(self, findings: Iterable[Finding]) -> List[Finding]:
        if self.skip_file:
            return []
        return [f for f in findings if not self.suppresses(f)]


def file_is_skipped(source: str) -> bool:
    """True when a line of ``source`` starts with ``# flake8: noqa`` (flake8 skips the file)."""
    if "flake8" not in source.lower():
        return False  # cheap: no such line at all
    return any(NOQA_FILE.match(line) for line in physical_lines(source))


def filter_findings(source: str, findings: Iterable[Finding]) -> List[Finding]:
    """The findings of ``source`` that flake8 would not suppress with a noqa comment."""
    findings = list(findings)
    if not findings or ("noqa" not in source.lower()):
        return findings
    return NoqaIndex(source).filter(findings)


_LINE_WITH_END = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def _groups_and_comments(lines: List[str]):
    """(line -> (first, last) line of its token group, comment tokens as (line, col, text)).
    A token group runs from the first token after a ``NEWLINE``/``NL`` token to the next
    one; nothing when the lines cannot be tokenized."""
    ranges: Dict[int, Tuple[int, int]] = {}
    comments = []
    it = iter(lines)
    try:
        tokens = list(tokenize.generate_tokens(lambda: next(it)))
    except (tokenize.TokenError, SyntaxError, ValueError, StopIteration):
        return {}, []
    lo, hi = len(lines) + 2, -1
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            comments.append((tok.start[0], tok.start[1], tok.string))
        if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
            continue
        lo, hi = min(lo, tok.start[0]), max(hi, tok.end[0])
        if tok.type in (tokenize.NL, tokenize.NEWLINE):
            for n in range(lo, hi + 1):
                ranges[n] = (lo, hi)
            lo, hi = len(lines) + 2, -1
    return ranges, comments


def add_noqa(source: str, findings: Iterable[Finding]):
    """``source`` with a ``# noqa: CODES`` comment for each finding (ruff's ``--add-noqa``),
    placed where flake8 looks for it: at the end of the last line of the finding's token
    group, or merged into a ``# noqa: CODES`` comment already there.  Returns (new source,
    the findings now suppressed); a finding whose group holds a ``# noqa: CODES`` that is
    not a comment (it is in a string) is left out."""
    lines = physical_lines(source)
    ranges, comments = _groups_and_comments(lines)
    wanted: Dict[tuple, List[Finding]] = {}
    for f in findings:
        group = ranges.get(f.line, (f.line, f.line))
        wanted.setdefault(group, []).append(f)
    texts = [m.group(0) for m in _LINE_WITH_END.finditer(source)]
    done: List[Finding] = []
    for (lo, hi), group_findings in sorted(wanted.items()):
        if not 0 < hi <= len(texts):
            continue
        codes = sorted({f.code for f in group_findings})
        joined = "".join(lines[lo - 1:hi])
        m = NOQA_INLINE.search(joined)
        if m is not None:
            if m.group("codes") is None:
                continue  # a blanket noqa: nothing to add (the findings are suppressed already)
            # where the match lies: it must be the start of a comment to be extended
            before = joined[:m.start()]
            line = lo + before.count("\n")
            col = len(before) - (before.rfind("\n") + 1)
            comment = next((c for c in comments if c[0] == line and c[1] <= col < c[1] + len(c[2])), None)
            if comment is None:
                continue
            old_codes = codes_of(m.group("codes"))
            merged = old_codes + [c for c in codes if c not in old_codes]
            end = m.start("codes") + len(m.group("codes").rstrip(", \t\r\n\f\v"))
            text = texts[line - 1]
            start_col, end_col = col, col + (end - m.start())
            texts[line - 1] = text[:start_col] + "# noqa: " + ", ".join(merged) + text[end_col:]
        else:
            text = texts[hi - 1]
            body = text.rstrip("\r\n")
            texts[hi - 1] = body.rstrip(" \t") + "  # noqa: " + ", ".join(codes) + text[len(body):]
        done.extend(group_findings)
    return "".join(texts), done
