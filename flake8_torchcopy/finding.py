"""What a rule reports: a finding, with an optional fix made of edits.

Positions follow flake8: ``line`` is 1-based, ``col`` is 0-based and counts
characters (not bytes).  A fix is a tuple of :class:`Edit` objects, each
replacing the expression at ``source[start:end]``; ``content`` is the new text
as reports show it.  The engine applies edits as LibCST transformations
(:mod:`flake8_torchcopy.libcst_edits`): a :class:`Replacement` content is a template
whose holes are the original syntax nodes (comments inside them are kept), a
``swap`` edit exchanges two chained method calls node by node; everything
outside the edited ranges is kept byte for byte.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional, Tuple

SAFE = "safe"
UNSAFE = "unsafe"

DOCS_URL = "https://github.com/flake8-torchcopy/flake8-torchcopy/blob/main/docs/rules/{code}.md"


class FixRefused(ValueError):
    """A fix that could not be applied exactly (the file is left as it is); the message
    says why."""


@dataclass(frozen=True)
class Hole:
    """A template hole bound to the original expression at ``source[start:end]``;
    ``parenthesize`` wraps it in parentheses (it binds looser than ``.attr``)."""

    start: int
    end: int
    parenthesize: bool = False


class Replacement(str):
    """The text of a replacement expression, carrying the LibCST template that builds
    it: ``template`` names its holes ``{h0}``, ``{h1}``… in the order of ``holes``."""

    template: str
    holes: Tuple[Hole, ...]

    def __new__(cls, text: str, template: str, holes: Tuple[Hole, ...]) -> "Replacement":
        self = super().__new__(cls, text)
        self.template = template
        self.holes = holes
        return self

    def __getnewargs__(self):
        return (str(self), self.template, self.holes)


@dataclass(frozen=True)
class Edit:
    """Replace the expression at ``source[start:end]`` (character offsets) with ``content``.

    ``content`` is parsed as an expression, or built from its template when it is a
    :class:`Replacement`.  With ``swap``, the span is a call ``r.a(A).b(B)`` that
    becomes ``r.b(B).a(A)``, keeping the whitespace and comments of the chain;
    ``content`` is then only the text reports show.
    """

    start: int
    end: int
    content: str
    swap: bool = False


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


def unsafe(finding: "Finding") -> "Finding":
    """The same finding, its fix (if any) marked unsafe."""
    if finding.fix is None or not finding.fix.safe:
        return finding
    return replace(finding, fix=replace(finding.fix, applicability=UNSAFE))
