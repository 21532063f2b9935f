"""Source text helpers: Python's own line breaks, ``ast`` positions as character offsets,
and room on the stack for deeply nested code.

Python ends a line at ``\\r\\n``, ``\\r`` or ``\\n`` (and ``ast`` numbers lines that
way); ``str.splitlines`` also splits at ``\\f``, ``\\v``, ``\\x1c``... which are not
line breaks to Python, so nothing here uses it.

Python compiles a sum of a few thousand terms (an ``ast`` thousands of levels deep),
but recursive walks over such a tree (ours, LibCST's) overflow the default recursion
limit.  :func:`deep_call` runs such a walk in a thread of its own with a stack and a
recursion limit sized for the tree's depth (:func:`nesting_depth`), up to a bound.
"""
from __future__ import annotations

import ast
import re
import sys
import threading
from bisect import bisect_right
from collections import OrderedDict
from contextlib import contextmanager
from itertools import accumulate, count
from operator import add
from typing import Any, Callable, ContextManager, Iterator, List, Optional, TypeVar

T = TypeVar("T")

LINE_BREAK = re.compile(r"\r\n?|\n")
# A regex matching at the start of every line: compile it with re.MULTILINE.
LINE_START = r"(?:^|(?<=\r))"


def word_offsets(text: str, word: str) -> Iterator[int]:
    """Offsets where ``word`` stands as a whole identifier (not inside a longer name):
    ``str.find`` (C speed) and a look at the two neighbours."""
    n = len(word)
    i = text.find(word)
    while i >= 0:
        before = text[i - 1] if i else " "
        after = text[i + n:i + n + 1]
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            yield i
        i = text.find(word, i + n)


def line_starts(source: str) -> List[int]:
    """Offset of the first character of each line, as Python counts lines."""
    if "\r" in source:
        return [0] + [m.end() for m in LINE_BREAK.finditer(source)]
    lines = source.split("\n")
    lines.pop()  # what follows the last break starts no further line
    # (the sums of the lengths, plus one break per line: in C, no call per line)
    return [0, *map(add, accumulate(map(len, lines)), count(1))]


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
        self._lines: Optional[List[int]] = None  # line_starts(source), when first needed
        self._ascii = source.isascii()

    @property
    def _starts(self) -> List[int]:
        """The offsets of the lines, found when first asked (many files index nothing)."""
        if self._lines is None:
            self._lines = line_starts(self.source)
        return self._lines

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


# ---------------------------------------------------------------- deeply nested code
#: Python frames a recursive walk may spend per level of the tree (ours about 4, LibCST's 8)
FRAMES_PER_LEVEL = 12
#: C stack for a deep walk: a base plus this per level (LibCST's native parser needs about
#: 1 KiB a level; Python < 3.11 spends C stack on every Python call)
_STACK_BASE = 16 * 1024 * 1024
_STACK_PER_LEVEL = 32 * 1024
_STACK_MAX = 512 * 1024 * 1024

_depths: "OrderedDict[str, int]" = OrderedDict()
_depths_lock = threading.Lock()
_limit_lock = threading.Lock()
_limit_users = 0
_limit_saved = 0
_limit_set = 0


def nesting_depth(tree: ast.AST) -> int:
    """The number of nodes on the longest root-to-leaf path of ``tree`` (no recursion),
    a ``BoolOp`` of n values counting as the n - 1 nested operations LibCST makes of it."""
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > deepest:
            deepest = depth
        step = len(node.values) if isinstance(node, ast.BoolOp) else 1
        stack.extend((child, depth + step) for child in ast.iter_child_nodes(node))
    return deepest


def source_depth(source: str, tree: Optional[ast.AST] = None) -> int:
    """:func:`nesting_depth` of ``source``'s tree (``tree``, or parsed here: ``SyntaxError``
    and ``RecursionError`` reach the caller); the few most recent ones are kept."""
    with _depths_lock:
        depth = _depths.get(source)
    if depth is None:
        depth = nesting_depth(tree if tree is not None else parse_python(source))
    with _depths_lock:
        _depths[source] = depth
        _depths.move_to_end(source)
        while len(_depths) > 4:
            _depths.popitem(last=False)
    return depth


@contextmanager
def recursion_limit(limit: int) -> Iterator[None]:
    """A recursion limit of at least ``limit`` while inside (the limit is one for the whole
    interpreter: several threads may be inside at once; the last one out puts back the
    limit found by the first one in, unless someone else changed it meanwhile)."""
    global _limit_users, _limit_saved, _limit_set
    with _limit_lock:
        if _limit_users == 0:
            _limit_saved = _limit_set = sys.getrecursionlimit()
        _limit_users += 1
        if limit > sys.getrecursionlimit():
            sys.setrecursionlimit(limit)
            _limit_set = limit
    try:
        yield
    finally:
        with _limit_lock:
            _limit_users -= 1
            if _limit_users == 0 and sys.getrecursionlimit() == _limit_set:
                sys.setrecursionlimit(_limit_saved)


def recursion_limit_kept() -> "ContextManager[None]":
    """While inside, a recursion limit another thread raised is not put back.  A walk
    in this thread may go as deep as that raised limit lets it; Python 3.11 aborts the
    whole process ("Cannot recover from stack overflow") when such a thread, far above
    a limit lowered under it, calls once more."""
    return recursion_limit(0)


def deep_call(levels: int, fn: Callable[..., T], *args: Any, raise_limit: bool = True) -> T:
    """``fn(*args)`` with room for a recursive walk of a tree ``levels`` deep: in a new
    thread whose stack is sized for it, under a recursion limit raised for it (with
    ``raise_limit=False``, the limit as it is: the thread starts with an empty stack, as
    ``python file.py`` does).  Exceptions (a ``RecursionError`` still) reach the caller.
    Raises ``RecursionError`` when no such thread can be started."""
    outcome: List[Any] = []

    def run() -> None:
        try:
            with recursion_limit(1000 + FRAMES_PER_LEVEL * levels if raise_limit else 0):
                outcome.append((True, fn(*args)))
        except BaseException as exc:  # handed to the caller
            outcome.append((False, exc))

    stack = min(_STACK_MAX, _STACK_BASE + _STACK_PER_LEVEL * levels)
    with _limit_lock:  # the stack size is one setting for every thread started from now on
        try:
            old = threading.stack_size(stack)
        except (ValueError, RuntimeError):
            old = None
        try:
            thread = threading.Thread(target=run, name="torchcopy-deep", daemon=True)
            thread.start()
        except RuntimeError:
            thread = None
        finally:
            if old is not None:
                threading.stack_size(old)
    if thread is None:
        raise RecursionError("no thread with a large enough stack could be started")
    thread.join()
    ok, value = outcome[0]
    if not ok:
        raise value
    return value


def parse_python(source: str, filename: str = "<unknown>") -> ast.AST:
    """``ast.parse(source)``, as deep as Python parses a file it runs: where the caller's
    own frames leave too little of the recursion limit, again in a fresh thread."""
    try:
        return ast.parse(source, filename=filename)
    except RecursionError:
        return deep_call(3 * sys.getrecursionlimit(), ast.parse, source, filename, raise_limit=False)


def compile_python(source: str, filename: str = "<unknown>") -> None:
    """``compile(source)`` (for its errors), as deep as Python compiles a file it runs."""
    try:
        compile(source, filename, "exec", dont_inherit=True)
    except RecursionError:
        deep_call(3 * sys.getrecursionlimit(), compile, source, filename, "exec", 0, True,
                  raise_limit=False)
