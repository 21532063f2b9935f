"""Dict displays with constant keys that compare equal: which values stay in the dict."""
from __future__ import annotations

import ast
from typing import List

from .values import Value


def kept_values(node: ast.Dict, held: List[Value]) -> List[Value]:
    """What the display's values may leave in the dict: not one whose constant key a later
    constant key equals (``{1: t, 1.0: xs}`` holds ``xs`` alone; ``True == 1``, ``0.0 == 0``)."""
    out = []
    for i, (k, h) in enumerate(zip(node.keys, held)):
        if not (isinstance(k, ast.Constant) and any(
                isinstance(j, ast.Constant) and _equal(k.value, j.value) for j in node.keys[i + 1:])):
            out.append(h)
    return out


def _equal(a: object, b: object) -> bool:
    try:
        return hash(a) == hash(b) and bool(a == b)
    except TypeError:
        return False
