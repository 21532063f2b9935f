"""``self.X`` of an integer or bool buffer its class registers and the module never rebinds.

Only floating point and complex tensors can require grad (checked with torch in
``tests/test_grad_free.py``), so ``self.idx_queue.clone().detach()`` of a buffer registered by
``self.register_buffer("idx_queue", torch.full((1, n), -100))`` records no graph node
(mmpretrain's ITCHead).  :func:`integral_buffer` says so when ``node`` is ``self.X`` in a
method of a class that registers ``X`` through ``self.register_buffer`` (``persistent=`` or not) with a value of an
integer or bool dtype it can read off (``dtype=`` of such a dtype, ``torch.full`` of an int
or bool literal, ``torch.arange`` of int literals, ``torch.tensor`` of int literals, an
integer cast ``.long()``), and the module does nothing else to ``X``: no store to or delete
of an attribute named ``X`` (an element store ``self.X[i] = v`` keeps the dtype), no
``self.X.data = t``, ``self.X.set_(t)``, no other ``register_buffer``/``register_parameter``
of it, and the string ``"X"`` nowhere else (``setattr``, ``self._buffers["X"]``).
``Module.to(dtype)``/``half()`` convert floating point tensors only, ``load_state_dict``
copies into the buffer (``assign=True`` puts a state dict's tensor there, which requires no
grad).  What it cannot see: another module rebinding the attribute, a subclass registering
it again; then a report is lost (a miss, never a wrong report).
"""
from __future__ import annotations

import ast
from typing import Callable, Optional

from .scopes import enclosing_scope

Qualname = Callable[[ast.AST], Optional[str]]

_INTEGRAL_DTYPES = frozenset(f"torch.{n}" for n in """
    bool uint8 int8 int16 short int32 int int64 long uint16 uint32 uint64""".split())
_CASTS = frozenset("bool long int short byte char".split())


def integral_buffer(tree: ast.AST, node: ast.AST, qualname: Qualname) -> bool:
    """Is ``node`` ``self.X`` of an integer or bool buffer (see the module's docstring)?"""
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
        return False
    func = enclosing_scope(tree, node)
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or func.decorator_list:
        return False
    params = func.args.posonlyargs + func.args.args
    cls = enclosing_scope(tree, func)
    if not params or params[0].arg != node.value.id or not isinstance(cls, ast.ClassDef) \
            or _rebound(func, node.value.id):
        return False
    return _registered_integral(tree, cls, node.attr, qualname)


def _rebound(func: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
               for n in ast.walk(func))


def _registered_integral(tree: ast.AST, cls: ast.ClassDef, attr: str, qualname: Qualname) -> bool:
    registered = False
    names_used = 0
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and n.value == attr:
            names_used += 1
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == attr \
                or isinstance(n, ast.Name) and n.id == attr and not isinstance(n.ctx, ast.Load):
            return False  # a def or a name of the attribute's name: maybe a class attribute
        elif isinstance(n, ast.Attribute) and n.attr == attr and not isinstance(n.ctx, ast.Load):
            return False  # self.X = v, del self.X, for self.X in ...
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Attribute) and n.value.attr == attr \
                and (n.attr in ("data", "set_") or not isinstance(n.ctx, ast.Load)):
            return False  # self.X.data = t, self.X.set_(t): another dtype in place
        elif isinstance(n, ast.AugAssign) and _names_attr(n.target, attr):
            return False
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and n.func.attr in ("register_buffer", "register_parameter") and n.args \
                and isinstance(n.args[0], ast.Constant) and n.args[0].value == attr:
            if n.func.attr != "register_buffer" or len(n.args) not in (2, 3) \
                    or any(k.arg != "persistent" for k in n.keywords) \
                    or not _in_class_on_self(tree, n, cls) or not integral(n.args[1], qualname):
                return False
            registered = True
            names_used -= 1  # the name the registration gives
    return registered and names_used == 0


def _names_attr(target: ast.AST, attr: str) -> bool:
    return any(isinstance(a, ast.Attribute) and a.attr == attr for a in ast.walk(target))


def _in_class_on_self(tree: ast.AST, call: ast.Call, cls: ast.ClassDef) -> bool:
    """``self.register_buffer(...)`` in a method of ``cls`` (``self`` its first parameter)."""
    recv = call.func.value  # type: ignore[attr-defined]
    func = enclosing_scope(tree, call)
    if not isinstance(recv, ast.Name) or not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    params = func.args.posonlyargs + func.args.args
    return bool(params) and params[0].arg == recv.id and enclosing_scope(tree, func) is cls \
        and not _rebound(func, recv.id)


def integral(v: ast.AST, qualname: Qualname) -> bool:
    """A tensor of an integer or bool dtype, read off the expression (checked with torch)."""
    if not isinstance(v, ast.Call):
        return False
    q = qualname(v.func) or ""
    kws = {k.arg: k.value for k in v.keywords}
    if None in kws:
        return False  # **options: maybe a dtype
    if "dtype" in kws:
        return q.startswith("torch.") and qualname(kws["dtype"]) in _INTEGRAL_DTYPES
    if not q and isinstance(v.func, ast.Attribute) and v.func.attr in _CASTS:
        return not v.args and not v.keywords
    if q == "torch.full" and len(v.args) == 2 and not kws:
        return int_literal(v.args[1]) or isinstance(v.args[1], ast.Constant) and type(v.args[1].value) is bool
    if q == "torch.arange" and v.args and not kws:
        return all(int_literal(a) for a in v.args)
    if q == "torch.tensor" and len(v.args) == 1 and not kws:
        data = v.args[0]
        items = data.elts if isinstance(data, (ast.List, ast.Tuple)) else [data]
        return bool(items) and all(int_literal(e) for e in items)
    return False


def int_literal(a: ast.AST) -> bool:
    """An int literal, maybe negated (``3``, ``-100``; not a bool)."""
    if isinstance(a, ast.UnaryOp) and isinstance(a.op, ast.USub):
        a = a.operand
    return isinstance(a, ast.Constant) and type(a.value) is int
