"""Optional imports: ``try: import torch`` / ``except ImportError: torch = None``.

Where the import failed every attribute of the name raises, so ``torch.tensor(x)`` runs
only with torch's own: :func:`optional_imports` gives the names a ``try`` statement
binds this way, for the statement walker (:mod:`.statements`) to keep as the import.
"""
from __future__ import annotations

import ast
from typing import Dict, Optional

from .values import Env, Value


def optional_imports(s: ast.Try, body_end: Env) -> Dict[str, Value]:
    """``try: import torch`` / ``except ImportError: torch = None``: the names the body
    binds to an import (still at its end, after ``else``) and every handler (each catching
    only ``ImportError``/``ModuleNotFoundError``, its body only ``name = None`` lines)
    binds to ``None``.  Where the import failed, every attribute of the name raises, so
    ``torch.tensor(x)`` runs only with torch's: the name is the import where it is used."""
    common: Optional[set] = None
    for h in s.handlers:
        types = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
        if h.type is None or h.name or not all(isinstance(t, ast.Name) and t.id in (
                "ImportError", "ModuleNotFoundError") for t in types):
            return {}
        if not all(isinstance(b, ast.Assign) and len(b.targets) == 1 and isinstance(b.targets[0], ast.Name)
                   and isinstance(b.value, ast.Constant) and b.value.value is None for b in h.body):
            return {}
        names = {b.targets[0].id for b in h.body}  # type: ignore[attr-defined]
        common = names if common is None else common & names
    return {n: body_end[n] for n in common or () if n in body_end and body_end[n].qualname is not None}
