"""File handling for ``torchcopy-fix``: discovery, faithful decoding, atomic writes.

Reading keeps everything needed to write a file back byte for byte outside the
fixed spans: the PEP 263 encoding (cookie or BOM), and the line endings (the
bytes are decoded without newline translation).  Writing goes through a
temporary file in the same directory and ``os.replace``, keeping the mode.
"""
from __future__ import annotations

import codecs
import io
import os
import re
import stat
import tempfile
import tokenize
from dataclasses import dataclass
from typing import Iterator, List, Sequence, Tuple

SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb")
SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", "__pycache__", "build", "dist", "node_modules", ".tox", ".nox", ".venv",
     ".mypy_cache", ".pytest_cache", ".ruff_cache"}
)
GENERATED_MARK = b"@generated"


class BadInput(Exception):
    """A file that must not be touched: the message says why (``PATH: reason``)."""


@dataclass
class Decoded:
    text: str
    encoding: str  # as tokenize.detect_encoding names it ("utf-8-sig" when there is a BOM)


def decode_source(data: bytes) -> Decoded:
    """Decode Python source bytes per PEP 263, keeping line endings as they are."""
    if b"\0" in data:
        raise BadInput("binary content (NUL byte), skipped")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise BadInput(f"cannot decode: {exc}") from None
    try:
        codecs.lookup(encoding)
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        reason = exc.reason if isinstance(exc, UnicodeDecodeError) else str(exc)
        where = f" at byte {exc.start}" if isinstance(exc, UnicodeDecodeError) else ""
        raise BadInput(f"cannot decode as {encoding}{where}: {reason}") from None
    return Decoded(text, encoding)


def encode_source(text: str, encoding: str) -> bytes:
    """The inverse of :func:`decode_source` (a BOM comes back with utf-8-sig)."""
    return text.encode(encoding)


def newline_of(text: str) -> str:
    """The dominant line ending of ``text``."""
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    return "\r\n" if crlf > lf else "\n"


_BARE_LF = re.compile(r"(?<!\r)\n")


def keep_newlines(original: str, new: str) -> str:
    """Make line breaks that the fixes introduced match a CRLF file's."""
    if "\r\n" in original and newline_of(original) == "\r\n" and not _BARE_LF.search(original):
        return _BARE_LF.sub("\r\n", new)
    return new


def read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except IsADirectoryError:
        raise BadInput("is a directory") from None
    except OSError as exc:
        raise BadInput(f"cannot read: {exc.strerror or exc}") from None


def write_atomic(path: str, data: bytes) -> None:
    """Replace the file ``path`` (through symlinks) with ``data``, keeping its mode."""
    target = os.path.realpath(path)
    directory = os.path.dirname(target) or "."
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = None
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(target) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def is_generated(data: bytes, lines: int = 5) -> bool:
    """True when one of the first lines says ``@generated``."""
    head = data[:4096].split(b"\n", lines)[:lines]
    return any(GENERATED_MARK in line for line in head)


def _is_venv(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "pyvenv.cfg"))


def walk(root: str, exclude=None) -> Iterator[str]:
    """Source files under the directory ``root``, in sorted order.

    ``exclude(path) -> bool`` prunes files and directories.
    """
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        path = os.path.join(root, entry.name) if root != "." else entry.name
        try:
            if entry.is_symlink():
                continue  # symlinked directories (and files) are not followed
            if entry.is_dir(follow_symlinks=False):
                if entry.name in SKIP_DIRS or _is_venv(path):
                    continue
                if exclude is not None and exclude(path):
                    continue
                yield from walk(path, exclude)
            elif entry.is_file(follow_symlinks=False) and entry.name.endswith(SOURCE_SUFFIXES):
                if exclude is not None and exclude(path):
                    continue
                yield path
        except OSError:
            continue


def collect(paths: Sequence[str], exclude=None) -> Tuple[List[Tuple[str, bool]], List[Tuple[str, str]]]:
    """(files as (path, explicitly named), errors as (path, reason)) for the given paths."""
    files: List[Tuple[str, bool]] = []
    errors: List[Tuple[str, str]] = []
    seen = set()
    for p in paths:
        if os.path.isdir(p):  # a directory named explicitly is walked even through a symlink
            found = list(walk(p, exclude))
            for f in found:
                key = os.path.normcase(os.path.abspath(f))
                if key not in seen:
                    seen.add(key)
                    files.append((f, False))
        elif os.path.lexists(p):
            key = os.path.normcase(os.path.abspath(p))
            if key not in seen:
                seen.add(key)
                files.append((p, True))
        else:
            errors.append((p, "No such file or directory"))
    return files, errors
