"""Stores a module's text may make into torch or its own namespace: a function of torch
replaced (``torch.ones = f``, ``F.relu = f``, ``setattr(torch, ...)``, ``mock.patch("torch.ones")``:
the factory that proves a value a plain tensor may then return anything; read by
:func:`.modulescan.may_retype`), and names rebound dynamically (``exec``, ``globals()``, a
module-level ``locals()``, a frame's ``f_globals``: :func:`may_store_dynamically`)."""
from __future__ import annotations

import ast
import re
from typing import Dict, List, Optional

from ..textsearch import AnyOf, whole_word
from .nodeindex import children


def torch_aliases(source: str) -> List[str]:
    """``torch`` and the names ``import torch as`` binds."""
    return sorted({"torch"} | set(re.findall(r"import\s+torch\s+as\s+(\w+)", source)))


#: a statement storing into a public function of torch's namespaces (``torch.ones = f``, ``F.relu
#: = f`` with ``F`` imported from torch; not ``x: torch.Tensor = v``, ``Enum.__module__ = ...``),
#: ``setattr(torch, ...)``, a store into its ``__dict__`` or ``vars(torch)``, ``mock.patch("torch.ones")``: a
#: factory that proves a tensor plain may return anything
_STORE = re.compile(r"\s*\.\s*(?:(?:nn\s*\.\s*)?(?:functional|init)\s*\.\s*|(?:linalg|fft|special)\s*\.\s*)?"
                    r"(?!_)\w+\s*=(?!=)")


#: the namespaces whose names are read (``from torch.backends import cudnn`` is settings)
_SPACES = r"torch(?:\.nn(?:\.functional|\.init)?|\.linalg|\.fft|\.special)?"
#: ``name`` then :data:`_STORE`, per name (led by it: a fast search; a pattern led by a line
#: break is tried at every line of the file)
_NAME_STORE: Dict[str, "re.Pattern[str]"] = {}


def _stored_at_line_start(source: str, name: str) -> bool:
    """Does a line after the first begin (after its indentation) with the identifier ``name``
    followed by :data:`_STORE` (``name.f = v``)?"""
    if name == "self" or name not in source:
        return False
    pattern = _NAME_STORE.get(name)
    if pattern is None:
        pattern = _NAME_STORE[name] = re.compile(re.escape(name) + _STORE.pattern)
    for m in pattern.finditer(source):
        line = source.rfind("\n", 0, m.start())
        if line >= 0 and not source[line + 1:m.start()].strip(" \t"):
            return True
    return False


_FROM_TORCH = re.compile(rf"from[ \t]+{_SPACES}[ \t]+import[ \t]*(?:\(([^)]*)\)|([^\n;#]*))")
_SUBMODULE_AS = re.compile(rf"import[ \t]+{_SPACES}[ \t]+as[ \t]+(\w+)")


def replaces_torch(source: str) -> bool:
    """May the module store into a function of torch (the forms above)?  Every tensor a
    torch call made may then be another class: a fix proven on it is unsafe.  Each search
    is led by a literal (a name, ``setattr``, ``__dict__``, ``patch``): the file is long."""
    names = set(torch_aliases(source))  # and names bound from torch: F, nn, functional, a function
    if "torch." in source:
        names.update(_SUBMODULE_AS.findall(source))
    if "from" in source:
        for inside, line in _FROM_TORCH.findall(source):
            names.update(part.split()[-1] for part in (inside or line).split(",")
                         if part.split() and part.split()[-1].isidentifier())
    if any(_stored_at_line_start(source, name) for name in names):  # a statement ``name.f = ...``
        return True
    if "setattr" in source and any(g in names for g in _SETATTR.findall(source)):
        return True
    if "__dict__" in source and any(_NAME_BEFORE.search(source[max(0, m.start() - 64):m.start()]).group()  # type: ignore[union-attr]
                                    in names for m in _DICT_STORE.finditer(source)):
        return True
    if "vars(" in source and any(g in names for g in _VARS_STORE.findall(source)):
        return True
    return "patch" in source and (_PATCH_NAME.search(source) is not None
                                  or any(g in names for g in _PATCH_OBJECT.findall(source)))


# each led by a literal (a fast search), the name it stores into read off a group
_SETATTR = re.compile(r"setattr\(\s*(\w+)\s*,")
_DICT_STORE = re.compile(r"\.__dict__\s*(?:\[[^\]\n]*\]\s*=(?!=)|\.\s*update\()")
_NAME_BEFORE = re.compile(r"\w*\Z")
_VARS_STORE = re.compile(r"vars\(\s*(\w+)\s*\)\s*(?:\[[^\]\n]*\]\s*=(?!=)|\.\s*update\()")
_PATCH_NAME = re.compile(r"""patch\(\s*["']torch\.(?:(?:nn\.functional|linalg|fft|special)\.)?\w+["']""")
_PATCH_OBJECT = re.compile(r"patch\.object\(\s*(\w+)\s*,")


def may_store_dynamically(source: str, tree: Optional[ast.AST] = None) -> bool:
    """Does the text call ``exec``/``eval``/``globals()``/``vars()``, reach the module
    through ``sys.modules``/``importlib``/``__import__``/``__builtins__``/a frame's
    ``f_globals``/``f_locals``, or call ``locals()`` outside a function (there it is the
    module's namespace: ``locals()["torch"] = w`` rebinds ``torch``; without the tree, any)?"""
    for w in ("sys.modules", "__builtins__", "importlib", "__import__"):
        if w in source:
            return True
    # (each ``in`` scans the whole text: ``__globals__``, ``f_locals`` looked for only where
    # ``globals``, ``locals`` are, which most texts lack)
    if "globals" in source and ("__globals__" in source or "f_globals" in source):
        return True
    local = "locals" in source
    if local and "f_locals" in source:
        return True
    if _DYNAMIC_CALL.search(source) is not None:
        return True
    return local and _LOCALS_CALL.search(source) is not None and (tree is None or _locals_outside(tree))


def _locals_outside(tree: ast.AST) -> bool:
    todo = list(ast.iter_child_nodes(tree))
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue  # (its locals() is a snapshot: writes bind nothing)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "locals":
            return True
        todo.extend(children(n))
    return False


# ``exec(``, ``eval(``, ``globals(``, ``vars()``: not a method (``m.eval()``), not part of a name
_LOCALS_CALL = re.compile(whole_word("locals", r"(?<!\.locals)[ \t]*\("))
_DYNAMIC_CALL = AnyOf([whole_word(w, r"(?<!\.%s)[ \t]*\(" % w) for w in ("exec", "eval", "globals")]
                      + [whole_word("vars", r"(?<!\.vars)[ \t]*\(\s*\)")])
