"""The files of a project's top package and which of them may name another module's
private function (:mod:`.projectcallers` parses only those).

A file may name the function ``_f`` of another module where the word follows a ``.``
(not ``self.``/``cls.``: its own method) or a quote (a string naming it), or stands in an
import statement (strings and comments too: ``exec("from m import _f")``); in a file with
a star import, wherever the word stands.  A file where the name stands only elsewhere (its
own ``def``, a parameter, a call of its own function, prose) cannot name the function (but
by reflection: ``importlib`` and ``globals()``, as in the module itself,
:mod:`.closedness`): it is not parsed.

Cost: the files are read once per process.  The first :data:`SCANNED_NAMES` names asked
are answered by a search of every text for that name alone, then the words of the few
files that hold it (a flake8 run on part of a large package asks a handful); from the
next name on, one index of every file's words answers them all.
"""
from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ..source import word_offsets
from .projectdisk import version

#: names answered by a search of the texts before the whole index is made
SCANNED_NAMES = 6

#: a word after a ``.`` (an attribute) or a quote (a string naming it), each pattern led
#: by a literal (a fast search); a private word; a star import
_REACHING = (re.compile(r"\.[ \t]*(_\w+)"), re.compile(r"\"(_\w+)"), re.compile(r"'(_\w+)"))
_PRIVATE = re.compile(r"_\w+")
_WORD = re.compile(r"\w+")
STAR_IMPORT = re.compile(r"import\s*\(?\s*\*")


class PackageIndex:
    """The ``.py`` files under a top package's directory (sub-directories without an
    ``__init__.py`` too: a script there may import the package), read once, and the files
    where a private name may name another module's function (see the module's text)."""

    def __init__(self, base: str) -> None:
        self.files: List[str] = []
        for d, dirs, files in os.walk(base):
            dirs.sort()
            self.files.extend(os.path.join(d, f) for f in sorted(files) if f.endswith(".py"))
        self.unreadable = False
        self.texts: List[str] = []
        for path in self.files:
            file = version(path)
            if file is not None and file.text is None:
                self.unreadable = True
            self.texts.append("" if file is None or file.text is None else file.text)
        self.scanned = 0  # names answered by a search so far
        self._words: Dict[int, Set[str]] = {}  # file -> its words (for the searches)
        self._index: Optional[Dict[str, Tuple[int, ...]]] = None

    def holding(self, name: str) -> Sequence[int]:
        """The files that may name the function ``name`` of another module."""
        if not name.startswith("_"):  # a public name (public-helpers): every file holding it
            return [k for k, path in enumerate(self.files) if _holds(path, name)]
        if self._index is None and self.scanned < SCANNED_NAMES:
            self.scanned += 1
            return tuple(k for k, text in enumerate(self.texts)
                         if name in text and name in self._words_of(k))
        return self.index.get(name, ())

    def _words_of(self, k: int) -> Set[str]:
        found = self._words.get(k)
        if found is None:
            found = self._words[k] = reaching_words(self.texts[k])
        return found

    @property
    def index(self) -> Dict[str, Tuple[int, ...]]:
        """Every private word -> the files where it may name another module's function."""
        if self._index is None:
            reaching: Dict[str, List[int]] = {}
            for k, text in enumerate(self.texts):
                for w in self._words.get(k) or reaching_words(text):
                    reaching.setdefault(w, []).append(k)
            # tuples of ints: the collector stops tracking them (sets it walks at every full
            # collection of the flake8 process, a third of its objects on torch)
            self._index = {w: tuple(ks) for w, ks in reaching.items()}
            self._words = {}
        return self._index


def reaching_words(text: str) -> Set[str]:
    """The private words of ``text`` that may name another module's function (see above);
    every private word (and some pieces of words) of a file with a star import."""
    if STAR_IMPORT.search(text):
        return set(_PRIVATE.findall(text))
    imported = import_words(text)
    words = set(imported)
    own = {"self", "cls"} - words  # `import pkg.m as self` names M
    for m in _REACHING[0].finditer(text):
        if not (own and _after_own(text, m.start(), own)):  # its own method (not `itself.`)
            words.add(m.group(1))
    words.update(_REACHING[1].findall(text))
    words.update(_REACHING[2].findall(text))
    return words


def _after_own(text: str, at: int, own: Set[str]) -> bool:
    """Is the ``.`` at ``at`` right after a whole name of ``own`` (not an attribute: ``a.self``)?"""
    for name in own:
        start = at - len(name)
        if start >= 0 and text.startswith(name, start):
            if start == 0:
                return True
            c = text[start - 1]
            return not (c == "_" or c == "." or c.isalnum())  # what `\w` is, and a `.`
    return False


def import_words(text: str) -> List[str]:
    """The words of the import statements of ``text`` (a line from ``import`` on, with a
    parenthesised list or backslash continuations; in strings and comments too)."""
    out: List[str] = []
    i = text.find("import")
    while i >= 0:
        end = text.find("\n", i)
        end = len(text) if end < 0 else end
        opened = text.find("(", i, end)
        if opened >= 0:
            close = text.find(")", opened)
            end = max(end, len(text) if close < 0 else close)
        while end < len(text) and text[end - 1:end] == "\\":
            nxt = text.find("\n", end + 1)
            end = len(text) if nxt < 0 else nxt
        out.extend(_WORD.findall(text, i + 6, end))
        i = text.find("import", end)
    return out


def _holds(path: str, name: str) -> bool:
    file = version(path)
    return file is None or file.text is None or next(word_offsets(file.text, name), None) is not None


_PACKAGES: Dict[str, PackageIndex] = {}  # the package's directory -> its files, per process


def package_files(root: str, top: str) -> PackageIndex:
    """The files of the top package ``top`` under ``root``, read once per process (a file
    that appears, goes or changes while the process runs is not seen, except that the
    files that hold the name asked about are read again where they changed)."""
    base = os.path.join(root, top)
    found = _PACKAGES.get(base)
    if found is None:
        found = _PACKAGES[base] = PackageIndex(base)
    return found


def forget() -> None:
    """Forget the package listings (as a new process would)."""
    _PACKAGES.clear()
