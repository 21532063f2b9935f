"""Source text helpers: Python's own line breaks, and ``ast`` positions as character offsets.

Python ends a line at ``\\r\\n``, ``\\r`` or ``\\n`` (and ``ast`` numbers lines that
way); ``str.splitlines`` also splits at ``\\f``, ``\\v``, ``\\x1c``... which are not
line breaks to Python, so nothing here uses it.
"""
from __future__ import annotations

import ast
import re
from bisect import bisect_right
from typing import List

LINE_BREAK = re.compile(r"\r\n?|\n")
# A regex matching at the start of every line: compile it with re.MULTILINE.
LINE_START = r"(?:^|(?<=\r))"


def line_starts(source: str) -> List[int]:
    """Offset of the first character of each line, as Python counts lines."""
    return [0] + [m.end() for m in LINE_BREAK.finditer(source)]


def split_lines(source: str) -> List[str]:
    """The lines of ``source`` without their breaks: ``str.splitlines`` minus its extra breaks."""
    lines = LINE_BREAK.split(source)
    if lines[-1] == "":
        lines.pop()  # a final line break (or an empty source) opens no new line
    return lines


def split_after_lf(text: str) -> List[str]:
    """Lines as ``diff``, ``patch`` and nbformat's line lists see them: each up to and with a ``\n``."""
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


class SourceIndex:
    """Converts (line, byte column) pairs from ``ast`` into offsets into the str source."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._starts: List[int] = line_starts(source)
        self._ascii = source.isascii()

    def offset(self, line: int, byte_col: int) -> int:
        start = self._starts[line - 1]
        if self._ascii:
            return start + byte_col
        end = self._starts[line] if line < len(self._starts) else len(self.source)
        text = self.source[start:end].encode("utf-8")[:byte_col]
        return start + len(text.decode("utf-8", errors="ignore"))

    def char_col(self, line: int, byte_col: int) -> int:
        return self.offset(line, byte_col) - self._starts[line - 1]

    def line_col(self, offset: int):
        """1-based line and 0-based character column of an offset."""
        line = bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1]

    def start(self, node: ast.AST) -> int:
        return self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]

    def end(self, node: ast.AST) -> int:
        return self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]

    def text(self, node: ast.AST) -> str:
        return self.source[self.start(node):self.end(node)]

    def line_text(self, node: ast.AST) -> str:
        """The whole lines a node spans (from its first line's start to its last line's end)."""
        last = node.end_lineno  # type: ignore[attr-defined]
        end = self._starts[last] if last < len(self._starts) else len(self.source)
        return self.source[self._starts[node.lineno - 1]:end]  # type: ignore[attr-defined]
