"""Class bodies whose namespace may not be a plain dict (a metaclass's ``__prepare__``)."""
from __future__ import annotations

import ast

#: the value of ``FlowWalker.class_body`` in a class body whose namespace may store values
#: otherwise than it was given (read back, its names are unknown)
PREPARED = "prepared"


def class_body_mark(ev, s: ast.ClassDef, depth: int = 0) -> object:
    """``True`` for a class body whose namespace is a plain dict, else :data:`PREPARED`: a
    metaclass's ``__prepare__`` may hand the body a mapping that stores something else
    (``t = torch.ones(2)`` read back as a list). Plain: no ``metaclass=`` keyword and every
    base ``object``, a torch class, or a class of the module that is plain itself."""
    if depth > 8 or any(k.arg == "metaclass" for k in s.keywords):
        return PREPARED
    for b in s.bases:
        if isinstance(b, ast.Name) and b.id == "object" and "object" not in ev.env:
            continue
        if (ev.static_qualname(b) or "").startswith("torch."):
            continue
        base = ev.module_classes.get(ev.env.get(b.id)) if isinstance(b, ast.Name) else None
        if base is None or class_body_mark(ev, base, depth + 1) is PREPARED:
            return PREPARED
    return True
