"""Layouts of ``f(...)``: what a module-level function of the module returns, on every path.

``J = vertices2joints(reg, verts)`` where ``vertices2joints`` returns
``torch.einsum('bik,ji->bjk', ...)``: the call's value is a tensor of rank 3 laid out
densely in the order ``(b, k, j)``, with sizes of its own (symbols of the call,
``vertices2joints(reg, verts).size(i)``; a size the function's text fixes to a number
keeps it).  The function is walked once per module with its parameters unknown (untraced
tensors assumed contiguous, as in any function's own body) by the walker of returns
(:func:`.returnwalker.module_returns`); every ``return`` must give the same order of a
dense tensor of the same rank (:func:`.selfmethods._order`, the assumptions set aside).
What the layout assumed (an einsum's sizes above 1) is said of the call's sizes where it
is a size of a returned dim, else named as a condition "in f".

Which function runs: the call is ``f(...)`` of a name bound only by its module-level
``def`` (:func:`.returns.def_bound_once`: no other binding, no ``global``, no
``exec``/``globals()``), undecorated, no generator, ending in a ``return``.  A subclass
cannot override it.  Assumed, as for the tensor-ness of such calls (:mod:`.returns`): no
other module rebinds ``mod.f``; a view judged to raise on such a layout is reported, its
fix unsafe (:func:`returned_here`, as :attr:`.views.ViewJudgement.elsewhere`).  The
layout the body gives rests on its parameters' layouts only as an untraced tensor's
does; an argument the caller knows to be laid out otherwise (marked permuted, or strides
that are not contiguous) gives no layout.  Cost: only in modules holding ``view(``, for
functions whose text permutes or runs ``einsum``; the walk is once per function.
"""
from __future__ import annotations

import ast
import re
from typing import Dict, List, Optional, Set, Tuple

from . import layout as L
from .symbolic import Condition, Mono, Sym
from .values import NOT, TENSOR, UNKNOWN, Value

_KEY = "module-function"
_LAYING = ("permute", "transpose", ".t(", ".T", ".mT", "swapaxes", "movedim", "moveaxis", "einsum")


def returns_lay(func: ast.FunctionDef, text_of) -> bool:
    """Does every ``return`` of ``func`` give an expression whose text permutes (or runs
    ``einsum``), or a name a statement with such text binds?  (A text check, before any walk.)"""
    from .returns import own_nodes
    rets: List[ast.Return] = []
    laid: Set[str] = set()
    for n in own_nodes(func):
        if isinstance(n, ast.Return):
            rets.append(n)
        elif isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and any(w in text_of(n) for w in _LAYING):
            laid.update(t.id for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                        if isinstance(t, ast.Name))
    return bool(rets) and all(r.value is not None and (r.value.id in laid if isinstance(r.value, ast.Name)
                                                       else any(w in text_of(r.value) for w in _LAYING))
                              for r in rets)


def returns_lay_text(lines: List[str]) -> bool:
    """:func:`returns_lay` by the lines of the text alone (the trigger groups' check): every
    line that starts with ``return`` holds a permuting word, or returns a name a line
    ``name = ...`` holding one binds."""
    rets = [t.strip()[6:].strip() for t in lines if t.lstrip().startswith("return")]
    if not rets:
        return False
    for r in rets:
        if any(w in r for w in _LAYING):
            continue
        if not r.isidentifier() or not any(re.match(r"\s*%s\s*=[^=]" % r, t) and any(w in t for w in _LAYING)
                                           for t in lines):
            return False
    return True


def returned_here(sym: Sym) -> bool:
    """Is this a size of what a module-level function's call returned (its fix unsafe)?"""
    key = sym.key[1]
    return isinstance(key, tuple) and bool(key) and key[0] == _KEY


Summary = Optional[Tuple[Tuple[int, ...], Tuple[Mono, ...], Tuple[Sym, ...], str]]


def _summary(ev, func: ast.FunctionDef) -> Summary:
    """(order, the returned sizes, what the layout assumed) of every return."""
    from .returns import exits_by_return
    from .returnwalker import module_returns
    from .selfmethods import _order
    if not exits_by_return(func) or not returns_lay(func, ev.idx.text):
        return None
    values = module_returns(ev, func)
    if not values or any(v is None or v.kind == NOT for v in values):
        return None
    orders = {_order(v.with_(assumes=frozenset())) for v in values}
    order = orders.pop() if len(orders) == 1 else None
    if order is None or not 2 <= len(order) <= 6:
        return None
    rows = [tuple(w.sizes) for w in values if w is not None and w.sizes is not None]
    # a size every return fixes to one number keeps it; any other is the call's own
    sizes = tuple(r[0] if not r[0].powers and all(o[i] == r[0] for o in rows) else Mono.sym(Sym("?", None))
                  for i, r in enumerate(zip(*rows)))
    sizes = tuple(rows[0][i] if len(rows) == 1 else m for i, m in enumerate(sizes))
    assumes = frozenset().union(*(w.assumes for w in values if w is not None))
    kind = TENSOR if all(w is not None and w.kind == TENSOR for w in values) else UNKNOWN
    return order, sizes, tuple(sorted(assumes, key=lambda s: s.name)), kind


def _plain(v: Value) -> bool:
    """Is an argument laid out as the walk of the function took its parameters (not known otherwise)?"""
    if v.permuted_by or v.open_layout is not None:
        return False
    if v.sizes is None or v.strides is None:
        return True
    if None in v.sizes or None in v.strides:
        return False
    return tuple(v.strides) == tuple(L.contiguous_strides(list(v.sizes)))


def later_def(ev, node: ast.Call, func: Value) -> Optional[ast.FunctionDef]:
    """The module-level ``def`` a call ``f(...)`` runs where ``f`` is defined after the
    function being walked (its walk sees the names bound before its ``def``): the function
    walked is one of the module or a method of one of its classes (no enclosing function
    may bind ``f``), ``f`` is none of its locals, and the module binds ``f`` by one ``def``
    (:func:`call_value` checks that)."""
    name = node.func.id  # type: ignore[attr-defined]
    known = ev.__dict__.get("_later_defs")
    if known is None:  # once per module: the defs of the module, the functions that may call them
        tree = getattr(ev, "tree", None)
        if not isinstance(tree, ast.Module) or not ev.has["view("]:
            known = ev.__dict__["_later_defs"] = ({}, frozenset())
        else:
            named: Dict[str, List[ast.FunctionDef]] = {}
            for s in tree.body:
                if isinstance(s, ast.FunctionDef):
                    named.setdefault(s.name, []).append(s)
            tops = {id(s) for s in tree.body}
            tops |= {id(m) for c in tree.body if isinstance(c, ast.ClassDef) for m in c.body}
            known = ev.__dict__["_later_defs"] = ({n: d[0] for n, d in named.items() if len(d) == 1}, frozenset(tops))
    defn, closure = known[0].get(name), ev.closure_func
    if defn is None or func.kind != UNKNOWN or func.qualname is not None or func.local_def or closure is None \
            or id(closure) not in known[1] or name in ev.env or name in ev.outer \
            or name in ev.local_names(closure)[0]:
        return None
    return defn


def module_call(ev, node: ast.Call, func: Value, args: List[Value]) -> Optional[Value]:
    """The value of ``f(...)`` of a module-level ``def``: a tensor (:mod:`.returns`, by the
    returns' forms, else by their data flow), with the layout every return has; a dict."""
    defn = ev.module_defs.get(func)
    if defn is None:
        later = later_def(ev, node, func) if isinstance(node.func, ast.Name) else None
        return call_value(ev, node, later, args) if later is not None else None
    if id(defn) not in ev.tensor_returns:
        from .returns import returns_tensor
        from .returnwalker import walked_returns
        ev.tensor_returns[id(defn)] = Value(TENSOR) if returns_tensor(defn, ev.static_qualname) \
            else walked_returns(ev, defn)
    made = ev.tensor_returns[id(defn)]
    laid = call_value(ev, node, defn, args) if isinstance(defn, ast.FunctionDef) else None
    if laid is not None:  # every return is one dense layout
        return laid.with_(caveat=made.caveat) if made is not None and made.caveat else laid
    if made is not None:
        return made
    from .somereturns import some_call
    some = some_call(ev, node, defn)  # a tensor on the main path only
    if some is not None:
        return some
    from .localdicts import call
    return call(ev, node, defn)  # f() returning {...}


def _viewed_after(ev, node: ast.Call) -> bool:
    """May what the call returns be viewed (the cost rule: a function is summarised only
    for such a call)?  ``f(...)`` on a line with ``.view(``, or ``y = f(...)`` in a
    function whose text views ``y`` or passes it to a call."""
    s = ev.current_stmt
    if s is None:
        return False
    if ".view(" in ev.idx.text(s):
        return True
    if not (isinstance(s, ast.Assign) and s.value is node and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Name)):
        return False
    return viewed_or_passed(ev.idx.text(ev.closure_func), s.targets[0].id)


_WORD_CHAR = re.compile(r"\w")
_THEN_VIEW = re.compile(r"\s*\.\s*view\(")


def viewed_or_passed(text: str, name: str) -> bool:
    """Does ``text`` view ``name`` (``name.view(``) or pass it to a call (``f(a, name``: the
    name after a call's ``(`` with no bracket between)?  A plain name, not an attribute; a
    search from each occurrence of the name (a pattern led by the call would be tried at
    every position of the text)."""
    n = len(name)
    pos = text.find(name)
    while pos >= 0:
        end = pos + n
        if not (pos and (text[pos - 1] == "." or _WORD_CHAR.match(text, pos - 1))):
            if _THEN_VIEW.match(text, end):
                return True
            if not _WORD_CHAR.match(text, end):
                bracket = max(text.rfind("(", 0, pos), text.rfind(")", 0, pos))
                if bracket >= 0 and text[bracket] == "(":
                    k = bracket - 1
                    while k >= 0 and text[k].isspace():
                        k -= 1
                    if k >= 0 and _WORD_CHAR.match(text, k):
                        return True
        pos = text.find(name, pos + 1)
    return False


def call_value(ev, node: ast.Call, defn: ast.FunctionDef, args: List[Value]) -> Optional[Value]:
    """The value of ``f(...)`` (``node``) where every return of ``defn`` is one dense layout."""
    has_view = ev.__dict__.get("_has_view")
    if has_view is None:
        has_view = ev.__dict__["_has_view"] = "view(" in ev.source
    if not has_view or not getattr(ev, "walks_returns", True) or ev.__dict__.get("no_self_methods") \
            or ev.closure_func is None or "view(" not in ev.idx.text(ev.closure_func):
        return None  # only where the function calling f views something
    if not _viewed_after(ev, node):
        return None
    memo: Dict[int, Summary] = ev.__dict__.setdefault("_function_layouts", {})
    if id(defn) not in memo:
        from .returns import def_bound_once
        memo[id(defn)] = None  # a cycle: unknown
        memo[id(defn)] = _summary(ev, defn) if def_bound_once(defn, ev.static_qualname) else None
    found = memo[id(defn)]
    if found is None:
        return None
    passed = args + [ev.cache.get(id(k.value)) for k in node.keywords]
    if any(a is not None and a.kind != NOT and not _plain(a) for a in passed):
        return None
    order, inner, assumed, kind = found
    text = ev.idx.text(node)
    sizes: List[Mono] = [m if not m.powers else Mono.sym(Sym(f"{text}.size({i})", (_KEY, id(node), i)))
                         for i, m in enumerate(inner)]
    mem = L.contiguous_strides([sizes[i] for i in order])
    strides = [mem[0]] * len(order)
    for k, i in enumerate(order):
        strides[i] = mem[k]
    dims = {f"{next(iter(m.atoms())).name} == 1": new for m, new in zip(inner, sizes)
            if m.powers and len(list(m.atoms())) == 1 and m == Mono.sym(next(iter(m.atoms())))}
    assumes = frozenset(next(iter(dims[s.name].atoms())) if s.name in dims
                        else Condition(f"{s.name} in {defn.name}()") for s in assumed)
    permuted = tuple(order) != tuple(range(len(order)))
    return Value(kind, sizes=tuple(sizes), strides=tuple(strides),
                 permuted_by=f"{defn.name}(...)" if permuted else None, assumes=assumes)

