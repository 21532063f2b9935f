"""Searches of a module's text that are led by a literal, so ``re`` scans them fast.

``re`` finds a pattern that begins with a literal by looking for the literal first; one that
begins with an alternation, a lookbehind or ``\\b`` is tried at every position of the text,
several times slower on a whole module (measured in docs/performance.md).  :class:`AnyOf`
searches for any of several such patterns, each written or rewritten to begin with its
literal: a whole identifier becomes ``name(?<!\\wname)(?!\\w)``, not ``\\bname\\b``.
"""
from __future__ import annotations

import re
from typing import Iterable, Tuple


def whole_word(name: str, after: str = "") -> str:
    """``name`` not preceded by an identifier character, then ``after`` (a pattern): the
    ``(?<![\\w])name`` of a search, led by the literal."""
    lit = re.escape(name)
    return rf"{lit}(?<!\w{lit}){after}"


class AnyOf:
    """Is any of ``patterns`` (each led by a literal) in a text?  ``search`` returns the
    first match found, trying the patterns in their order.  Compiled at the first search:
    many are built at import and some never asked in a run."""

    __slots__ = ("_sources", "_patterns")

    def __init__(self, patterns: Iterable[str]) -> None:
        self._sources = tuple(patterns)
        self._patterns: Tuple["re.Pattern[str]", ...] = ()

    def search(self, text: str, pos: int = 0, endpos: int = -1) -> "re.Match[str] | None":
        patterns = self._patterns
        if not patterns:
            patterns = self._patterns = tuple(re.compile(p) for p in self._sources)
        end = len(text) if endpos < 0 else endpos
        for p in patterns:
            m = p.search(text, pos, end)
            if m is not None:
                return m
        return None
