"""Which files ``torchcopy-fix`` looks at: the paths named on the command line, and the
source files found under the directories named, as ruff finds them.

A directory walk skips tool and build directories (``SKIP_DIRS``), virtual
environments, symbolic links, the ``exclude`` globs and, in a git work tree, what
git ignores (``.gitignore``, ``.git/info/exclude``, the global excludes file),
asked of ``git check-ignore`` once per directory named.  A file named explicitly
is always taken, unless ``force_exclude``: then the ``exclude`` globs and
``SKIP_DIRS`` apply to it too (ruff's ``--force-exclude``; what pre-commit needs,
since it names every file).
"""
from __future__ import annotations

import os
import subprocess
from typing import Callable, Iterator, List, Optional, Sequence, Set, Tuple

SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb")
SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", "__pycache__", "build", "dist", "node_modules", ".tox", ".nox", ".venv",
     ".mypy_cache", ".pytest_cache", ".ruff_cache"}
)

Exclude = Optional[Callable[[str], bool]]
MISSING = "No such file or directory"


def _is_venv(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "pyvenv.cfg"))


def walk(root: str, exclude: Exclude = None) -> Iterator[str]:
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


def gitignored(directory: str, paths: Sequence[str]) -> Set[str]:
    """The ``paths`` (found under ``directory``) that git ignores; none outside a git work
    tree or without git.  Tracked files are never ignored (git's own rule).  A directory
    named on the command line is walked even when git ignores it, as ruff does; git
    then says every path below it is ignored, so none is skipped."""
    if not paths:
        return set()
    rel = [os.path.relpath(p, directory) for p in paths]
    try:
        proc = subprocess.run(["git", "check-ignore", "--stdin", "-z"], cwd=directory,
                              input=b"".join(os.fsencode(r) + b"\0" for r in [os.curdir, *rel]),
                              capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return set()
    if proc.returncode not in (0, 1):  # 128: not a git work tree
        return set()
    ignored = {os.path.normpath(os.fsdecode(x)) for x in proc.stdout.split(b"\0") if x}
    if os.curdir in ignored:
        return set()
    return {p for p, r in zip(paths, rel) if os.path.normpath(r) in ignored}


def force_excluded(path: str, exclude: Exclude) -> bool:
    """Is a file named explicitly skipped under ``--force-exclude``: an exclude glob matches
    it, or it lies in one of the directories a walk skips?"""
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)[:-1]
    return (exclude is not None and exclude(path)) or any(part in SKIP_DIRS for part in parts)


def collect(paths: Sequence[str], exclude: Exclude = None, respect_gitignore: bool = True,
            force_exclude: bool = False) -> Tuple[List[Tuple[str, bool]], List[Tuple[str, str]]]:
    """(files as (path, named explicitly), errors as (path, reason)) for the given paths."""
    files: List[Tuple[str, bool]] = []
    errors: List[Tuple[str, str]] = []
    seen = set()

    def add(path: str, explicit: bool) -> None:
        key = os.path.normcase(os.path.abspath(path))
        if key not in seen:
            seen.add(key)
            files.append((path, explicit))

    for p in paths:
        if os.path.isdir(p):  # a directory named explicitly is walked even through a symlink
            found = list(walk(p, exclude))
            ignored = gitignored(p, found) if respect_gitignore else set()
            for f in found:
                if f not in ignored:
                    add(f, False)
        elif os.path.lexists(p):
            if force_exclude and force_excluded(p, exclude):
                continue
            add(p, True)
        else:
            errors.append((p, MISSING))
    return files, errors
