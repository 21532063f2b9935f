"""Directories of scripts: modules outside any package that import each other by name.

Research code is often a directory of scripts and modules with no ``__init__.py``
(``import preprocess_data``, ``from attention import MLPWordSeqAttention``): run as
``python train.py``, Python puts the script's directory first on ``sys.path``, so such an
import finds the module file next to it, unless the name is one Python finds before the
path: a built-in or frozen module, or a standard-library module already imported at startup.
So a file in a directory that is no package (:func:`script_directory`) belongs to a project of
the modules beside it, and ``m.name`` is the project's where ``m`` is the top-level name of a
module file there (:func:`sibling`) that is no standard-library name
(``sys.stdlib_module_names``, ``sys.builtin_module_names``).  Only the form ``m.name`` of one
module beside the file is followed (no package below it, no re-export through another
module); what the other modules pass the file's functions is not looked for.

A directory one of whose modules puts a folder before the script's on the path, or a
module into ``sys.modules`` (``sys.path.insert(0, lib)``, ``sys.path[:0] = ...``,
``sys.path = ...``, ``sys.modules["enc"] = ...``), is no directory of scripts here: an import
there may find another file first (:func:`_path_changed`; ``sys.path.append`` puts a folder
after the script's, which changes nothing).  What stays assumed: the module is imported by a
script of that directory, or with it first on the path (a ``PYTHONPATH``, a ``.pth`` file or
code outside the directory may put another file of the same name first).  The value carries
:data:`~.values.OTHER_MODULE`, as any evidence from another module: reports stand, fixes
resting on it are unsafe.
"""
from __future__ import annotations

import os
import re
import sys
from typing import Dict, Tuple

from .projectdisk import file_of

#: names Python never looks for on the path (or finds imported before the script runs)
_NOT_ON_PATH = frozenset(getattr(sys, "stdlib_module_names", ())) | frozenset(sys.builtin_module_names)

#: a folder put before the script's on the path, a module put into ``sys.modules``
_PATH_CHANGES = re.compile(r"\bsys\s*\.\s*(?:path\s*(?:\.\s*insert\b|\[|\+=|=(?!=))"
                           r"|modules\s*(?:\[|\.\s*(?:update|setdefault)\b))"
                           r"|\bfrom\s+sys\s+import\b[^\n]*\b(?:path|modules)\b")

_DIRECTORIES: Dict[str, bool] = {}
_SIBLINGS: Dict[Tuple[str, str], bool] = {}


def script_directory(directory: str) -> bool:
    """Is ``directory`` one of scripts: no package (no ``__init__.py``; its name need not be
    an identifier: it is on the path, not imported)?"""
    known = _DIRECTORIES.get(directory)
    if known is None:
        # before Python 3.10 the standard library's names are not listed: not followed there
        known = _DIRECTORIES[directory] = hasattr(sys, "stdlib_module_names") and os.path.isdir(directory) \
            and not os.path.isfile(os.path.join(directory, "__init__.py")) and not _path_changed(directory)
    return known


def _path_changed(directory: str) -> bool:
    """Does a module of ``directory`` put a folder before the script's on ``sys.path``, or a
    module into ``sys.modules`` (:data:`_PATH_CHANGES`; read once per directory)?"""
    try:
        names = [n for n in os.listdir(directory) if n.endswith(".py")]
    except OSError:
        return True
    for name in names:
        try:
            with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            return True
        if "sys" in text and _PATH_CHANGES.search(text):
            return True
    return False


def sibling(directory: str, name: str) -> bool:
    """Is ``name`` the top-level name of a module file in ``directory`` (``name.py``, or a
    package ``name/__init__.py``) that an import finds there: not a standard-library or
    built-in name?"""
    key = (directory, name)
    known = _SIBLINGS.get(key)
    if known is None:
        known = _SIBLINGS[key] = name.isidentifier() and name not in _NOT_ON_PATH \
            and file_of(directory, name) is not None
    return known


def forget() -> None:
    """Forget the directories looked at (as a new process would)."""
    _DIRECTORIES.clear()
    _SIBLINGS.clear()
