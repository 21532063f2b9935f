"""Pieces several rules share: keyword handling and the ``detach().clone()`` replacement."""
from __future__ import annotations

import ast
from typing import Dict, Optional

from ..finding import SAFE, UNSAFE, Edit, Fix


def keywords(call: ast.Call) -> Optional[Dict[str, ast.keyword]]:
    """Keyword arguments by name; None if there is a ``**kwargs``."""
    out = {}
    for k in call.keywords:
        if k.arg is None:
            return None
        out[k.arg] = k
    return out


def short(text: str, limit: int = 48) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def copy_expression(ctx, tensor: ast.AST, kw: Dict[str, ast.keyword],
                    dtype_default: Optional[str] = None, device_default: Optional[str] = None) -> Optional[str]:
    """``t.detach().clone()`` or ``t.detach().to(dtype=…, device=…, copy=True)`` for
    ``torch.tensor(t, **kw)``; None when no exact one-call replacement exists."""
    if set(kw) - {"dtype", "device", "requires_grad"}:
        return None  # pin_memory=, or an unexpected keyword
    t = ctx.atom_text(tensor)
    conv = []
    for name, default in (("dtype", dtype_default), ("device", device_default)):
        if name in kw:
            conv.append(f"{name}={ctx.text(kw[name].value)}")
        elif default is not None:
            conv.append(f"{name}={default}")
    out = f"{t}.detach().to({', '.join(conv)}, copy=True)" if conv else f"{t}.detach().clone()"
    rg = kw.get("requires_grad")
    if rg is not None:
        v = rg.value
        if isinstance(v, ast.Constant) and v.value is True:
            out += ".requires_grad_()"
        elif not (isinstance(v, ast.Constant) and v.value is False):
            out += f".requires_grad_({ctx.text(v)})"
    return out


def replace_fix(ctx, node: ast.AST, text: str, safe: bool, message: str) -> Optional[Fix]:
    """Replace the whole node; refused when that would drop a comment inside it."""
    old = ctx.text(node)
    if "#" in old:
        return None
    return Fix((Edit(ctx.start(node), ctx.end(node), text),), SAFE if safe else UNSAFE, message)


def copy_fix_safety(ctx, kind: str) -> bool:
    """A ``torch.tensor``-style copy fix is safe only on data-flow evidence, outside
    TorchScript, in a module that sets no default device."""
    return kind == "tensor" and ctx.fix_blocker is None


def is_simple(node: ast.AST) -> bool:
    """A name or attribute chain: safe to evaluate twice."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def same_expr(a: ast.AST, b: ast.AST) -> bool:
    return ast.dump(a) == ast.dump(b)
