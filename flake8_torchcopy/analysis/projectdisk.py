"""The disk under the cross-module summaries (:mod:`.project`): where a project's package
and modules are, and each module file read once per version.

A file's version is its modification time and size (:func:`stat_key`).  One cache holds,
per path, the version last read (:class:`FileVersion`): its text, what the quick text tests
found in it (:mod:`.projecttext`) and the module parsed from it (:mod:`.projectmodule`),
each filled in when first needed; a new version replaces all of it at once.  Where the
packages and module files are (:func:`package_of`, :func:`file_of`) is remembered for the
life of the process; :func:`absolute_from` names the module a relative import reads.
"""
from __future__ import annotations

import os
from typing import Any, Dict, Optional, Set, Tuple

Version = Tuple[int, int]  # (st_mtime_ns, st_size)

#: :attr:`FileVersion.module` until the text is parsed
UNPARSED: Any = object()


class FileVersion:
    """One version of a module file: its text (None: unreadable or not UTF-8) and what was
    learnt from it, each None (or :data:`UNPARSED`) until first asked for."""

    __slots__ = ("key", "text", "defs", "import_words", "dynamic", "module")

    def __init__(self, key: Version, text: Optional[str]) -> None:
        self.key = key
        self.text = text
        self.defs: Optional[Set[str]] = None  # names of its `def` statements, at any depth
        self.import_words: Optional[Set[str]] = None  # the words of its import statements
        self.dynamic: Optional[bool] = None  # does it hold a form that binds names unseen?
        self.module: Any = UNPARSED  # projectmodule.Module, or None where it does not parse


_VERSIONS: Dict[str, FileVersion] = {}
_PACKAGES: Dict[str, Optional[Tuple[str, str]]] = {}  # directory -> (root, its dotted name)
_FILES: Dict[Tuple[str, str], Optional[str]] = {}  # (root, dotted) -> its file


def stat_key(path: str) -> Optional[Version]:
    """The version of the file at ``path`` (None: no file)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def version(path: str) -> Optional[FileVersion]:
    """The file at ``path`` as it is now, read once per version (None: no file)."""
    key = stat_key(path)
    if key is None:
        return None
    cached = _VERSIONS.get(path)
    if cached is not None and cached.key == key:
        return cached
    try:
        with open(path, "rb") as f:
            text: Optional[str] = f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        text = None
    cached = _VERSIONS[path] = FileVersion(key, text)
    return cached


def text_of(path: str) -> Optional[str]:
    """The text of the module file at ``path`` (None: unreadable, not UTF-8, or no file)."""
    found = version(path)
    return None if found is None else found.text


def package_of(directory: str) -> Optional[Tuple[str, str]]:
    """For a directory that is a package (holds ``__init__.py``): the root absolute imports
    resolve from (the directory above the topmost package) and the directory's dotted name;
    None for a directory that is no package."""
    directory = os.path.abspath(directory)
    if directory in _PACKAGES:
        return _PACKAGES[directory]
    out: Optional[Tuple[str, str]] = None
    if os.path.isfile(os.path.join(directory, "__init__.py")):
        parent = os.path.dirname(directory)
        above = package_of(parent) if parent != directory else None
        name = os.path.basename(directory)
        if above is not None:
            out = (above[0], f"{above[1]}.{name}")
        elif name.isidentifier():
            out = (parent, name)
        if out is not None and not all(p.isidentifier() for p in out[1].split(".")):
            out = None
    _PACKAGES[directory] = out
    return out


def file_of(root: str, dotted: str) -> Optional[str]:
    """The file of module ``dotted`` under ``root``: ``a/b/__init__.py`` or ``a/b.py``, every
    package on the way a regular one (with an ``__init__.py``).  Remembered per process
    (a file that appears or goes while the process runs is not seen)."""
    key = (root, dotted)
    if key in _FILES:
        return _FILES[key]
    parts = dotted.split(".")
    base = os.path.join(root, *parts)
    found: Optional[str] = None
    if len(parts) == 1 or file_of(root, ".".join(parts[:-1])) == os.path.join(root, *parts[:-1], "__init__.py"):
        init = os.path.join(base, "__init__.py")
        if os.path.isfile(init):
            found = init
        elif os.path.isfile(base + ".py"):
            found = base + ".py"
    _FILES[key] = found
    return found


def absolute_from(package: str, level: int, module: Optional[str]) -> Optional[str]:
    """``from <level dots><module>`` seen from a module of ``package`` (in a package's
    ``__init__``, one dot is the package itself; in a module, its package)."""
    if not level:
        return module
    parts = package.split(".") if package else []
    if level - 1 >= len(parts):
        return None
    base = parts[:len(parts) - (level - 1)]
    return ".".join(base + (module.split(".") if module else []))


def forget() -> None:
    """Forget every file, package and module read (as a new process would)."""
    for cache in (_VERSIONS, _PACKAGES, _FILES):
        cache.clear()
