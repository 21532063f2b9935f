"""What processing one file gives back to the main process: small records with named fields."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional


def location(path: str, cell: Optional[int], row: int, col: int) -> str:
    """``path:row:col`` (``col`` 0-based in, 1-based out), with ``cell N:`` in notebooks."""
    cellpart = f"cell {cell}:" if cell is not None else ""
    return f"{path}:{cellpart}{row}:{col + 1}"


@dataclass(frozen=True)
class Verification:
    """What ``--verify`` found out about one fix."""

    status: str  # "equivalent", "improved", "mismatch" or "unverified"
    property: Optional[str] = None  # mismatch: the first property that differs
    case: Optional[str] = None  # mismatch: the case it differs in
    reason: Optional[str] = None  # unverified: why

    def accepted(self, require_verified: bool) -> bool:
        """May the fix be applied?"""
        if self.status == "unverified":
            return not require_verified
        return self.status in ("equivalent", "improved")


@dataclass(frozen=True)
class EditRecord:
    """One edit of a fix, positions resolved (``col`` 0-based)."""

    content: str
    row: int
    col: int
    end_row: int
    end_col: int


@dataclass(frozen=True)
class FixRecord:
    applicability: str  # "safe" or "unsafe"
    message: str
    edits: List[EditRecord]

    @property
    def safe(self) -> bool:
        return self.applicability == "safe"


@dataclass(frozen=True)
class FileSpan:
    """A range in the file itself (``col`` 0-based): in a notebook, in its JSON text."""

    row: int
    col: int
    end_row: int
    end_col: int


@dataclass
class Record:
    """One finding left, with positions resolved for output (``col`` 0-based)."""

    code: str
    message: str
    row: int
    col: int
    end_row: int
    end_col: int
    cell: Optional[int]
    url: str
    fix: Optional[FixRecord] = None
    verification: Optional[Verification] = None  # --verify: the verdict on its fix
    in_notebook_file: Optional[FileSpan] = None  # notebooks: the range in the .ipynb text

    def file_span(self) -> FileSpan:
        """The range in the file itself, for formats that know no cells (github, sarif)."""
        if self.in_notebook_file is not None:
            return self.in_notebook_file
        return FileSpan(self.row, self.col, self.end_row, self.end_col)

    def fixable(self, require_verified: bool) -> bool:
        """Has a fix that ``--verify`` (if it ran) did not reject."""
        v = self.verification
        return self.fix is not None and (v is None or v.accepted(require_verified))

    def safely_fixable(self, require_verified: bool) -> bool:
        """Fixable, and the fix is safe (applied without ``--unsafe-fixes``)."""
        return self.fixable(require_verified) and self.fix is not None and self.fix.safe


@dataclass(frozen=True)
class AppliedFix:
    """A fix that was applied (``--show-fixes``); position in the original file."""

    code: str
    message: str
    row: int
    col: int
    cell: Optional[int]
    fix_message: str


@dataclass(frozen=True)
class UnverifiedFix:
    """A fix applied although ``--verify`` could not verify it."""

    code: str
    row: int
    col: int
    cell: Optional[int]
    reason: str


@dataclass
class FileResult:
    """What processing one file gives back to the main process (kept small)."""

    path: str
    changed: bool = False
    fixed: int = 0
    applied: List[AppliedFix] = field(default_factory=list)
    records: List[Record] = field(default_factory=list)
    diff: Optional[str] = None
    error: Optional[str] = None
    warnings: List[str] = field(default_factory=list)
    output: Optional[bytes] = None  # stdin mode: the bytes to write to stdout
    unverified_applied: List[UnverifiedFix] = field(default_factory=list)
    added_noqa: int = 0  # --add-noqa: the lines that got a noqa comment
