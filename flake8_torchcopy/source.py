"""Source text helpers: map ``ast`` positions (UTF-8 byte columns) to character offsets."""
from __future__ import annotations

import ast
from bisect import bisect_right
from typing import List


class SourceIndex:
    """Converts (line, byte column) pairs from ``ast`` into offsets into the str source."""

    def __init__(self, source: str) -> None:
        self.source = source
        starts = [0]
        i = source.find("\n")
        while i != -1:
            starts.append(i + 1)
            i = source.find("\n", i + 1)
        self._starts: List[int] = starts
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
