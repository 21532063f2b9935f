"""Jupyter notebooks for ``torchcopy-fix``: lint and fix code cells, keep every other byte.

The code cells are joined into one Python source (so names defined in one cell
are known in the next), separated by a marker comment line.  IPython syntax is
neutralised for parsing: a cell starting with a ``%%`` cell magic is left out,
and lines starting with ``%`` or ``!`` become comments (and come back as they
were).  A cell that still does not parse is left out with a warning.

Writing back does not re-dump the JSON: a small JSON scanner records where each
cell's ``source`` value lies in the raw text, and only the ``source`` values of
the cells that changed are replaced (unchanged lines keep their exact escapes).

Positions are reported as ruff does: the cell number (1-based, counting every
cell of the notebook, markdown ones included) and the line and column inside
that cell.
"""
from __future__ import annotations

import difflib
import json
import re
import warnings
from typing import Any, Dict, List, Optional, Tuple

from ..source import LINE_START, line_starts, parse_python, split_after_lf

CELL_MARK = "# <torchcopy: notebook cell boundary>\n"
MAGIC_MARK = "#<torchcopy-magic>"
_MAGIC_LINE = re.compile(LINE_START + r"([ \t]*)([%!])", re.M)
_UNMAGIC = re.compile(LINE_START + r"([ \t]*)" + re.escape(MAGIC_MARK), re.M)


class NotebookError(Exception):
    """Not a notebook we can handle (invalid JSON, nbformat < 4, a cell that nbformat
    would reject: not an object, or a code cell whose source is missing or not text)."""


# ---------------------------------------------------------------- JSON spans
_WS = re.compile(r"[ \t\n\r]*")
_STR = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null")


def _skip_ws(text: str, pos: int) -> int:
    """The offset of the first character at or after ``pos`` that is not JSON whitespace."""
    m = _WS.match(text, pos)
    return m.end() if m else pos


class Node:
    """A JSON value and where it lies in the text: ``text[start:end]``."""

    __slots__ = ("kind", "start", "end", "items")

    def __init__(self, kind: str, start: int, end: int, items: Any = None) -> None:
        self.kind = kind  # "object", "array", "string", "scalar"
        self.start = start
        self.end = end
        self.items = items  # object: {key: Node}; array: [Node]


def _parse(text: str, pos: int) -> Node:
    pos = _skip_ws(text, pos)
    if pos >= len(text):
        raise NotebookError("unexpected end of JSON")
    ch = text[pos]
    if ch == "{":
        start = pos
        items: Dict[str, Node] = {}
        pos = _skip_ws(text, pos + 1)
        if text.startswith("}", pos):
            return Node("object", start, pos + 1, items)
        while True:
            pos = _skip_ws(text, pos)
            m = _STR.match(text, pos)
            if not m:
                raise NotebookError(f"expected a key at offset {pos}")
            key = json.loads(m.group())
            pos = _skip_ws(text, m.end())
            if not text.startswith(":", pos):
                raise NotebookError(f"expected ':' at offset {pos}")
            value = _parse(text, pos + 1)
            items[key] = value
            pos = _skip_ws(text, value.end)
            if text.startswith(",", pos):
                pos += 1
                continue
            if text.startswith("}", pos):
                return Node("object", start, pos + 1, items)
            raise NotebookError(f"expected ',' or '}}' at offset {pos}")
    if ch == "[":
        start = pos
        elems: List[Node] = []
        pos = _skip_ws(text, pos + 1)
        if text.startswith("]", pos):
            return Node("array", start, pos + 1, elems)
        while True:
            value = _parse(text, pos)
            elems.append(value)
            pos = _skip_ws(text, value.end)
            if text.startswith(",", pos):
                pos += 1
                continue
            if text.startswith("]", pos):
                return Node("array", start, pos + 1, elems)
            raise NotebookError(f"expected ',' or ']' at offset {pos}")
    if ch == '"':
        m = _STR.match(text, pos)
        if not m:
            raise NotebookError(f"unterminated string at offset {pos}")
        return Node("string", pos, m.end())
    m = _SCALAR.match(text, pos)
    if not m:
        raise NotebookError(f"unexpected character {ch!r} at offset {pos}")
    return Node("scalar", pos, m.end())


# ---------------------------------------------------------------- notebook
class Cell:
    __slots__ = ("number", "node", "text", "added_newline")

    def __init__(self, number: int, node: Node, text: str) -> None:
        self.number = number  # 1-based, counting all cells
        self.node = node  # the "source" value
        self.text = text
        self.added_newline = False


class Notebook:
    """A parsed notebook: its raw text and its code cells."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        try:
            json.loads(raw)  # strict validation; the scanner below only records spans
            root = _parse(raw, 0)
        except (ValueError, RecursionError) as exc:
            raise NotebookError(f"invalid notebook JSON: {exc}") from None
        if _skip_ws(raw, root.end) != len(raw) or root.kind != "object":
            raise NotebookError("invalid notebook JSON: not one JSON object")
        self.ensure_ascii = raw.isascii()
        cells = root.items.get("cells")
        if cells is None or cells.kind != "array":
            raise NotebookError("not an nbformat 4 notebook (no 'cells' list)")
        self.python = self._is_python(json.loads(raw[root.items["metadata"].start:root.items["metadata"].end])
                                      if "metadata" in root.items else {})
        self.cells: List[Cell] = []
        self.warnings: List[str] = []
        for number, cell in enumerate(cells.items, 1):
            if cell.kind != "object":
                raise NotebookError(f"not a valid notebook: cell {number} is not a JSON object")
            ctype = cell.items.get("cell_type")
            if ctype is None or json.loads(raw[ctype.start:ctype.end]) != "code":
                continue
            src = cell.items.get("source")
            if src is None:
                raise NotebookError(f"not a valid notebook: code cell {number} has no source")
            value = json.loads(raw[src.start:src.end])
            if isinstance(value, list) and all(isinstance(line, str) for line in value):
                text = "".join(value)
            elif isinstance(value, str):
                text = value
            else:  # nbformat: a string or a list of strings
                raise NotebookError(f"not a valid notebook: cell {number} source is not text")
            self.cells.append(Cell(number, src, text))

    @staticmethod
    def _is_python(meta: Any) -> bool:
        if not isinstance(meta, dict):
            return True
        for key in ("language_info", "kernelspec"):
            info = meta.get(key)
            if isinstance(info, dict):
                lang = info.get("name" if key == "language_info" else "language")
                if isinstance(lang, str) and lang:
                    return lang.lower() == "python"
        return True

    # -- the joined source ------------------------------------------------
    def joined(self) -> Tuple[str, List[Tuple[int, int]], List[Cell]]:
        """(source, line map, cells used): line ``n`` of the source (1-based) is
        line ``line_map[n-1][1]`` of cell number ``line_map[n-1][0]``."""
        parts: List[str] = []
        line_map: List[Tuple[int, int]] = []
        used: List[Cell] = []
        for cell in self.cells:
            text = cell.text
            if not text.strip() or text.lstrip().startswith("%%"):
                continue
            neutral = _MAGIC_LINE.sub(lambda m: m.group(1) + MAGIC_MARK + m.group(2), text)
            if not neutral.endswith("\n"):
                neutral += "\n"
                cell.added_newline = True
            else:
                cell.added_newline = False
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    parse_python(neutral)
            except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
                reason = getattr(exc, "msg", None) or str(exc) or type(exc).__name__
                self.warnings.append(f"cell {cell.number}: skipped, not plain Python ({reason})")
                continue
            used.append(cell)
            parts.append(neutral)
            lines = len(line_starts(neutral)) - 1  # it ends with a line break
            line_map.extend((cell.number, i) for i in range(1, lines + 1))
            parts.append(CELL_MARK)
            line_map.append((cell.number, lines + 1))
        return "".join(parts), line_map, used

    def rewrite(self, new_joined: str, used: List[Cell]) -> str:
        """The notebook text with the cells' sources replaced by the fixed ones."""
        pieces = new_joined.split(CELL_MARK)
        if len(pieces) != len(used) + 1 or pieces[-1]:
            raise NotebookError("a fix crossed a cell boundary")
        replacements = []
        for cell, new in zip(used, pieces):
            new = _UNMAGIC.sub(lambda m: m.group(1), new)
            if cell.added_newline and new.endswith("\n"):
                new = new[:-1]
            if new == cell.text:
                continue
            replacements.append((cell.node, self._source_json(cell.node, new)))
        out = []
        pos = 0
        for node, text in sorted(replacements, key=lambda r: r[0].start):
            out.append(self.raw[pos:node.start])
            out.append(text)
            pos = node.end
        out.append(self.raw[pos:])
        return "".join(out)

    def _dump(self, s: str) -> str:
        return json.dumps(s, ensure_ascii=self.ensure_ascii)

    def _source_json(self, node: Node, new: str) -> str:
        raw = self.raw
        if node.kind == "string":
            return self._dump(new)
        elems = node.items
        old_tokens = [raw[e.start:e.end] for e in elems]
        old_lines = [json.loads(t) for t in old_tokens]
        new_lines = split_after_lf(new)
        if not new_lines:
            return "[]"
        tokens: List[str] = []
        matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                tokens.extend(old_tokens[i1:i2])
            else:
                tokens.extend(self._dump(line) for line in new_lines[j1:j2])
        if len(elems) >= 2:
            sep = raw[elems[0].end:elems[1].start]
        elif elems:
            indent = raw[node.start + 1:elems[0].start]
            sep = "," + (indent if indent.strip() == "" and indent else " ")
        else:
            sep = ", "
        if elems:
            head = raw[node.start + 1:elems[0].start]
            tail = raw[elems[-1].end:node.end - 1]
        else:
            head = tail = ""
        return "[" + head + sep.join(tokens) + tail + "]"

    def cell(self, number: int) -> Cell:
        """The code cell numbered ``number`` (1-based, counting every cell)."""
        return next(c for c in self.cells if c.number == number)

    def file_position(self, cell: Cell, char: int) -> Tuple[int, int]:
        """(line, 0-based column) in the notebook file itself of the character ``char`` of
        a code cell's text: where it lies in the JSON text of the cell's ``source`` (the
        column counts the characters before it as ``json.dumps`` escapes them)."""
        elems = cell.node.items if cell.node.kind == "array" else [cell.node]
        offset = cell.node.start  # an empty source list
        for i, elem in enumerate(elems):
            text = json.loads(self.raw[elem.start:elem.end])
            if char < len(text) or i == len(elems) - 1:
                offset = elem.start + len(self._dump(text[:char])) - 1
                break
            char -= len(text)
        line_start = self.raw.rfind("\n", 0, offset) + 1
        return self.raw.count("\n", 0, offset) + 1, offset - line_start


def cell_position(line_map: List[Tuple[int, int]], line: int) -> Tuple[Optional[int], int]:
    """(cell number, line in cell) of a line of the joined source."""
    if 1 <= line <= len(line_map):
        return line_map[line - 1]
    return None, line
