"""Names a function lets out of its hands without a call: into a container or an attribute.

``xs = [t]``, ``h.t = t``, ``d["k"] = t``, ``self.t = t``, ``xs = [t] * 2``, ``xs += [t]``,
``setattr(h, "t", t)``, ``G = t`` of a ``global G``: a function that later gets the
container, the object or ``self`` (``helper(xs)``, ``fix(h)``, ``self.helper()``) reaches
``t`` and may change it in place (``t.__class__ = C``, ``t.data = t.data.contiguous()``:
checked with torch in tests/test_review_left.py and tests/test_review18.py).  So does a
nested def or lambda that reads ``t`` (a callback), and ``locals()``.  :func:`note` records
them as the evaluator binds (so in the order the code runs; a loop's second pass sees its
first's), per function (the module's code counts as one); :func:`let_out` reads them.  An
alias (``u = t``, ``for a in [t]``) is followed: what reaches ``u`` reaches ``t``
(:func:`reached`).  A display handed straight to a call is the call's
(:func:`.subclasses.handed_over`); one returned, or unpacked at once (``a, b = t, u``),
lets nothing out.
"""
from __future__ import annotations

import ast
from typing import Dict, Iterable, List, Set

from .nodeindex import walk
from .values import TENSOR

_DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.Dict)
_COMPS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_HOLDERS = frozenset(_DISPLAYS + _COMPS + (ast.BinOp, ast.IfExp, ast.Lambda))
_EMPTY: Set[str] = set()


def names_in(node: ast.AST, out: Set[str]) -> None:
    """The names ``node`` holds: itself, the items of a display (nested), a starred item, a
    comprehension's element and what it iterates, the arms of ``a if c else b``, what a
    lambda reads; a ``[t] * 2`` operand (not ``t * 2``: a new tensor)."""
    stack = [node]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is ast.Name:
            out.add(n.id)  # type: ignore[attr-defined]
        elif t is ast.Starred or t is ast.NamedExpr:
            stack.append(n.value)  # type: ignore[attr-defined]
        elif t is ast.Dict:
            stack.extend(v for v in n.values if v is not None)  # type: ignore[attr-defined]
        elif t in (ast.List, ast.Tuple, ast.Set):
            stack += [e for e in n.elts if e.__class__ is not ast.Constant]  # type: ignore[attr-defined]
        elif t in _COMPS:
            stack.append(n.value if t is ast.DictComp else n.elt)  # type: ignore[attr-defined]
            stack.extend(g.iter for g in n.generators)  # type: ignore[attr-defined]
        elif t is ast.IfExp:
            stack.extend((n.body, n.orelse))  # type: ignore[attr-defined]
        elif t is ast.Lambda:
            out.update(w.id for w in ast.walk(n.body) if type(w) is ast.Name)  # type: ignore[attr-defined]
        elif t is ast.BinOp:  # [t] * 2, [t] + ys
            stack.extend(o for o in (n.left, n.right) if type(o) is not ast.Name)  # type: ignore[attr-defined]


def _func_key(ev) -> int:
    func = getattr(ev, "closure_func", None)
    return 0 if func is None else id(func)


def note(ev, target: ast.AST, value_node: ast.AST) -> None:
    """``target = value_node`` lets out the names the value holds: into an attribute or an
    item (``h.t = t``, ``d[k] = [t]``), or into a container bound to a name (``xs = [t]``),
    or a global (``G = t``); ``u = t`` makes ``u`` an alias of ``t``."""
    t = type(target)
    if t is ast.Name:
        vt = type(value_node)
        if vt is ast.Name:
            _alias(ev, target.id, [value_node.id])  # type: ignore[attr-defined]
        if vt not in _HOLDERS and not (_may_declare(ev) and target.id in _declared(ev)):  # type: ignore[attr-defined]
            return
    elif t is not ast.Attribute and t is not ast.Subscript:
        return
    let(ev, [value_node])


def _alias(ev, name: str, of) -> None:
    """``name`` reaches what each name of ``of`` reaches (a tensor's or an alias's only)."""
    env, aliases = ev.env, ev.__dict__.setdefault("_aliases", {}).setdefault(_func_key(ev), {})
    of = [n for n in of if n in aliases or _traced(env.get(n))]
    if of:
        aliases.setdefault(name, set()).update(reached(ev, of))


def _traced(v) -> bool:
    return v is not None and (v.kind == TENSOR or v.sizes is not None or v.open_layout is not None)


def _may_declare(ev) -> bool:
    """Does the module declare some name ``global`` or ``nonlocal`` (wherever the statement
    stands: ``if flag: global G`` too)?  The walker's own scan (:func:`.flow._declared`)."""
    return bool(ev.globals_ or ev.nonlocals)


def alias_iter(ev, target: ast.AST, iter_node: ast.AST) -> None:
    """``for a in [t, u]``: ``a`` is an alias of each name the display holds."""
    if type(target) is ast.Name and type(iter_node) in _DISPLAYS + _COMPS:
        held: Set[str] = set()
        names_in(iter_node, held)
        _alias(ev, target.id, held)


def let(ev, nodes: Iterable[ast.AST]) -> None:
    """The names ``nodes`` hold are let out (``setattr(h, "t", t)``, ``xs += [t]``)."""
    out: Dict[int, Set[str]] = ev.__dict__.setdefault("_let_out", {})
    for n in nodes:
        names_in(n, out.setdefault(_func_key(ev), set()))


def reached(ev, names: Iterable[str]) -> Set[str]:
    """``names`` and the names they alias (``u = t``: what reaches ``u`` reaches ``t``)."""
    aliases = ev.__dict__.get("_aliases", {}).get(_func_key(ev))
    if not aliases:
        return set(names)
    out: Set[str] = set()
    todo: List[str] = list(names)
    while todo:
        n = todo.pop()
        if n not in out:
            out.add(n)
            todo.extend(aliases.get(n, ()))
    return out


def let_out(ev, held_values: bool = True) -> Set[str]:
    """The names the function walked now has let out so far (:func:`note`), and, where some
    name holds a value a call may change (``held_values``), those its nested defs and
    lambdas read (a callback handed on), every name where it calls ``locals()`` (their
    aliases: :func:`reached`)."""
    func = getattr(ev, "closure_func", None)
    out = ev.__dict__.get("_let_out", {}).get(0 if func is None else id(func), _EMPTY)
    if func is None or not held_values:
        return out
    closed = _closed_over(ev, func)
    return out | closed if closed else out


def may_close_over(ev) -> bool:
    """May the function walked now hand on a callback (a nested def, a lambda) or call
    ``locals()``?  A look at its text, once per function."""
    func = getattr(ev, "closure_func", None)
    if func is None:
        return False
    known: Dict[int, bool] = ev.__dict__.setdefault("_may_close", {})
    found = known.get(id(func))
    if found is None:
        text = ev.idx.text(func)
        found = known[id(func)] = "lambda" in text or "locals(" in text or "vars(" in text or text.count("def ") > 1
    return found


def _closed_over(ev, func: ast.AST) -> Set[str]:
    known: Dict[int, Set[str]] = ev.__dict__.setdefault("_closed_over", {})
    found = known.get(id(func))
    if found is None:
        found = known[id(func)] = set()
        for n in walk(func):
            if n is not func and type(n) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
                found.update(w.id for w in walk(n) if type(w) is ast.Name)
            elif type(n) is ast.Call and type(n.func) is ast.Name and n.func.id in ("locals", "vars") \
                    and not n.args:
                found.update(w.id for w in walk(func) if type(w) is ast.Name)
    return found


def _declared(ev) -> Set[str]:
    """The names the function walked now declares ``global`` or ``nonlocal``."""
    func = getattr(ev, "closure_func", None)
    if func is None:
        return _EMPTY
    known: Dict[int, Set[str]] = ev.__dict__.setdefault("_declared", {})
    found = known.get(id(func))
    if found is None:
        text = ev.idx.text(func)  # (the statement may stand anywhere: ``if flag: global G``)
        found = known[id(func)] = _EMPTY if "global" not in text and "nonlocal" not in text else {
            name for n in walk(func) if type(n) in (ast.Global, ast.Nonlocal)
            for name in n.names}  # type: ignore[attr-defined]
    return found
