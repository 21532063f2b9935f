"""Lists held in attributes: what ``self.xs`` holds when its class fills it (TRC108).

``self.log_weights = []`` in ``_reset``, ``self.log_weights.append(t.detach())`` in
``run``, ``torch.tensor(self.log_weights)`` in a third method: :func:`list_value` says the
list's items are what the class appends, when the module shows no other way for the list
to be replaced or filled.  Every occurrence of ``.xs`` in the module (on any object) must be
one of:

- a store ``self.xs = [...]`` (a list display, one target) in a method of the class, on the
  method's own ``self``;
- a statement ``self.xs.append(v)``, ``self.xs.insert(i, v)`` or ``self.xs.extend([...])``
  (a display) there, with no ``*args``/keywords;
- a read that stores into no list and hands it to nothing that could: ``xs[i]``, iteration, a
  test, a comparison, ``not``, an f-string, ``*xs`` in a call or display,
  ``xs.index``/``count``/``copy``, ``len``/``zip``/``sorted``/``isinstance``... (builtins the
  module does not rebind; ``min``/``max`` of it alone, ``sum`` of it but not as the start,
  which may return the list itself) or ``torch.tensor``/``stack``/``cat``... (``return
  self.xs``, an alias, a call of anything else, ``+=``, ``del``, item stores refuse it).

The class must be one whose attributes the module shows (no decorator, no keyword but
``metaclass=abc.ABCMeta``, bases only classes of the module, ``object``, ``nn.Module`` or
``Dataset``), ``xs`` no member of a class of the module (nor of ``nn.Module`` for a module),
and the module must hold no form that stores attributes unseen or runs a method with
another ``self`` (:meth:`.modulefacts.ModuleFacts.vouch`), nor the name as a string
(``getattr(obj, "xs")``).  Each appended value (and each display item) is evaluated by the
module's walker of returns (:func:`.returnwalker.module_returns`), which walks the method
once with its parameters unknown; the list's ``item`` is their join.  Code the module
cannot see (another module's ``obj.xs.append(3)``, a subclass elsewhere) may still store
into the list: the items carry the caveat :data:`LIST_ATTRIBUTE`, so every fix resting on
them is unsafe.  Cost: asked only for the argument of ``torch.tensor(self.xs)``-like calls
(:meth:`.context.Context.list_item_kinds`), once per class and name.
"""
from __future__ import annotations

import ast
import re
from typing import Dict, List, Optional, Tuple

from .locallists import builtin_reads
from .modulefacts import _dunder, _lines_of, module_facts
from .scopes import _FUNCS, _scoped_nodes
from .summaries import _attr_dynamic_text, _class_shape
from .torchapi import BASE_ATTRIBUTES
from .values import NOT, TENSOR, UNKNOWN_VALUE, Value, join

LIST_ATTRIBUTE = "it is proven only by the appends its class makes (code elsewhere may store into the list)"

_FILLERS = frozenset({"append", "insert", "extend"})
_READING_METHODS = frozenset({"index", "count", "copy"})
_READING_BUILTINS = frozenset("len zip enumerate list tuple sorted sum min max any all reversed iter isinstance "
                              "bool print str repr".split())
_READING_CALLS = frozenset(
    "torch." + n for n in "tensor as_tensor stack cat concat concatenate hstack vstack dstack column_stack".split())
_METACLASSES = frozenset({"abc.ABCMeta"})


def list_value(ev, node: ast.Attribute) -> Optional[Value]:
    """``self.<attr>`` (``node``, in a method the walker ``ev`` is in) as a list whose ``item``
    is the join of what its class puts in it; None when not proven (conditions above)."""
    cls = getattr(ev, "method_of", None)
    tree = getattr(ev, "tree", None)
    if cls is None or ev.self_value is None or not isinstance(node.value, ast.Name) \
            or ev.lookup(node.value.id) is not ev.self_value or not isinstance(tree, ast.Module):
        return None
    memo: Dict[Tuple[int, str], Optional[Value]] = ev.__dict__.setdefault("_list_attrs", {})
    key = (id(cls), node.attr)
    if key not in memo:
        memo[key] = _decide(ev, tree, cls, node.attr)
    return memo[key]


def _decide(ev, tree: ast.Module, cls: ast.ClassDef, attr: str) -> Optional[Value]:
    source = ev.source
    if _dunder(attr) or f".{attr}" not in ev.idx.text(cls) or _attr_dynamic_text(source) \
            or _reads_by_computed_name(source):
        return None
    facts = module_facts(tree, source)
    module = _class_shape(cls, facts, ev.static_qualname, _METACLASSES)
    if module is None or facts.attr_dynamic or attr in facts.class_members \
            or module and attr in BASE_ATTRIBUTES:
        return None
    _, named, dynamic = facts.vouch(cls, [attr])
    if dynamic or named[attr]:
        return None
    found = _sources(ev, tree, source, cls, attr)
    if found is None:
        return None
    stores, items = found
    if not stores or not items:
        return None  # set nowhere in the class (a class attribute, set from outside), or no item
    item: Optional[Value] = None
    for value, method in items:
        v = _evaluated(ev, value, method)
        if v.elems is not None or v.item is not None:
            return None  # rows (``self.xs.append([a, b])``): not followed
        item = v if item is None else join(item, v)
    if item is None:
        return None
    if item.kind == TENSOR:
        item = item.with_(caveat=item.caveat or LIST_ATTRIBUTE)
    return Value(NOT, item=item, mutable=True)


#: ``getattr(obj, "name"`` with a receiver of names, dots and flat calls, and one plain string
#: literal as the name (a literal is the ``Constant`` check of :func:`_sources`)
_LITERAL_GETATTR = re.compile(r"""getattr\(\s*[^,()]*(?:\([^()]*\)[^,()]*)*,\s*(?:"[^"\\\n]*"|'[^'\\\n]*')\s*[,)]""")


def _reads_by_computed_name(source: str) -> bool:
    """May the module read an attribute by a name it computes (``getattr(self,
    f"{split}_losses")``, ``attrgetter``, ``__getattribute__``)?  The list it returns may then
    be filled anywhere.  Any ``getattr(`` not of the plain literal form counts."""
    if "attrgetter" in source or "__getattribute__" in source:
        return True
    pos = source.find("getattr(")
    while pos >= 0:
        if not _LITERAL_GETATTR.match(source, pos):
            return True
        pos = source.find("getattr(", pos + 1)
    return False


Items = List[Tuple[ast.AST, ast.AST]]  # (a value put in the list, the method it is in)


def _sources(ev, tree: ast.Module, source: str, cls: ast.ClassDef, attr: str) -> Optional[Tuple[int, Items]]:
    """How many stores of ``self.<attr>`` the class makes and the values they and the fillers
    put in the list; None when an occurrence of the name is none of the allowed forms."""
    parents: Dict[int, ast.AST] = {}
    stores = 0
    items: Items = []
    methods = [f for f in cls.body if isinstance(f, _FUNCS)]
    for node, scope in _scoped_nodes(tree, _lines_of(source, {attr})):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
        if isinstance(node, ast.Constant) and node.value == attr:
            return None  # getattr(obj, "xs"), a table of names
        if not isinstance(node, ast.Attribute) or node.attr != attr:
            continue
        parent = parents.get(id(node))
        own = scope.cls is cls and scope.self_name is not None and isinstance(node.value, ast.Name) \
            and node.value.id == scope.self_name
        method = next((f for f in methods if f.lineno <= node.lineno <= (f.end_lineno or 0)), None)
        if not isinstance(node.ctx, ast.Load):
            value = _display_store(node, parent)
            if not own or value is None or method is None:
                return None
            stores += 1
            items.extend((e, method) for e in value.elts)
            continue
        if isinstance(parent, ast.Attribute) and parent.attr in _FILLERS:
            put = _filled(parent, parents)
            if not own or put is None or method is None:
                return None
            items.extend((e, method) for e in put)
            continue
        if not _read(ev, node, parent, parents):
            return None
    return stores, items


def _display_store(node: ast.Attribute, parent: Optional[ast.AST]) -> Optional[ast.List]:
    """The display of ``self.xs = [...]`` (one target; an annotated one too)."""
    if isinstance(parent, ast.Assign) and parent.targets == [node] or \
            isinstance(parent, ast.AnnAssign) and parent.target is node:
        value = parent.value
        if isinstance(value, ast.List) and not any(isinstance(e, ast.Starred) for e in value.elts):
            return value
    return None


def _filled(method: ast.Attribute, parents) -> Optional[List[ast.expr]]:
    """What a statement ``xs.append(v)``/``insert(i, v)``/``extend([...])`` puts in the list."""
    call = parents.get(id(method))
    if not (isinstance(call, ast.Call) and call.func is method and isinstance(parents.get(id(call)), ast.Expr)) \
            or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    args = call.args
    if method.attr == "append" and len(args) == 1:
        return [args[0]]
    if method.attr == "insert" and len(args) == 2:
        return [args[1]]
    if method.attr == "extend" and len(args) == 1 and isinstance(args[0], (ast.List, ast.Tuple)) \
            and not any(isinstance(e, ast.Starred) for e in args[0].elts):
        return list(args[0].elts)
    return None


def _read(ev, node: ast.AST, parent: Optional[ast.AST], parents) -> bool:
    """Does this occurrence only read the list (see the module's docstring)?"""
    if isinstance(parent, ast.Subscript):
        return parent.value is node and isinstance(parent.ctx, ast.Load)
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)):
        return parent.iter is node
    if isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)):
        return parent.test is node
    if isinstance(parent, (ast.Compare, ast.FormattedValue)):
        return True
    if isinstance(parent, ast.UnaryOp):
        return isinstance(parent.op, ast.Not)
    if isinstance(parent, ast.BoolOp):  # `if xs and ...:` (its value is only tested)
        above = parents.get(id(parent))
        return isinstance(above, (ast.If, ast.While, ast.Assert)) and above.test is parent
    if isinstance(parent, ast.Starred):
        return isinstance(parents.get(id(parent)), (ast.Call, ast.List, ast.Tuple, ast.Set))
    if isinstance(parent, ast.Attribute):
        call = parents.get(id(parent))
        return parent.attr in _READING_METHODS and isinstance(call, ast.Call) and call.func is parent
    if isinstance(parent, ast.Call) and node in parent.args:
        f = parent.func
        if isinstance(f, ast.Name) and f.id in _READING_BUILTINS:
            return f.id not in ev.outer and not ev.star_imported and f"def {f.id}(" not in ev.source \
                and builtin_reads(parent, node)
        return ev.static_qualname(f) in _READING_CALLS
    return False


def _evaluated(ev, value: ast.AST, method: ast.AST) -> Value:
    """What ``value`` (in ``method`` of the class) evaluates to, by the module's walker of
    returns (the method walked once, its parameters unknown)."""
    from .returnwalker import module_returns
    walked = ev.__dict__.setdefault("_list_attr_methods", set())
    if id(method) not in walked:
        walked.add(id(method))
        if module_returns(ev, method) is None:
            return UNKNOWN_VALUE
    walker = ev.__dict__.get("_method_walker")
    got = walker.cache.get(id(value)) if walker is not None else None
    return got if got is not None else UNKNOWN_VALUE
