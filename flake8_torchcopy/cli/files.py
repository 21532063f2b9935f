"""File handling for ``torchcopy-fix``: faithful decoding, careful writes.

Reading keeps everything needed to write a file back byte for byte outside the
fixed spans: the PEP 263 encoding (cookie or BOM), and the line endings (the
bytes are decoded without newline translation).  Writing goes through a
temporary file in the same directory and ``os.replace``, keeping the mode (in place
when the directory is read-only); a read-only file is not rewritten.
"""
from __future__ import annotations

import codecs
import errno
import io
import os
import re
import stat
import tempfile
import tokenize
from dataclasses import dataclass

from ..source import LINE_BREAK

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
        raise BadInput("cannot check: binary content (a NUL byte), not a Python source")
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


class ReadOnly(OSError):
    """The file has no write permission: it is not rewritten."""


def _write_in_place(target: str, data: bytes, original: bytes) -> None:
    """Overwrite ``target`` (its directory does not let us create a file); put the
    ``original`` bytes back if the write fails half way."""
    with open(target, "r+b") as fh:
        try:
            fh.write(data)
            fh.truncate()
            fh.flush()
            os.fsync(fh.fileno())
        except OSError:
            fh.seek(0)
            fh.write(original)
            fh.truncate()
            fh.flush()
            raise


def write_file(path: str, data: bytes, original: bytes) -> None:
    """Replace the contents of the file ``path`` (through symlinks), ``original`` before.

    A file without write permission is refused (:class:`ReadOnly`), even for root, as
    an editor would; otherwise a temporary file in the same directory, with the file's
    mode, takes its place (``os.replace``), or, in a directory we may not write to, the
    file is overwritten in place.
    """
    target = os.path.realpath(path)
    mode = stat.S_IMODE(os.stat(target).st_mode)
    if not mode & stat.S_IWUSR or not os.access(target, os.W_OK):
        raise ReadOnly(errno.EACCES, "read-only file, not rewritten")
    directory = os.path.dirname(target) or "."
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(target) + ".", suffix=".tmp")
    except PermissionError:  # a read-only directory holding a writable file
        _write_in_place(target, data, original)
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


_LINE_BREAK_BYTES = re.compile(LINE_BREAK.pattern.encode())  # Python's line breaks, in bytes


def is_generated(data: bytes, lines: int = 5) -> bool:
    """True when one of the first lines says ``@generated``."""
    head = _LINE_BREAK_BYTES.split(data[:4096], lines)[:lines]
    return any(GENERATED_MARK in line for line in head)
