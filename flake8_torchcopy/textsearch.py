"""Searches of a module's text that are led by a literal, so ``re`` scans them fast.

``re`` finds a pattern that begins with a literal by looking for the literal first; one that
begins with an alternation, a lookbehind or ``\\b`` is tried at every position of the text,
several times slower on a whole module (measured in docs/performance.md).  :class:`AnyOf`
searches for any of several such patterns, each written or rewritten to begin with its
literal: a whole identifier becomes ``name(?<!\\wname)(?!\\w)``, not ``\\bname\\b``.
"""
from __future__ import annotations

import re
from typing import Iterable, List, Optional, Tuple


def whole_word(name: str, after: str = "") -> str:
    """``name`` not preceded by an identifier character, then ``after`` (a pattern): the
    ``(?<![\\w])name`` of a search, led by the literal."""
    lit = re.escape(name)
    return rf"{lit}(?<!\w{lit}){after}"


class AnyOf:
    """Is any of ``patterns`` (each led by a literal) in a text?  ``search`` returns the
    first match found, trying the patterns in their order.  A pattern's leading literal
    (:func:`literal_lead`) is looked for first with ``str.find``, much faster than ``re``'s
    own search for it; a pattern is compiled only when its literal is in a text searched
    (many are built at import, most texts hold none of some)."""

    __slots__ = ("_sources", "_leads", "_patterns")

    def __init__(self, patterns: Iterable[str]) -> None:
        self._sources = tuple(patterns)
        self._leads: Tuple[str, ...] = ()
        self._patterns: List[Optional["re.Pattern[str]"]] = []

    def search(self, text: str, pos: int = 0, endpos: int = -1) -> "re.Match[str] | None":
        leads = self._leads
        if not leads and self._sources:
            leads = self._leads = tuple(literal_lead(p) for p in self._sources)
            self._patterns = [None] * len(leads)
        end = len(text) if endpos < 0 else endpos
        for i, lead in enumerate(leads):
            at = text.find(lead, pos, end)  # (a match starts with the lead: none before it)
            if at < 0:
                continue
            p = self._patterns[i]
            if p is None:
                p = self._patterns[i] = re.compile(self._sources[i])
            m = p.search(text, at, end)  # (a lookbehind still sees the text before ``at``)
            if m is not None:
                return m
        return None


#: punctuation that stands for itself in a pattern (outside a class)
_PLAIN = frozenset("\"'=,:;<>-@/%&!~")


def literal_lead(pattern: str) -> str:
    """The literal every match of ``pattern`` begins with ("" where none is sure): its
    leading identifier characters and escaped punctuation, less a last one a quantifier
    follows; none where an alternation stands outside every group."""
    depth, i, n = 0, 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 1
        elif c == "[":  # a class: skip to its end (a ``]`` first in it is one of its members)
            i += 3 if pattern.startswith("^]", i + 1) else 2 if pattern.startswith("]", i + 1) else 1
            while i < n and pattern[i] != "]":
                i += 2 if pattern[i] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            return ""
        i += 1
    lead: List[str] = []
    i = 0
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n and not (pattern[i + 1].isalnum() or pattern[i + 1] == "_"):
            lead.append(pattern[i + 1])
            i += 2
        elif c.isalnum() or c == "_" or c in _PLAIN:
            lead.append(c)
            i += 1
        else:
            break
    if i < n and pattern[i] in "?*+{" and lead:
        lead.pop()
    return "".join(lead)
