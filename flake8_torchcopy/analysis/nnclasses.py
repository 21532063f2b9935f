"""Instances of the project's own ``torch.nn.Module`` subclasses, and what calling one returns.

``m = Net(...)`` / ``self.net = Net(...)`` (``Net`` a class of the module, or of another
module of the project: ``from .models import Net``, ``models.Net``) binds an instance, held
as :attr:`~.values.Value.nnmod` with the tag ``"@Net"`` (``"@pkg.models.Net"`` for another
module's).  Calling it (``m(x)``, ``self.net(x)``, ``m.forward(x)``) returns what its
``forward`` returns on every path, walked with its parameters unknown: a tensor, or a tuple
display of one length with a tensor at the positions every ``return`` holds one.  The class
is followed only where (:func:`forward_of`):

* it and every class up its chain is undecorated, has no keyword (no metaclass) and exactly
  one base: a class of the same module bound once, up to ``torch.nn.Module`` itself;
* no class of the chain binds (``def``, assignment, import...) ``__call__``, ``__new__``,
  ``__getattribute__``, ``__getattr__``, ``__init_subclass__``, ``__class__``, the call machinery of
  ``nn.Module`` (``_call_impl``...), or a method that returns the module
  (:data:`~.nnmodules.RETURNS_SELF`: ``m.to(device)`` must stay ``m``);
* the first class of the chain that binds ``forward`` binds it once, by a plain ``def``
  (undecorated, no generator, ending in a ``return``);
* neither the module that defines it nor the one that calls the instance can replace its
  ``forward``/``__call__`` or class, or register a hook, as :func:`.nnmodules._replaced`
  reads it, and neither calls ``setattr``.

Where the instance comes from, every store must construct the same class (a local name by
the walk; an attribute by the attribute summaries, :mod:`.summaries`), so no subclass that
overrides ``forward`` can be held.  One level is followed: inside a ``forward`` being
summarised (by the walker of returns), the instances of project classes are not.  A
forward hook registered elsewhere (``register_module_forward_hook``) may still replace the
output: the same-module output carries :data:`~.nnmodules.NN_OUTPUT`, another module's
:data:`~.values.OTHER_MODULE`; reports stand, fixes resting on them are unsafe.  Cost: an
instance is looked for only where the function's text holds a call its output could give
a report at (:func:`.nnmodules.consumed_in`).
"""
from __future__ import annotations

import ast
import re
from collections import Counter
from typing import Callable, Dict, List, Optional, cast

from .nodeindex import children, walk
from .returns import exits_by_return
from .returnwalker import _returns_may_be_tensors, module_returns, tuple_length, tuple_shape, tuple_value
from .values import NOT, OTHER_MODULE, TENSOR, UNKNOWN, UNKNOWN_VALUE, Value

_MODULE_BASES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})
#: how many classes a chain may hold, ``nn.Module`` not counted
MAX_CHAIN = 8
#: names no class of the chain may bind: they change what calling an instance does
CALLING = frozenset("__call__ __new__ __getattribute__ __init_subclass__ __class__ __class_getitem__ "
                    "_call_impl _wrapped_call_impl _compiled_call_impl __dict__ __setattr__ __getattr__".split())


def module_classes(tree: ast.AST) -> Dict[str, ast.ClassDef]:
    """The classes the module's own scope defines (in its blocks too), by name."""
    out: Dict[str, ast.ClassDef] = {}
    stack: List[ast.AST] = list(tree.body)  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.ClassDef):
            out[node.name] = node
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                stack.extend(getattr(node, field, None) or ())
    return out


def class_bindings(cls: ast.ClassDef) -> Counter:
    """How often ``cls``'s body binds each name (not counting what functions or classes
    inside it bind, but their own names)."""
    bound: Counter = Counter()
    stack: List[ast.AST] = list(cls.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound[node.name] += 1
            stack.extend(node.decorator_list)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound[node.id] += 1
        elif isinstance(node, ast.alias):
            bound[node.asname or node.name.split(".")[0]] += 1
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            bound[node.name] += 1
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(node.names)
        stack.extend(children(node))
    return bound


def forward_of(cls: ast.ClassDef, classes: Dict[str, ast.ClassDef], qualname: Callable[[ast.AST], Optional[str]],
               source: str, once: Callable[[str], bool], name: str = "forward",
               chain_only: bool = False) -> Optional[ast.FunctionDef]:
    """The ``forward`` an instance of ``cls`` runs when called (``name``: the method
    ``m.name(...)`` runs, :mod:`.instancemethods`), where the class is one this module
    follows (module doc); else None.  ``classes``: the module's classes by name
    (:func:`module_classes`); ``qualname``: a resolver of dotted names in the module's
    scope; ``once``: is a module-level name bound once (nothing may rebind it unseen)?"""
    from .nnmodules import RETURNS_SELF, hooked  # nnmodules imports this module
    if "setattr" in source or not once(cls.name) or hooked(source) or attribute_stored(source, cls.name):
        return None
    if name != "forward" and not chain_only and (attribute_stored(source, name) or name in CALLING
                                                 or name.startswith("__") or may_patch(source, name)):
        return None  # an instance attribute (``self.m = f``) would shadow the method, a patch replace it
    chain: List[ast.ClassDef] = []
    c = cls
    while True:
        if c.decorator_list or c.keywords or len(chain) >= MAX_CHAIN or any(c is k for k in chain):
            return None
        if name != "forward" and _plain_root(c, source):
            chain.append(c)  # a plain class (.instancemethods): ``class Loader:``, ``(object)``
            break
        if len(c.bases) != 1:
            return None
        chain.append(c)
        base = c.bases[0]
        if qualname(base) in _MODULE_BASES:
            break
        if not (isinstance(base, ast.Name) and base.id in classes and once(base.id)):
            return None  # a base from elsewhere, or an expression
        c = classes[base.id]
    forward: Optional[ast.FunctionDef] = None
    for c in chain:
        bound = class_bindings(c)
        if any(n in bound for n in CALLING) or any(n in bound for n in RETURNS_SELF):
            return None
        if chain_only:
            continue
        if forward is None and bound[name]:
            defs = [s for s in c.body if isinstance(s, ast.FunctionDef) and s.name == name]
            if bound[name] != 1 or len(defs) != 1:
                return None  # bound otherwise (an assignment, a nested block, async)
            forward = defs[0]
    if chain_only:
        return cast(ast.FunctionDef, cls)  # every class of the chain is followed (a truthy answer)
    if forward is None or not exits_by_return(forward):
        return None
    return forward


def _plain_root(c: ast.ClassDef, source: str) -> bool:
    """Is ``c`` a class with no base but ``object`` (``class C:``, ``class C(object):``,
    ``object`` not rebound in the module's text)?"""
    if not c.bases:
        return True
    base = c.bases[0]
    return len(c.bases) == 1 and isinstance(base, ast.Name) and base.id == "object" \
        and not any(w in source for w in ("object =", "object=", " as object", "def object", "class object"))


def followed_class(cls: ast.ClassDef, classes: Dict[str, ast.ClassDef], qualname: Callable[[ast.AST], Optional[str]],
                   source: str, once: Callable[[str], bool]) -> bool:
    """Are the methods of an instance of ``cls`` followed (:mod:`.instancemethods`): the
    class chain as :func:`forward_of` reads it, up to ``nn.Module`` or a plain class?"""
    return forward_of(cls, classes, qualname, source, once, "__init__", chain_only=True) is not None


def attribute_stored(source: str, name: str) -> bool:
    """May the text store ``.<name>`` (``models.Net = Other``)?  (Found with ``str.find``:
    no pattern is compiled per name.)"""
    needle = "." + name
    i = source.find(needle)
    while i >= 0:
        j = i + len(needle)
        if not (source[j:j + 1].isalnum() or source[j:j + 1] == "_"):
            rest = source[j:j + 40].lstrip(" \t")
            if rest[:1] == "=" and rest[1:2] != "=":
                return True
        i = source.find(needle, j)
    return False


_PATCHING = re.compile(r"\bmock\b|\bpatch(?:\.\w+)?\s*\(|monkeypatch")


def may_patch(source: str, name: str) -> bool:
    """May the text replace the method ``name`` of a class by a means not written as a store:
    its name in a string (``patch.object(Loader, "batchify", f)``, ``"pkg.m.Loader.batchify"``),
    or a patching helper at all (``mock``, ``patch(...)``, ``monkeypatch``)?"""
    return any(q + name + e in source for q in ("'", '"', ".") for e in ("'", '"')) \
        or _PATCHING.search(source) is not None


def _unshadowed(ev, name: str) -> bool:
    """Is ``name``, where a method of the class being summarised (``ev.method_of``) reads
    it, the module's: the name bound once in the module's scope, the class one of the
    module's scope, and nothing in the class binds the name (a parameter, a local, an
    import, a nested definition)?  Once per class and name."""
    cls = ev.method_of
    known: Dict[tuple, bool] = ev.__dict__.setdefault("_nn_unshadowed", {})
    key = (id(cls), name)
    if key not in known:
        ok = cls is not None and any(c is cls for c in ev.module_classes.values()) \
            and name not in ev.rebound
        if ok:
            for n in walk(cls):
                if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load) \
                        or isinstance(n, ast.arg) and n.arg == name \
                        or isinstance(n, ast.alias) and (n.asname or n.name.split(".")[0]) == name \
                        or isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names \
                        or isinstance(n, _NAMED) and getattr(n, "name", None) == name:
                    ok = False
                    break
        known[key] = ok
    return known[key]


_NAMED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler, ast.MatchAs, ast.MatchStar)


def local_forward(ev, name: str) -> Optional[ast.FunctionDef]:
    """The ``forward`` of the class ``name`` of the module ``ev`` walks, where it is
    followed (:func:`forward_of`); once per class."""
    known: Dict[str, Optional[ast.FunctionDef]] = ev.__dict__.setdefault("_nn_forwards", {})
    if name not in known:
        tree = getattr(ev, "tree", None)
        found = None
        if tree is not None:
            classes = ev.__dict__.get("_nn_classes")
            if classes is None:
                classes = ev._nn_classes = module_classes(tree)
            cls = classes.get(name)
            if cls is not None:
                found = forward_of(cls, classes, ev.static_qualname, ev.source, lambda n: n not in ev.rebound)
        known[name] = found
    return known[name]


def follows(ev) -> bool:
    """Does the walker ``ev`` follow instances of project classes (not one summarising a
    function's returns: one level)?"""
    return getattr(ev, "walks_returns", True) and getattr(ev, "tree", None) is not None


def local_instance(ev, cls: ast.ClassDef, func: Value) -> Optional[Value]:
    """``Net(...)`` of the class ``cls`` of the module (the value its name holds: ``func``):
    an instance, or None.  Its kind stays what a call of the class was before (an instance
    of a class whose base is no torch class is no tensor)."""
    if not instances_followed(ev) or local_forward(ev, cls.name) is None and not local_followed(ev, cls.name):
        return None
    return Value(NOT if func.is_class else UNKNOWN, nnmod="@" + cls.name)


def local_followed(ev, name: str) -> bool:
    """Are the methods of an instance of the class ``name`` of the module followed
    (:func:`followed_class`: a plain class too, whose instances are not called)?  Once per class."""
    known: Dict[str, bool] = ev.__dict__.setdefault("_followed_classes", {})
    if name not in known:
        tree = getattr(ev, "tree", None)
        classes = ev.__dict__.get("_nn_classes")
        if classes is None and tree is not None:
            classes = ev._nn_classes = module_classes(tree)
        cls = None if classes is None else classes.get(name)
        known[name] = cls is not None and followed_class(cls, classes, ev.static_qualname, ev.source,
                                                         lambda n: n not in ev.rebound)
    return known[name]


def static_tag(call: ast.Call, q: Optional[str], qualname) -> Optional[str]:
    """The tag of ``Net(...)`` (``q``: the qualified name of its callee, if any) where
    ``Net`` is a project class this module follows, seen without evaluating (for the
    attribute summaries; ``qualname`` is the walker's ``static_qualname``), or None."""
    ev = getattr(qualname, "__self__", None)
    if ev is None or not follows(ev):
        return None
    func = root = call.func
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return None
    if q is None and isinstance(func, ast.Name) and ev.module_classes.get(ev.lookup(func.id)) is not None:
        dotted = func.id if local_forward(ev, func.id) is not None or local_followed(ev, func.id) else None
    else:
        from .project import static_class
        dotted = static_class(ev, func)
    # the name may be another where the store is: it is looked up as the walk is now
    return "@" + dotted if dotted is not None and _unshadowed(ev, root.id) else None


def output(ev, tag: str) -> Value:
    """What calling an instance tagged ``tag`` (``"@Net"``, ``"@pkg.models.Net"``) returns."""
    if not follows(ev):
        return UNKNOWN_VALUE  # one level: not inside a forward being summarised
    name = tag[1:]
    known: Dict[str, Value] = ev.__dict__.setdefault("_nn_outputs", {})
    if name not in known:
        known[name] = _imported_output(ev, name) if "." in name else _local_output(ev, name)
    return known[name]


def _local_output(ev, name: str) -> Value:
    from .nnmodules import NN_OUTPUT
    forward = local_forward(ev, name)
    if forward is None:
        return UNKNOWN_VALUE
    n = tuple_length(forward)
    if n is None and not _returns_may_be_tensors(forward):
        return UNKNOWN_VALUE
    values = module_returns(ev, forward, True) or []
    if n is not None:
        shape = tuple_shape(values, n)
        return tuple_value(shape, [NN_OUTPUT] * n) if shape is not None else UNKNOWN_VALUE
    if values and all(v is not None and v.kind == TENSOR for v in values):
        return Value(TENSOR, caveat=NN_OUTPUT)
    return UNKNOWN_VALUE


def _imported_output(ev, dotted: str) -> Value:
    from .project import class_forward
    shape = class_forward(ev, dotted)
    if shape is True:
        return Value(TENSOR, caveat=OTHER_MODULE)
    if isinstance(shape, tuple):
        return tuple_value(shape, [OTHER_MODULE] * len(shape))
    return UNKNOWN_VALUE


def instances_followed(ev) -> bool:
    """Does the walker ``ev`` look for instances in the function it walks (it follows them,
    and the function's text holds a call their output could give a report at)?"""
    from .nnmodules import consumed_in
    return follows(ev) and consumed_in(ev, "@")
