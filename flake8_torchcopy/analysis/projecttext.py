"""Quick tests of a module's text before it is parsed, for the cross-module summaries.

Most questions the summaries get are answered no, and most of those from the text alone:
the module does not bind the name by a ``def`` mentioning ``torch`` or ``Tensor`` nor
import it (:func:`may_bind`), or its one top-level ``def`` of the name, parsed alone, is
no tensor maker (:func:`def_says_no`), or a package ``__init__`` does not mention the name
(:func:`may_rebind`).  What is found once per text (the names of its ``def`` statements,
the words of its imports, whether it may bind names unseen) is kept with the file's
version (:class:`~.projectdisk.FileVersion`).
"""
from __future__ import annotations

import ast
import re
from typing import List

from .nodeindex import children, is_generator
from .projectdisk import FileVersion
from .returns import dynamic_text
from .returnwalker import tuple_length

_IMPORT_TEXT = re.compile(r"\bimport\b(?:\s*\([^)]*\)|(?:\\\n|[^\n])*)")
_DEF_TEXT = re.compile(r"^[ \t]*def[ \t]+(\w+)[ \t]*\(", re.M)
#: a line that starts a statement at the module's top level (the end of a ``def`` there)
_TOP_LEVEL_LINE = re.compile(r"^[^ \t\r\n\f#)\]}]", re.M)
#: values a ``return`` can hand back that are never a tensor
_NOT_TENSOR = (ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.SetComp,
               ast.DictComp, ast.GeneratorExp, ast.JoinedStr, ast.Lambda)


def may_bind(file: FileVersion, name: str) -> bool:
    """Can the module bind ``name`` by a ``def`` whose text mentions ``torch`` or
    ``Tensor``, or re-export it by an import?  (No: the answer is no, and the file is not
    parsed.)  A text that may bind names unseen (:func:`~.returns.dynamic_text`) binds no
    name once (:func:`~.returns.bound_once`: the parse would say no to every name)."""
    text = file.text
    if text is None:
        return False
    if file.defs is None:
        file.defs = set(_DEF_TEXT.findall(text))
    if not _binds(text, name, file.defs) and not may_import(file, name):
        return False
    return not dynamic(file)


def may_import(file: FileVersion, name: str) -> bool:
    """May an import statement of the module bind ``name`` (the word is in one)?"""
    text = file.text
    if text is None or name not in text:
        return False  # not even the word
    if file.import_words is None:
        file.import_words = {w for m in _IMPORT_TEXT.finditer(text) for w in re.findall(r"\w+", m.group(0))}
    return name in file.import_words


def may_bind_class(file: FileVersion, name: str, plain: bool = False) -> bool:
    """Can the module bind ``name`` by a ``class`` statement (in a module whose text says
    ``forward``: an ``nn.Module`` subclass that defines none calls ``nn.Module``'s, which
    raises; any, where ``plain``: a class whose methods are asked about), or re-export it
    by an import (no: the file is not parsed)?"""
    text = file.text
    if text is None or name not in text or dynamic(file):
        return False
    if "forward" not in text and not plain:
        return "import" in text and may_import(file, name)
    needle = "class " + name  # (str.find: no pattern compiled per name)
    i = text.find(needle)
    while i >= 0:
        j = i + len(needle)
        if (i == 0 or text[i - 1] in " \t\n") and text[j:j + 1] in ("(", ":", " "):
            return True
        i = text.find(needle, j)
    return may_import(file, name)


def dynamic(file: FileVersion) -> bool:
    """May the module bind names unseen (``exec``, ``globals()``, ``sys.modules``...)?"""
    if file.dynamic is None:
        file.dynamic = file.text is not None and dynamic_text(file.text)
    return file.dynamic


def _binds(text: str, name: str, defs: set) -> bool:
    """Does the text hold a ``def name(`` whose text mentions ``torch`` or ``Tensor``?"""
    if name not in defs:
        return False
    for m in re.finditer(r"^([ \t]*)def[ \t]+" + re.escape(name) + r"[ \t]*\(", text, re.M):
        indent = len(m.group(1))
        end = re.compile(r"^[ \t]{0,%d}[^ \t\n#)\]]" % indent, re.M).search(text, m.end())
        body = text[m.start():end.start() if end else len(text)]
        if "torch" in body or "Tensor" in body:
            return True
    return False


def def_says_no(text: str, name: str) -> bool:
    """Does the one ``def name(`` at the module's top level (column 0), parsed alone, show
    that no call of it is a tensor: decorated, ``async``, a generator, not ending in a
    ``return``, or with a ``return`` of nothing, a constant or a display (unless every
    ``return`` is a tuple display of one length: ``return vals, vecs`` may hold tensors)?
    (The module is then not parsed.)  False where it cannot tell: no such ``def`` or more than one, or its
    text does not parse alone."""
    found = [m.start() for m in re.finditer(r"^(?:async[ \t]+)?def[ \t]+" + re.escape(name) + r"[ \t]*\(",
                                            text, re.M)]
    if len(found) != 1:
        return False
    start = found[0]
    before = text[:start].rstrip()
    if before[before.rfind("\n") + 1:].startswith("@"):
        return True  # decorated
    end = _TOP_LEVEL_LINE.search(text, start + 1)
    try:
        tree = ast.parse(text[start:end.start() if end else len(text)])
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if len(tree.body) != 1 or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    func = tree.body[0]
    if not structure_returns(func):
        return True
    if tuple_length(func) is not None:
        return False  # return vals, vecs: may hold tensors (decided on the module's parse)
    stack: List[ast.AST] = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return) and (node.value is None or isinstance(node.value, _NOT_TENSOR)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(children(node))
    return False


def structure_returns(func: ast.AST) -> bool:
    """Can ``func`` be summarised by its returns: a plain (undecorated, not async) function
    that is no generator and cannot fall off its end (its last statement is a ``return``)?"""
    if not isinstance(func, ast.FunctionDef) or func.decorator_list \
            or not func.body or not isinstance(func.body[-1], ast.Return):
        return False
    return not is_generator(func)


def may_rebind(file: FileVersion, name: str) -> bool:
    """May a package ``__init__`` bind ``name``: the word occurs, or a star import, or a
    form that binds unseen?  (Unreadable: yes.)"""
    text = file.text
    return text is None or bool(re.search(r"\b" + re.escape(name) + r"\b", text)
                                or re.search(r"\bimport\s*\*", text) or dynamic(file))
