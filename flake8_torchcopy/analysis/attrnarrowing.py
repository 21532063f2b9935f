"""Attributes an ``assert`` proves tensors, until anything may rebind them.

``assert torch.is_tensor(self.mu)`` (or ``isinstance(self.mu, torch.Tensor)``, maybe one
part of an ``and``) makes ``self.mu`` a tensor on the later statements of the assert's own
block (mmrotate ``gmm.py:60``: ``self.mu_init.clone().requires_grad_().cuda()`` after the
assert; not on a loop's next pass, nor after the branch that asserted), with the assert's
caveat (python -O removes it).  Only while nothing may have rebound it: the fact is dropped
by any call but a tensor's methods (a call may store into the object; a torch function may
hand an argument's ``__torch_function__`` the call), by a store or ``del`` of an attribute of
that name on any object (an alias may hold it), by a statement that binds the base name (even
after reading it), by a compound statement, by ``await`` and ``yield``, and never kept in a
module whose text names ``setattr``, ``__dict__``, ``__setattr__`` or ``vars(`` (``d = vars(self)``
before the assert, ``d["mu"] = x`` after it stores no attribute).  It is read only in
code that certainly runs there (not in a lambda, a comprehension, an arm of ``and``/``or``),
and never in place of what the class's summary already proves.  Names are narrowed by
:mod:`.narrowing`; this is only for ``<name>.<attr>``.
"""
from __future__ import annotations

import ast
from typing import Optional, Tuple

from .narrowing import narrow_isinstance
from .summaries import attribute_value
from .values import ASSERTED, TENSOR, Value

_SIMPLE = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Assert, ast.Pass, ast.Return)
_OTHER_CODE = (ast.Await, ast.Yield, ast.YieldFrom)
#: tensor methods that run Python code by design: autograd hooks, a callable per element
_RUNS_CODE = frozenset(("backward", "apply_", "map_", "map2_"))


def asserted(ev, test: ast.AST) -> None:
    """Record the ``<name>.<attr>`` that ``assert <test>`` proves tensors."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    for p in parts:
        if not (isinstance(p, ast.Call) and not p.keywords and p.args and isinstance(p.args[0], ast.Attribute)
                and isinstance(p.args[0].value, ast.Name)):
            continue
        subject, base = p.args[0], p.args[0].value
        if len(p.args) == 1:
            proven = ev.static_qualname(p.func) == "torch.is_tensor"
        else:
            proven = len(p.args) == 2 and isinstance(p.func, ast.Name) and p.func.id == "isinstance" \
                and "isinstance" not in ev.env and narrow_isinstance(ev, "", p.args[1])[0].get("") == TENSOR
        place = _place(ev.closure_func, ev.current_stmt) if proven else None
        if place is not None and not (ev.has["setattr"] or ev.has["__dict__"] or ev.has["vars("]):
            if ev.attr_facts is None:
                ev.attr_facts = {}
            ev.attr_facts[(id(ev.closure_func), base.id, subject.attr)] = (Value(TENSOR, caveat=ASSERTED), place)


def _place(func: Optional[ast.AST], s: Optional[ast.stmt]) -> Optional[Tuple[list, int]]:
    """The statement list that holds ``s`` in the function ``func``, and its index there."""
    if func is None or s is None:
        return None
    for node in ast.walk(func):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list):
                for i, t in enumerate(stmts):
                    if t is s:
                        return stmts, i
    return None


def fact(ev, node: ast.Attribute) -> Optional[Value]:
    """``node`` (``self.mu``) proven a tensor by an assert, where code certainly runs; else None."""
    if ev.conditional or not isinstance(node.value, ast.Name):
        return None
    got = ev.attr_facts.get((id(ev.closure_func), node.value.id, node.attr))
    if got is None:
        return None
    proven, (stmts, at) = got
    if not any(t is ev.current_stmt for t in stmts[at + 1:]):
        return None  # not a later statement of the assert's block: a loop's next pass, after a branch
    if ev.self_value is not None and ev.lookup(node.value.id) is ev.self_value:
        known = attribute_value(ev, node.attr)  # the class's summary: a tensor already, maybe more known
        if known is not None and known.kind == TENSOR:
            return None
    return proven


def before_statement(ev, s: ast.stmt) -> None:
    """Drop the facts a statement about to run may break before it reads them: all of them
    for a compound statement, ``del``, ``import``, ``global``, any ``await``/``yield`` and a
    store into a subscript; those of an attribute it stores into."""
    if not isinstance(s, _SIMPLE) or any(isinstance(n, _OTHER_CODE) for n in ast.walk(s)):
        ev.attr_facts = None
        return
    if any(isinstance(n, ast.Subscript) and not isinstance(n.ctx, ast.Load) for n in ast.walk(s)):
        ev.attr_facts = None  # d["mu"] = x: an alias of vars(self), or a __setitem__ that runs code
        return
    stored = {n.attr for n in ast.walk(s) if isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load)}
    named = {n.id for n in ast.walk(s) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    if stored or named:  # self.mu = ..., other.mu = ...; self = ..., (self := ...), [... for self in ...]
        ev.attr_facts = {k: v for k, v in ev.attr_facts.items() if k[2] not in stored and k[1] not in named} or None


def after_call(ev, node: ast.Call) -> None:
    """A call ran: it may have stored into any object, unless it is a method of a tensor (the
    receiver proven one, or an attribute a fact holds; not a torch function, which may hand an
    argument's ``__torch_function__`` the call, nor ``torch.load``, which may run code); nor
    a method that runs Python code (``backward()``'s hooks, ``apply_(f)``, any method where the
    module may replace tensors' methods: ``torch.Tensor.abs = f``), nor one passed
    anything but constants and proven tensors (a method hands an argument's
    ``__torch_function__`` the call as a torch function does)."""
    f = node.func
    if isinstance(f, ast.Attribute) and f.attr not in _RUNS_CODE and not ev.retypes \
            and all(_plain_arg(ev, a) for a in [*node.args, *(k.value for k in node.keywords)]):
        recv = ev.cache.get(id(f.value))
        if recv is not None and recv.kind == TENSOR or isinstance(f.value, ast.Attribute) \
                and isinstance(f.value.value, ast.Name) \
                and (id(ev.closure_func), f.value.value.id, f.value.attr) in ev.attr_facts:
            return
    ev.attr_facts = None


def _plain_arg(ev, a: ast.AST) -> bool:
    """A constant, or a value proven a tensor: no ``__torch_function__`` of another class."""
    if isinstance(a, ast.Constant):
        return True
    got = ev.cache.get(id(a))
    return got is not None and got.kind == TENSOR
