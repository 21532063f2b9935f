"""Attribute summaries: which attributes of a class hold a tensor in its methods.

``self.gain = nn.Parameter(...)`` or ``self.register_buffer("mean", torch.zeros(3))``
in one method makes ``self.gain`` / ``self.mean`` a tensor in the others, when every
store of that attribute anywhere in the module is one of these, made on the method's
own ``self``, in that class (:func:`tensor_attributes`).  "Every store" is every node
the tree stores or deletes the attribute with: tuple and starred targets, ``for`` and
comprehension targets, ``with ... as``, augmented assignments and ``del`` count, and
so do ``register_buffer``/``register_parameter``/``add_module``/``register_module``
calls naming it on any object.  None is summarised where the module holds a form that
stores without showing it (``setattr``, ``__dict__``, ``vars``, ``exec``, ``__setattr__``,
``_buffers``...), a register call with a computed name, or where the class may run
with a ``self`` that is no instance of it (a method reached through the class object:
``Cls.method(other)``, ``cls.m``/``type(x).m``/``x.__class__.m``, ``super()`` in a
class method, ``__func__``, a method named in a string, the class passed around as a
value).  The class and its bases in the module must be undecorated, without keywords,
and derive from nothing but classes of the module, ``object``, ``nn.Module`` (or torch.nn's
loss bases ``_Loss``/``_WeightedLoss``: :data:`.torchapi.LOSS_BASES`) and
``torch.utils.data.Dataset`` (a base from elsewhere may define a property, a setter or
``__setattr__``); the attribute must
be no member of any class of the module, and of ``nn.Module`` for a module; a register
call counts only in an ``nn.Module`` whose module defines no ``register_buffer`` of its
own.  Cost: the class's own stores are read the first time a method of the class
reads ``self.<attr>`` in code a rule looks at; the module is looked at only when a
candidate attribute (every store of it in the class a tensor) is read: one pass over its
statements, then a walk of only the nodes on the lines where the candidate attributes,
the class's and its subclasses' names and its methods' names occur.  Stores from other
modules (a subclass elsewhere, code setting the attribute from outside, an unbound call
from elsewhere) are not seen.

What a module holds is read through :mod:`.modulefacts` (scopes: :mod:`.scopes`); what
a module-level function returns is :mod:`.returns`'.
"""
from __future__ import annotations

import ast
import re
import weakref
from collections import Counter
from collections.abc import Mapping
from typing import Callable, Dict, FrozenSet, List, Optional, Set

from . import inherited, nncontainers, nnmodules
from .modulefacts import _REGISTER, ModuleFacts, Qualname, _dunder, _source_of, _statements, _tree_of, module_facts
from .nodeindex import walk
from .scopes import _FUNCS, _first_param
from .torchapi import BASE_ATTRIBUTES, LOSS_BASES
from .torchsem import TENSOR_CONSTRUCTORS
from .values import TENSOR, UNKNOWN, Value

#: bases that store, define and intercept no attribute but dunders and these (``Dataset``:
#: ``object``'s ``__setattr__``/``__getattribute__``, no descriptor; checked with torch)
DATA_BASES = frozenset({"torch.utils.data.Dataset", "torch.utils.data.dataset.Dataset"})
DATA_BASE_MEMBERS = frozenset({"_is_protocol"})
MAYBE_NONE = "tensor or None"  # an attribute some stores set to None, the others to a tensor
_MODULE_BASES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})


_STORE_RE = re.compile(r"\.(\w+)\s*(?:(?:[-+*/@%&|^]|//|\*\*|<<|>>)?=(?!=)|:)")


def store_counts(source: str) -> Counter:
    """Places in the text that may store ``.attr`` (``x.attr =``, ``x.attr +=``, ``x.attr:``):
    a quick test (a store elsewhere in the text leaves the attribute unknown at once); the
    tree decides the rest."""
    return Counter(m.group(1) for m in _STORE_RE.finditer(source))


# the text of forms that store attributes without the tree showing the store: a quick
# test, before the tree's walk (which also finds ``e = exec`` and the like)
_ATTR_DYNAMIC_TEXT = ("setattr", "delattr", "__dict__", "__builtins__", "__import__", "import_module",
                      "__getattr", "__func__")
_ATTR_DYNAMIC_WORDS = ("builtins", "_buffers", "_parameters", "_modules")
_ATTR_DYNAMIC_CALLS = ("exec", "eval", "vars", "globals", "locals")
_TEXT_CACHE: List = [None, None]  # (source, whether its text has a dynamic form)


def _has_word(source: str, w: str, call: bool) -> bool:
    """Does ``w`` occur in the text as a whole word (``call``: not after a ``.``, and
    followed by ``(``)?  ``str.find`` (C speed) and a look at the neighbours."""
    n = len(w)
    i = source.find(w)
    while i >= 0:
        before = source[i - 1] if i else " "
        j = i + n
        after = source[j:j + 1]
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            if not call:
                return True
            while source[j:j + 1] in (" ", "\t"):
                j += 1
            if before != "." and source[j:j + 1] == "(":
                return True
        i = source.find(w, i + n)
    return False


def _attr_dynamic_text(source: str) -> bool:
    """Does the text hold a form that stores attributes unseen (``setattr``, ``vars(``,
    ``exec(``, ``_buffers``...)?  Computed once per module."""
    if _TEXT_CACHE[0] is not source:
        found = any(t in source for t in _ATTR_DYNAMIC_TEXT) \
            or any(_has_word(source, w, False) for w in _ATTR_DYNAMIC_WORDS) \
            or any(_has_word(source, w, True) for w in _ATTR_DYNAMIC_CALLS)
        _TEXT_CACHE[:] = [source, found]
    return _TEXT_CACHE[1]


# ------------------------------------------------------------------ class attributes
_STORES = frozenset({ast.Assign, ast.AnnAssign, ast.AugAssign})


def _class_stores(cls: ast.ClassDef, registers: bool):
    """The stores of ``cls``'s methods on their own first parameter: ``{attr: [value nodes]}``
    (None for a value that is no plain assignment), and how many of them are assignment
    targets and register calls."""
    values: Dict[str, List[Optional[ast.AST]]] = {}
    assigned: Counter = Counter()
    registered: Counter = Counter()
    for func in cls.body:
        if not isinstance(func, _FUNCS):
            continue
        me = _first_param(func)
        if me is None:
            continue
        for node in walk(func) if registers else _statements(func):
            c = node.__class__  # (its class first: no call for the many nodes of other classes)
            if c in _STORES and isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me:
                        plain = not isinstance(node, ast.AugAssign) and node.value is not None
                        values.setdefault(t.attr, []).append(node.value if plain else None)
                        assigned[t.attr] += 1
            elif (c is ast.Call and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in _REGISTER and isinstance(node.func.value, ast.Name)
                  and node.func.value.id == me and node.args and isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[0].value, str)):
                name = node.args[0].value
                value = _registered_value(node)
                values.setdefault(name, []).append(value)
                registered[name] += 1
    return values, assigned, registered


def _registered_value(call: ast.Call) -> Optional[ast.AST]:
    """The tensor of ``register_buffer("n", t)`` / ``register_parameter("n", p)`` (also as
    ``tensor=``/``param=``, with ``persistent=``); None for any other form."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    kw = {k.arg: k.value for k in call.keywords}
    if set(kw) - {"tensor", "param", "persistent"}:
        return None
    if len(call.args) == 2 and not (set(kw) & {"tensor", "param"}):
        return call.args[1]
    if len(call.args) == 1:
        found = [kw[k] for k in ("tensor", "param") if k in kw]
        return found[0] if len(found) == 1 else None
    return None


def _own_bases(cls: ast.ClassDef, qualname: Qualname) -> Optional[bool]:
    """What ``cls``'s own line says, before the module is looked at: None when a decorator,
    a keyword or a base from elsewhere that is not ``nn.Module`` may give it attributes the
    module does not show; else whether a base is ``nn.Module``."""
    if cls.decorator_list or cls.keywords:
        return None
    module = False
    for b in cls.bases:
        q = qualname(b)
        if q in _MODULE_BASES or q in LOSS_BASES:
            module = True
        elif q in DATA_BASES:
            continue
        elif q is not None or not isinstance(b, ast.Name):
            return None  # imported, or an expression
    return module


def _class_shape(cls: ast.ClassDef, facts: ModuleFacts, qualname: Qualname,
                 metaclasses: FrozenSet[str] = frozenset()) -> Optional[bool]:
    """None when the class may hold attributes the module does not show (a decorator, a
    keyword but ``metaclass=`` one of ``metaclasses``, a base from elsewhere that is not
    ``nn.Module``, a base bound twice, its own or an ancestor's); else whether it derives
    from ``nn.Module``."""
    module = False
    seen: Set[int] = set()
    todo = [cls]
    while todo:
        c = todo.pop()
        if id(c) in seen:
            continue
        seen.add(id(c))
        if c.decorator_list or any(k.arg != "metaclass" or qualname(k.value) not in metaclasses
                                   for k in c.keywords):
            return None
        for b in c.bases:
            if isinstance(b, ast.Name) and b.id in facts.classes:
                found = facts.classes[b.id]
                if len(found) != 1:
                    return None
                todo.append(found[0])
            elif isinstance(b, ast.Name) and b.id == "object":
                continue
            elif qualname(b) in _MODULE_BASES or qualname(b) in LOSS_BASES:
                module = True
            elif qualname(b) not in DATA_BASES:
                return None
    return module


class _Attributes(Mapping):
    """``{attr: True}`` for a class, decided on the first lookup of a candidate (the
    module's facts are then computed, once): a class none of whose candidates is read
    where a rule looks costs no walk of the module.  It holds the walker's ``qualname``
    weakly: the walker keeps it, and a cycle would outlive the walk."""

    def __init__(self, cls: ast.ClassDef, candidates: List[str], qualname: Qualname,
                 tree: Optional[ast.AST], assigned: Counter, registered: Counter,
                 inherit: Optional[tuple] = None, nullable: frozenset = frozenset(),
                 tags: Optional[Dict[str, str]] = None) -> None:
        self._candidates = frozenset(candidates)
        self._nullable = nullable
        self.tags = tags or {}
        self._pending: Optional[tuple] = (cls, candidates, _weak(qualname), tree, assigned, registered, inherit)
        self._out: Dict[str, bool] = {}

    def _decided(self) -> Dict[str, bool]:
        if self._pending is not None:
            cls, candidates, ref, tree, assigned, registered, inherit = self._pending
            self._pending = None
            qualname = ref()
            self._out = {} if qualname is None else _decide(cls, candidates, qualname, tree, assigned, registered,
                                                            inherit)
        return self._out

    def get(self, key, default=None):
        """True: a tensor; MAYBE_NONE: a tensor or None (every store one of them); a torch.nn
        module instance's tag (:mod:`.nnmodules`); else ``default``."""
        if key not in self._candidates:
            return default
        found = self._decided().get(key, default)
        if found is True and key in self.tags:
            return "nn:" + self.tags[key]
        return MAYBE_NONE if found is True and key in self._nullable else found

    def __getitem__(self, key):
        return self._decided()[key]

    def __iter__(self):
        return iter(self._decided())

    def __len__(self) -> int:
        return len(self._decided())

    def __repr__(self) -> str:
        return repr(self._decided())


def _weak(f: Callable) -> Callable[[], Optional[Callable]]:
    """A weak reference to a bound method (a strong one to anything else)."""
    try:
        return weakref.WeakMethod(f)
    except TypeError:
        return lambda: f


def attribute_value(ev, attr: str) -> Optional[Value]:
    """``self.<attr>`` in the method the walker ``ev`` is in, by its class's summary: a
    tensor, a tensor on some paths (:data:`MAYBE_NONE`: a test may have ruled None out),
    or None: not known."""
    cls = ev.method_of
    if cls is None:
        return None
    summarising = getattr(ev, "summarising_forward", False)  # .nnclasses: every instance counts
    known_attrs = ev.__dict__.setdefault("_forward_attrs", {}) if summarising else ev.class_attrs
    attrs = known_attrs.get(id(cls))
    if attrs is None:
        if ev.has["setattr("] or ev.has["__dict__"]:
            attrs = {}  # attributes may be set where the text does not show it
        else:
            if ev.attr_stores is None:
                ev.attr_stores = store_counts(ev.source)
            text = ev.idx.text(cls)
            attrs = tensor_attributes(cls, ev.attr_stores, ev.static_qualname, registers="register_" in text,
                                      # a view may need an RNN's or a project class's method's layout
                                      instances=summarising or nnmodules.consumes(text, True))
        known_attrs[id(cls)] = attrs
    tag = getattr(attrs, "tags", {}).get(attr)
    if tag is not None and not nnmodules.consumed_in(ev, tag):
        return None  # an instance whose output no report of this function could use
    known = attrs.get(attr, False)
    if known is True:
        return Value(TENSOR)
    if isinstance(known, str) and known.startswith("nn:"):
        return Value(UNKNOWN, nnmod=known[3:])  # self.fc = nn.Linear(...): an instance
    return Value(UNKNOWN, some=True) if known == MAYBE_NONE else None


def tensor_attributes(cls: ast.ClassDef, stores_in_module: Counter, qualname: Qualname,
                      registers: bool = True, tree: Optional[ast.AST] = None, instances: bool = False) -> Mapping:
    """``{attr: True}`` for the attributes of ``cls`` proven to hold a tensor (decided when
    a candidate is first looked up); ``stores_in_module``: :func:`store_counts` of the
    module's source (a quick test); ``registers``: the class's text holds ``register_``
    (else only assignment statements are looked at, not every expression node: the same
    answer, cheaper); ``tree``: the module (else the walker that owns ``qualname`` gives
    it); ``instances``: also the attributes every store of which constructs one torch.nn
    module class (:mod:`.nnmodules`; asked where the class's text holds a word of its
    ``CONSUMERS``)."""
    values, assigned, registered = _class_stores(cls, registers)

    def made(v: Optional[ast.AST]) -> bool:
        return isinstance(v, ast.Call) and qualname(v.func) in TENSOR_CONSTRUCTORS

    candidates = [attr for attr, vals in values.items()
                  if not _dunder(attr) and attr not in DATA_BASE_MEMBERS and stores_in_module[attr] == assigned[attr]
                  and all(made(v) or _is_none(v) for v in vals) and any(made(v) for v in vals)]
    nullable = frozenset(attr for attr in candidates if any(_is_none(v) for v in values[attr]))
    tags: Dict[str, str] = {}  # attributes every store of which constructs one torch.nn module class
    source = _source_of(qualname) or ""
    if instances:  # torch.nn classes ("nn" in the text), or the project's (:mod:`.nnclasses`)
        for attr, vals in values.items():
            if not _dunder(attr) and stores_in_module[attr] == assigned[attr] and attr not in candidates:
                tag = nnmodules.same_tag(vals, qualname, source)
                if tag == nncontainers.SEQUENTIAL and not nncontainers.attribute_kept(
                        attr, _tree_of(qualname, tree), source):
                    continue  # items it may be given where the module does not show it
                if tag is not None:
                    tags[attr] = tag
                    candidates.append(attr)
    if _own_bases(cls, qualname) is None:
        return {}
    inherit = None
    module_tree = _tree_of(qualname, tree) if len(cls.bases) == 1 else None
    base = inherited.base_of(cls, module_tree) if module_tree is not None else None
    if base is not None:  # what the base's __init__ stores from a parameter cls passes a tensor
        bvalues, bassigned, bregistered = _class_stores(base, True)
        extra = [attr for attr in inherited.inherited_params(cls, base, bvalues, qualname)
                 if attr not in values and not _dunder(attr) and not bregistered[attr]
                 and stores_in_module[attr] == bassigned[attr]]
        for attr in extra:
            candidates.append(attr)
            assigned[attr] = bassigned[attr]
        inherit = (base, frozenset(extra)) if extra else None
    if not candidates:
        return {}
    return _Attributes(cls, candidates, qualname, tree, assigned, registered, inherit, nullable, tags)


def _is_none(v: Optional[ast.AST]) -> bool:
    return isinstance(v, ast.Constant) and v.value is None


def _decide(cls: ast.ClassDef, candidates: List[str], qualname: Qualname, tree: Optional[ast.AST],
            assigned: Counter, registered: Counter, inherit: Optional[tuple] = None) -> Dict[str, bool]:
    """The candidates (every store of each in the class a tensor, or, ``inherit``: (base,
    attributes), in the base's ``__init__`` from a tensor the class passes: :mod:`.inherited`)
    that the module vouches for."""
    source = _source_of(qualname)
    if source is not None and _attr_dynamic_text(source):
        return {}  # setattr, vars, exec, __dict__, _buffers... somewhere in the text
    module_tree = _tree_of(qualname, tree)
    if module_tree is None:
        return {}
    facts = module_facts(module_tree, source if tree is None else None)
    if facts.attr_dynamic:
        return {}
    module = _class_shape(cls, facts, qualname)
    if module is None:
        return {}
    kept = [a for a in candidates if a not in facts.class_members and not (module and a in BASE_ATTRIBUTES)]
    if not kept:
        return {}  # each a method, property or class attribute of some class (or nn.Module's)
    if inherit is not None and not inherited.module_agrees(cls, inherit[0], facts, source):
        kept = [a for a in kept if a not in inherit[1]]
        if not kept:
            return {}
    stored, named, dynamic = facts.vouch(cls, kept)
    if dynamic:
        return {}
    own_register = bool(facts.class_members & set(_REGISTER))
    out = {}
    for attr in kept:
        if stored[attr] != assigned[attr] or named[attr] != registered[attr]:
            continue  # stored or registered somewhere else
        if registered[attr] and (not module or own_register):
            continue  # a register_buffer that is not nn.Module's
        out[attr] = True
    return out


