"""One input file as ``torchcopy-fix`` sees it: a plain Python file or a Jupyter notebook.

Both forms give the same things: the Python text to lint (``text``) and its tree,
where a line of that text lies in the file (``cell_row``: a notebook adds the cell;
``file_position``: the line and column in the file itself), the whole document for
a fixed text (``render``), its bytes (``encode``) and the source it is (``fixed``).
:func:`read_source` detects the encoding (and a BOM) once and refuses, with
:class:`~.files.BadInput`, what must not be touched.
"""
from __future__ import annotations

import ast
import sys
import warnings
from typing import List, Optional, Tuple

from ..source import SourceIndex, parse_python
from . import files
from .files import BadInput
from .notebook import Notebook, NotebookError, cell_position
from .results import FileSpan

UTF8_BOM = b"\xef\xbb\xbf"
#: the Python that parses the files (newer syntax, such as 3.12's ``type X = ...``, fails here)
PYTHON = f"Python {sys.version_info[0]}.{sys.version_info[1]}"


def parse(text: str, name: str) -> ast.AST:
    """Parse like Python does; BadInput with a one-line reason when it cannot."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return parse_python(text, name)
    except SyntaxError as exc:  # includes IndentationError and TabError
        where = f" (line {exc.lineno})" if exc.lineno else ""
        raise BadInput(f"cannot parse with {PYTHON}: {type(exc).__name__}: {exc.msg}{where}") from None
    except (ValueError, TypeError) as exc:
        raise BadInput(f"cannot parse with {PYTHON}: {exc}") from None
    except (RecursionError, MemoryError):
        raise BadInput("cannot parse: too deeply nested for the Python parser") from None


class Positions:
    """Maps lines and character offsets of one version of a source's text to
    (cell, row, col) in the file, for output."""

    def __init__(self, text: str, source: "SourceFile") -> None:
        self.index = SourceIndex(text)
        self.source = source

    def row(self, line: int) -> Tuple[Optional[int], int]:
        """(cell or None, row in the file or cell) of a line of the text."""
        return self.source.cell_row(line)

    def point(self, offset: int) -> Tuple[int, int]:
        """(row, 0-based column) of a character offset of the text."""
        line, col = self.index.line_col(offset)
        return self.row(line)[1], col

    def file_span(self, line: int, col: int, end_line: int, end_col: int) -> Optional[FileSpan]:
        """Where a range of the text lies in a notebook file itself (None in a plain file)."""
        (cell, row), (end_cell, end_row) = self.row(line), self.row(end_line)
        if cell is None or end_cell is None:
            return None
        return FileSpan(*self.source.file_position(cell, row, col),
                        *self.source.file_position(end_cell, end_row, end_col))


class SourceFile:
    """A plain Python file: the text is the document."""

    def __init__(self, path: str, text: str, encoding: str) -> None:
        self.path = path
        self.text = text  # what is linted and fixed
        self.document = text  # the whole file, decoded
        self.encoding = encoding  # as tokenize names it ("utf-8-sig" with a BOM)
        self.tree: Optional[ast.AST] = None  # set by read_source
        self.warnings: List[str] = []

    def cell_row(self, line: int) -> Tuple[Optional[int], int]:
        return None, line

    def file_position(self, cell: int, row: int, col: int) -> Tuple[int, int]:
        """(line, 0-based column) in the file of ``row``/``col`` of ``cell``."""
        return row, col

    def positions(self, text: str) -> Positions:
        """Positions in ``text``, this file's text or a fixed version of it."""
        return Positions(text, self)

    def render(self, text: str) -> str:
        """The whole document with ``text`` in place of this file's text."""
        return text

    def fixed(self, document: str) -> "SourceFile":
        """The source whose document is ``document`` (rendered from a fixed text)."""
        return SourceFile(self.path, document, self.encoding)

    def encode(self, document: str) -> bytes:
        try:
            return files.encode_source(document, self.encoding)
        except UnicodeEncodeError:
            raise BadInput(f"internal error: fixed code cannot be encoded as {self.encoding} "
                           "(please report)") from None


class NotebookSource(SourceFile):
    """A notebook: the text is its Python code cells joined (see :mod:`.notebook`)."""

    def __init__(self, path: str, notebook: Notebook, encoding: str) -> None:
        text, self.line_map, self.used_cells = notebook.joined()
        super().__init__(path, text, encoding)
        self.notebook = notebook
        self.document = notebook.raw
        self.warnings = list(notebook.warnings)

    def cell_row(self, line: int) -> Tuple[Optional[int], int]:
        return cell_position(self.line_map, line)

    def file_position(self, cell: int, row: int, col: int) -> Tuple[int, int]:
        code_cell = self.notebook.cell(cell)
        char = SourceIndex(code_cell.text).offset(row, 0) + col  # lines as the joined text has them
        return self.notebook.file_position(code_cell, char)

    def fixed(self, document: str) -> "NotebookSource":
        try:
            return NotebookSource(self.path, Notebook(document), self.encoding)
        except NotebookError as exc:
            raise BadInput(f"internal error: {exc} (please report)") from None

    def render(self, text: str) -> str:
        try:
            return self.notebook.rewrite(text, self.used_cells)
        except NotebookError as exc:
            raise BadInput(f"internal error: {exc} (please report)") from None


def _read_notebook(data: bytes, path: str) -> Optional[NotebookSource]:
    if b"\0" in data:
        raise BadInput("cannot check: binary content (a NUL byte), not a Python source")
    encoding = "utf-8-sig" if data.startswith(UTF8_BOM) else "utf-8"
    try:
        raw = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise BadInput(f"cannot decode as utf-8 at byte {exc.start}: {exc.reason}") from None
    try:
        notebook = Notebook(raw)
    except NotebookError as exc:
        raise BadInput(str(exc)) from None
    return NotebookSource(path, notebook, encoding) if notebook.python else None


def _read_plain(data: bytes, path: str, explicit: bool) -> Optional[SourceFile]:
    if not explicit and files.is_generated(data):
        return None
    decoded = files.decode_source(data)
    return SourceFile(path, decoded.text, decoded.encoding)


def read_source(data: bytes, path: str, explicit: bool) -> Optional[SourceFile]:
    """The file's source, parsed, or None for a file to leave alone (a generated file
    found in a directory walk, a notebook in another language)."""
    src = _read_notebook(data, path) if path.endswith(".ipynb") else _read_plain(data, path, explicit)
    if src is not None and src.text:
        src.tree = parse(src.text, path)
    return src
