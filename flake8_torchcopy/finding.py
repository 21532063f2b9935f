"""What a rule reports: a finding, with an optional fix made of exact text edits.

Positions follow flake8: ``line`` is 1-based, ``col`` is 0-based and counts
characters (not bytes).  A fix is a tuple of :class:`Edit` objects, each
replacing the characters ``source[start:end]`` of the file with ``content``;
everything outside those ranges is kept byte for byte.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Tuple

SAFE = "safe"
UNSAFE = "unsafe"

DOCS_URL = "https://github.com/flake8-torchcopy/flake8-torchcopy/blob/main/docs/rules/{code}.md"


@dataclass(frozen=True)
class Edit:
    """Replace ``source[start:end]`` (character offsets) with ``content``."""

    start: int
    end: int
    content: str


@dataclass(frozen=True)
class Fix:
    """A set of edits that must be applied together."""

    edits: Tuple[Edit, ...]
    applicability: str  # SAFE or UNSAFE
    message: str

    @property
    def safe(self) -> bool:
        return self.applicability == SAFE


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    line: int
    col: int
    end_line: int
    end_col: int
    fix: Optional[Fix] = field(default=None, compare=False)
    # 1-based line range of the whole statement holding the finding (for noqa).
    stmt_lines: Tuple[int, int] = field(default=(0, 0), compare=False)

    @property
    def url(self) -> str:
        return DOCS_URL.format(code=self.code)

    def text(self) -> str:
        return f"{self.code} {self.message}"
