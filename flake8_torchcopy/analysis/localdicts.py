"""Local dicts: a value read back from a dict by a constant key.

``d = {"a": torch.zeros(3)}`` then ``torch.tensor(d["a"])``: ``d["a"]`` is that tensor
when the dict display has only ``str``/``int`` constant keys (no ``**``), and ``d`` stays
local (:func:`dict_sources`): every binding of ``d`` in its scope is
``d = <that display>`` or ``d = <call>``, and every read of ``d`` is ``d[k]``, ``d.keys()``/
``.values()``/``.items()``/``.get(...)``/``.copy()``, a test, ``k in d``, iteration or
``return d``, or a statement ``d["k"] = v`` with a constant key (:func:`store` follows
it): no other name holds the dict, nothing else stores into it.

A call of a method of the class (``s = self.stats()``, the ``def`` found as
:func:`.selfmethods.resolve` finds it) or of a module-level function bound once
(:func:`.returns.bound_once`) whose every ``return`` is a dict display is a fresh dict
too: what each key holds is what every ``return`` puts there, the function walked once
with its parameters unknown (:func:`.returnwalker.walker_of`), a key missing from one
``return`` unknown.  A method may be overridden by a subclass in another module: a tensor
read so carries :data:`SELF_METHOD` (reported, fixes unsafe).

Only the kind of a value travels (and ``permuted_by``), never its sizes or strides: the
tensor may have changed layout in place since the dict was made.  Asked only where a
subscript reads a name bound to such a dict.
"""
from __future__ import annotations

import ast
import re
from typing import Dict, List, Optional, Tuple, Union, cast

from .dictkeys import kept_values
from .locallists import Parents, every_use, scope_of
from .nodeindex import children
from .values import ANNOTATED, NOT, TENSOR, UNKNOWN, UNKNOWN_VALUE, Value, join

SELF_METHOD = "it is proven only by what a method of the class returns (a subclass may override it)"

Key = Union[str, int]
_TABLE = "_dict_entries"  # ev.__dict__: id(value) -> _Entry


class _Entry:
    """A dict value: where it was made, what its keys hold (``func``: worked out when first
    read, from the returns of that ``def``) and what any other key may hold (``rest``; None:
    no other key)."""

    __slots__ = ("value", "origin", "keys", "func", "caveat", "rest")

    def __init__(self, value: Value, origin: ast.AST, keys: Optional[Dict[Key, Value]],
                 func: Optional[ast.FunctionDef] = None, caveat: Optional[str] = None,
                 rest: Optional[Value] = None) -> None:
        self.value, self.origin, self.keys, self.func, self.caveat = value, origin, keys, func, caveat
        self.rest = rest


def key_of(node: Optional[ast.AST]) -> Optional[Key]:
    if isinstance(node, ast.Constant) and type(node.value) in (str, int):
        return cast(Key, node.value)
    return None


def _display_keys(node: ast.Dict) -> Optional[list]:
    keys = [key_of(k) for k in node.keys]
    return None if None in keys else keys


def _kind_only(v: Value) -> Value:
    return Value(v.kind, caveat=v.caveat, permuted_by=v.permuted_by, some=v.some, mixed=v.mixed)


def literal(ev, node: ast.Dict, made: Value) -> Value:
    """The value of a dict display (``made``: what it is otherwise), recorded where some value
    is a tensor (or the module may store into a dict) and no item is ``**e``: what its
    constant keys hold; with a computed key, no key known and any holds any of the values."""
    if None in node.keys:
        return made
    held = [ev.cache.get(id(v)) or UNKNOWN_VALUE for v in node.values]
    if not any(h.kind in (TENSOR, ANNOTATED) or h.some for h in held) and not _stored_into(ev):
        return made  # no tensor in it, and the module stores into no dict
    out = Value(NOT, permuted_by=made.permuted_by)
    table = ev.__dict__.setdefault(_TABLE, {})
    keys = _display_keys(node)
    if keys is None:
        table[id(out)] = _Entry(out, node, {}, rest=join_all([_kind_only(h) for h in kept_values(node, held)]))
    else:
        table[id(out)] = _Entry(out, node, {k: _kind_only(h) for k, h in zip(keys, held)})
    return out


def comprehension(ev, node: ast.DictComp) -> Value:
    """A dict comprehension: no key known, every value what its value expression is (recorded
    where that is a tensor on some path)."""
    held = ev.cache.get(id(node.value)) or UNKNOWN_VALUE
    out = Value(NOT)
    if held.kind in (TENSOR, ANNOTATED) or held.some:
        ev.__dict__.setdefault(_TABLE, {})[id(out)] = _Entry(out, node, {}, rest=_kind_only(held))
    return out


def _returns_dicts(func: ast.FunctionDef, text: str) -> bool:
    """Does every ``return`` of ``func`` (none in nested scopes) give a dict display with
    constant keys, a dict comprehension, or a name ``func`` binds only to dict displays and
    comprehensions and hands to nothing (:func:`_bound_to_displays`)?  (Undecorated, no
    generator, ending in a ``return``: the caller's; ``text``: ``func``'s.)"""
    stack: List[ast.AST] = list(func.body)
    names = set()
    found = False
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, ast.Return):
            v = n.value
            if isinstance(v, ast.Name):
                names.add(v.id)
            elif not (isinstance(v, ast.Dict) and _display_keys(v) is not None or isinstance(v, ast.DictComp)):
                return False
            found = True
        stack.extend(children(n))
    return found and all(_bound_to_displays(func, name, text) for name in names)


def _bound_to_displays(func: ast.FunctionDef, name: str, text: str) -> bool:
    """Is ``name`` bound in ``func`` only by ``name = {...}`` / ``{k: v for ...}`` and kept local
    (:func:`dict_sources`, asked only when the bindings are such)?"""
    if f"{name} = {{" not in text:
        return False  # no display bound to it (a quick look first)
    bound = [n.value for n in ast.walk(func) if isinstance(n, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    if not bound or not all(isinstance(v, (ast.Dict, ast.DictComp)) for v in bound):
        return False
    sources = dict_sources(func, name, text)
    return sources is not None and all(id(v) in sources for v in bound)


def _def_in(tree: ast.Module, cls: Optional[ast.ClassDef], m: str) -> Optional[ast.FunctionDef]:
    """The ``def m`` of ``cls`` or of its chain of single bases in the module (a quick look:
    :func:`.selfmethods.resolve` decides)."""
    for _ in range(8):
        if cls is None:
            return None
        for s in cls.body:
            if isinstance(s, ast.FunctionDef) and s.name == m:
                return s
        if len(cls.bases) != 1 or not isinstance(cls.bases[0], ast.Name):
            return None
        name = cls.bases[0].id
        found = [s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == name]
        cls = found[0] if len(found) == 1 else None
    return None


def call(ev, node: ast.Call, defn: Optional[ast.AST]) -> Optional[Value]:
    """``self.m(...)`` (``defn`` None) or ``f(...)`` of a module-level ``def`` (``defn``)
    that returns a fresh dict display on every path: a dict value whose keys are worked out
    when read."""
    if ev.__dict__.get("no_self_methods") or not getattr(ev, "walks_returns", True):
        return None  # the walker summarising a function (also while it walks the module): one level
    has = ev.__dict__.get("_returns_display")
    if has is None:
        has = ev.__dict__["_returns_display"] = "return {" in ev.source or "= {" in ev.source
    tree = getattr(ev, "tree", None)
    if not has or not isinstance(tree, ast.Module):
        return None
    caveat = None
    if defn is None:
        from .selfmethods import resolve
        func = node.func
        cls = ev.method_of
        if cls is None or ev.self_value is None or not isinstance(func, ast.Attribute) \
                or not isinstance(func.value, ast.Name) or ev.lookup(func.value.id) is not ev.self_value:
            return None
        memo: Dict[Tuple[int, str], Optional[ast.FunctionDef]] = ev.__dict__.setdefault("_dict_methods", {})
        key = (id(cls), func.attr)
        if key not in memo:  # the def's returns first (cheap), then resolve's scans of the text
            found = _def_in(tree, cls, func.attr)
            memo[key] = resolve(tree, ev.source, cls, func.attr) \
                if found is not None and _returns_dicts(found, ev.idx.text(found)) else None
        d = memo[key]
        caveat = SELF_METHOD
    else:
        known: Dict[int, bool] = ev.__dict__.setdefault("_dict_functions", {})
        if id(defn) not in known:
            known[id(defn)] = _function_returns_dicts(defn, tree, ev.source, ev.idx.text(defn))
        if not known[id(defn)]:
            return None
        d = cast(ast.FunctionDef, defn)
    if d is None:
        return None
    out = Value(NOT)
    ev.__dict__.setdefault(_TABLE, {})[id(out)] = _Entry(out, node, None, d, caveat)
    return out


def _function_returns_dicts(defn: ast.AST, tree: ast.Module, source: str, text: str) -> bool:
    """Is ``defn`` a plain module-level ``def``, bound once, whose every return is a fresh dict?"""
    from .returns import bound_once, module_names
    return isinstance(defn, ast.FunctionDef) and not defn.decorator_list and bool(defn.body) \
        and isinstance(defn.body[-1], ast.Return) and _returns_dicts(defn, text) \
        and not any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(defn)) \
        and bound_once(defn.name, module_names(tree, source))


Summary = Tuple[Dict[Key, Value], Optional[Value]]  # what each key holds, what any other may


def _summary(ev, func: ast.FunctionDef) -> Summary:
    """What each key holds on every ``return`` of ``func`` (walked once per module), and what
    any other key may hold (a key only some returns have among them)."""
    memo: Dict[int, Summary] = ev.__dict__.setdefault("_dict_returns", {})
    if id(func) in memo:
        return memo[id(func)]
    memo[id(func)] = ({}, UNKNOWN_VALUE)  # a cycle, or a failure below: nothing known
    from .returnwalker import module_returns
    values = module_returns(ev, func)
    table = ev.__dict__["_method_walker"].__dict__.get(_TABLE, {})  # the walker module_returns made
    out: Optional[Dict[Key, Value]] = None
    rest: Optional[Value] = None
    for v in values or [None]:
        entry = table.get(id(v)) if v is not None else None
        if entry is None or entry.value is not v or entry.keys is None:
            return memo[id(func)]  # a return whose dict holds no tensor (or was not walked)
        if out is None:
            out, rest = dict(entry.keys), entry.rest
            continue
        dropped = [x for k, x in out.items() if k not in entry.keys] \
            + [x for k, x in entry.keys.items() if k not in out] + [x for x in (entry.rest,) if x is not None]
        out = {k: join(out[k], entry.keys[k]) for k in out if k in entry.keys}
        rest = join_all(([rest] if rest is not None else []) + dropped)
    memo[id(func)] = (out or {}, rest)
    return memo[id(func)]


def _certain(v: Value) -> Value:
    """``v`` where it is certainly a tensor, or certainly none; else unknown (no "some paths")."""
    return v if v.kind != UNKNOWN else UNKNOWN_VALUE


def join_all(values: List[Value]) -> Optional[Value]:
    out: Optional[Value] = None
    for v in values:
        out = v if out is None else join(out, v)
    return out


def _stored_into(ev) -> bool:
    """May the module store into a dict (``d["a"] = t``, ``d.update(e)``)?  A quick look at its text."""
    known = ev.__dict__.get("_dict_stores")
    if known is None:
        known = ev.__dict__["_dict_stores"] = ".update(" in ev.source or bool(_KEY_STORE.search(ev.source))
    return known


# led by the literal ``[`` (the word before it checked behind): a pattern led by ``\w`` is
# tried at every position of the file
_KEY_STORE = re.compile(r"\[(?<=\w\[)\s*(?:\d|['\"])[^\]\n]*\]\s*=(?!=)")


def entry_of(ev, base: Value) -> Optional[_Entry]:
    """The record of the dict ``base``, with what its keys hold worked out."""
    table = ev.__dict__.get(_TABLE)
    entry = table.get(id(base)) if table else None
    if entry is None or entry.value is not base:
        return None
    if entry.keys is None:
        entry.keys, entry.rest = _summary(ev, entry.func) if entry.func is not None else ({}, UNKNOWN_VALUE)
        if entry.caveat is not None:
            entry.keys = {key: v.with_(caveat=v.caveat or entry.caveat) for key, v in entry.keys.items()}
            if entry.rest is not None:
                entry.rest = entry.rest.with_(caveat=entry.rest.caveat or entry.caveat)
    return entry


def store(ev, target: ast.Subscript, held: Value) -> Optional[Value]:
    """``d[k] = v`` with a constant ``k``, ``d`` a name bound to a dict recorded here: the
    dict after the store (a new value from the same display, ``k`` now holding ``v``'s
    kind); a store by another key leaves what the dict holds unknown.  None where ``d`` is
    no such dict.  (:func:`item` trusts it only where ``d`` stays local: every store into
    it is such a statement, :func:`dict_sources`.)"""
    if not isinstance(target.value, ast.Name):
        return None
    base = ev.lookup(target.value.id)
    entry = entry_of(ev, base)
    if entry is None:
        return None
    k = key_of(target.slice)
    if k is None:
        return Value(NOT, permuted_by=base.permuted_by)
    keys = dict(cast(Dict[Key, Value], entry.keys))
    keys[k] = _kind_only(held)
    return _made(ev, base, entry, keys, entry.rest)


def _made(ev, base: Value, entry: _Entry, keys: Dict[Key, Value], rest: Optional[Value]) -> Value:
    out = Value(NOT, permuted_by=base.permuted_by)
    ev.__dict__[_TABLE][id(out)] = _Entry(out, entry.origin, keys, rest=rest)
    return out


def mutated(ev, node: ast.Call) -> bool:
    """``xs.append(x)`` (:func:`.numpyish.appended`; True) or ``d.update(e)`` of a name bound
    to a dict recorded here (True): the name now holds what the list or dict holds after it.
    ``d.update(e)`` with ``e`` one plain argument, a dict display, comprehension or call that
    made a dict recorded here, adds its keys (any key it may hold may replace each of
    ``d``'s); with anything else what ``d`` holds is no longer known."""
    func = cast(ast.Attribute, node.func)
    if not isinstance(func.value, ast.Name):
        return False
    if func.attr == "append":
        from .numpyish import appended
        appended(ev, node)
        return True
    name = func.value.id
    base = ev.env.get(name)
    entry = entry_of(ev, base) if base is not None else None
    if entry is None:
        return False
    arg = node.args[0] if len(node.args) == 1 and not node.keywords else None
    src = entry_of(ev, ev.cache.get(id(arg)) or UNKNOWN_VALUE) \
        if isinstance(arg, (ast.Dict, ast.DictComp, ast.Call)) else None
    if src is None:
        ev.env[name] = Value(NOT, permuted_by=base.permuted_by)
        return True
    keys = dict(cast(Dict[Key, Value], entry.keys))
    if src.rest is not None:  # a key it may hold replaces each: a tensor only if both are
        keys = {k: _certain(join(x, src.rest)) for k, x in keys.items()}
    keys.update(cast(Dict[Key, Value], src.keys))
    ev.env[name] = _made(ev, cast(Value, base), entry, keys,
                         join_all([x for x in (entry.rest, src.rest) if x is not None]))
    return True


def item(ev, node: ast.Subscript, base: Value) -> Optional[Value]:
    """``d[k]`` of a name bound to a dict recorded here, when the dict stays local; ``f()[k]``
    of a dict a call just made."""
    entry = entry_of(ev, base)
    if entry is None or not isinstance(node.value, (ast.Name, ast.Call)):
        return None
    if not isinstance(node.ctx, ast.Load) or isinstance(node.slice, ast.Slice):
        return None
    k = key_of(node.slice)
    keys = cast(Dict[Key, Value], entry.keys)
    held: Optional[Value] = keys[k] if k is not None and k in keys else None
    if held is None:  # d["b"] of a key not listed, d[name]: what any key may hold, where certainly a tensor
        held = join_all(([] if k is not None else list(keys.values())) + [x for x in (entry.rest,) if x])
        if held is None or held.kind not in (TENSOR, ANNOTATED):
            return None
    return held if isinstance(node.value, ast.Call) or stays_local(ev, node.value, entry) else None


def stays_local(ev, name: ast.Name, entry: _Entry) -> bool:
    """Does the dict of ``entry``, read through ``name``, stay local (:func:`dict_sources`),
    and did it come to the name from where it was made (not through another name)?"""
    local: Dict[Tuple[int, str], Optional[frozenset]] = ev.__dict__.setdefault("_dict_local", {})
    scope = scope_of(ev, ev.tree, name)
    memo_key = (id(scope), name.id)
    if memo_key not in local:
        text = ev.source if isinstance(scope, ast.Module) else ev.idx.text(scope)
        local[memo_key] = dict_sources(scope, name.id, text)
    sources = local[memo_key]
    return sources is not None and id(entry.origin) in sources


_DICT_READS = frozenset({"keys", "values", "items", "get", "copy"})


def dict_sources(scope: ast.AST, name: str, source_text: str) -> Optional[frozenset]:
    """The ids of the expressions ``name`` is bound to in ``scope`` when each binding is
    ``name = {...}``, ``{k: v for ...}`` or ``<call>`` (one target) and each read of ``name``
    is ``name[k]``, a call of ``name.keys``/``values``/``items``/``get``/``copy``, a test, ``k
    in name``, iteration, ``return name``, a statement ``name["k"] = v`` (a constant key) or
    ``name.update(e)`` (one plain argument; the walker follows both): no other name holds the
    dict, nothing else stores into it.  None otherwise (or where :func:`uses_in_scope` does not follow)."""
    sources = set()

    def store(node: ast.Name, parent: ast.AST, parents: Parents) -> bool:
        if isinstance(parent, ast.Assign) and parent.targets == [node] \
                or isinstance(parent, ast.AnnAssign) and parent.target is node and parent.value is not None:
            if isinstance(parent.value, (ast.Dict, ast.DictComp, ast.Call)):
                sources.add(id(parent.value))
                return True
        return False

    if not every_use(scope, name, source_text, store, _dict_read):
        return None
    return frozenset(sources) if sources else None


def _dict_read(node: ast.Name, parent: ast.AST, parents) -> bool:
    if isinstance(parent, ast.Subscript) and parent.value is node:
        if isinstance(parent.ctx, ast.Store):  # d["k"] = v: a statement the walker follows
            above = parents.get(id(parent))
            key = parent.slice
            return isinstance(above, ast.Assign) and above.targets == [parent] \
                and isinstance(key, ast.Constant) and type(key.value) in (str, int)
        return isinstance(parent.ctx, ast.Load)
    if isinstance(parent, ast.Attribute) and (parent.attr in _DICT_READS or parent.attr == "update"):
        call = parents.get(id(parent))  # d.update(e): a statement the walker follows
        return isinstance(call, ast.Call) and call.func is parent and (parent.attr != "update" or isinstance(
            parents.get(id(call)), ast.Expr) and len(call.args) == 1 and not call.keywords
            and not isinstance(call.args[0], ast.Starred))
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)) and parent.iter is node:
        return True
    if isinstance(parent, (ast.If, ast.While, ast.IfExp)) and parent.test is node:
        return True
    if isinstance(parent, ast.Compare) and node in parent.comparators:
        return all(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)
    if isinstance(parent, ast.Return) and parent.value is node:
        return True
    return isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)
