"""Local lists: is a list one the analysis has seen filled in full?

:func:`list_stays_local` proves that a name in a function (or the module) is only ever
bound to a fresh list and only read by ``name.append(x)`` statements, ``len``, tests,
iteration and calls the caller accepts, so no other name holds the list and the appends
the evaluator saw (:func:`.numpyish.appended`) are all its items;
:func:`scope_of` finds the scope a name is read in.
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Dict, List, Optional, Set, Tuple

from ..source import word_offsets
from .convertedlists import Converts, converted_uses
from .modulescan import builtin
from .nodeindex import children, walk
from .scopes import SCOPES, enclosing_scope
from .torchapi import LEGACY_CONSTRUCTORS

# access to a frame's names: the builtins as words (not ``model.eval()``, ``cocoeval(...)``):
# ``(?<![.\w])(?:locals|globals|vars|exec|eval)\b|__dict__|\bf_locals\b|\bbuiltins\b|__builtins__``,
# one pattern per word, each led by it (a pattern led by a lookbehind is tried at every position)
_DYNAMIC_WORDS = [re.compile(w + r"(?<![.\w]" + w + r")\b") for w in ("locals", "globals", "vars", "exec", "eval")] \
    + [re.compile(w + r"(?<!\w" + w + r")\b") for w in ("f_locals", "builtins")]


def _dynamic(text: str) -> bool:
    return "__dict__" in text or "__builtins__" in text or any(p.search(text) for p in _DYNAMIC_WORDS)


Uses = List[Tuple[ast.Name, ast.AST]]  # each occurrence of the name, with its parent
Parents = Dict[int, ast.AST]  # id(node) -> its parent


def uses_in_scope(scope: ast.AST, name: str, source_text: str) -> Optional[Tuple[Uses, Parents]]:
    """Every occurrence of ``name`` in ``scope`` (a function or the module) with its parent,
    and the parent of each node walked; None where the scope is not followed: a class body
    or a lambda, ``locals()``-like access, ``name`` a parameter or declared
    ``global``/``nonlocal``, or used (or defined) in a nested scope.  The scope is walked
    once for every name asked about (its index is kept on the scope's node)."""
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        return None
    index = scope.__dict__.get(_INDEX)
    if index is None:  # the scope's text (the same for every name) searched once too
        index = scope.__dict__[_INDEX] = _ScopeIndex(scope, source_text)
    if index.dynamic or index.refuses(name):
        return None
    return index.uses.get(name, []), index.parents


_INDEX = "_torchcopy_scope_uses"  # the scope node's own attribute that holds its index


class _ScopeIndex:
    """One walk of a scope's own nodes: the uses of each name with their parents, the
    parent of each node, and the names it does not follow (parameters, ``global`` and
    ``nonlocal`` names, names used or defined in a nested scope)."""

    def __init__(self, scope: ast.AST, text: str) -> None:
        self.uses: Dict[str, Uses] = {}
        self.parents: Parents = {}
        self.refused: Set[str] = set()
        self.text = text  # the scope's text
        self.nested: List[ast.AST] = []  # the scopes nested in it (their names: on demand)
        self._nested_names: Optional[Set[str]] = None
        self.dynamic = _dynamic(text)  # locals()-like access: no name is followed
        if self.dynamic:
            return
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = scope.args
            params = a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]
            self.refused.update(p.arg for p in params)
        # the scope's own statements get no parent: the index, kept on the scope, holds no
        # reference to it (a cycle would leave the whole tree to the cyclic collector)
        stack: List[Tuple[ast.AST, Optional[ast.AST]]] = [(s, None) for s in getattr(scope, "body", [])]
        while stack:
            node, parent = stack.pop()
            if parent is not None:
                self.parents[id(node)] = parent
            if isinstance(node, (ast.Global, ast.Nonlocal)):
                self.refused.update(node.names)
            if isinstance(node, SCOPES):
                self.nested.append(node)
                if not isinstance(node, ast.Lambda):
                    self.refused.add(node.name)
                continue
            if isinstance(node, ast.Name) and parent is not None:
                self.uses.setdefault(node.id, []).append((node, parent))
            stack.extend([(child, node) for child in children(node)])  # no Load/Store: never asked

    def refuses(self, name: str) -> bool:
        """Is ``name`` not followed: a parameter, declared, a nested def's name, or used in
        a nested scope?  The nested scopes are walked only where the text holds the word
        more often than the scope's own names (every ``Name`` is an occurrence of it)."""
        if name in self.refused:
            return True
        if not self.nested:
            return False
        if name.isascii() and sum(1 for _ in word_offsets(self.text, name)) <= len(self.uses.get(name, ())):
            return False
        if self._nested_names is None:
            self._nested_names = {n.id for s in self.nested for n in walk(s) if isinstance(n, ast.Name)}
        return name in self._nested_names


UseCheck = Callable[[ast.Name, ast.AST, Parents], bool]  # (occurrence, its parent, parents) -> ok


def every_use(scope: ast.AST, name: str, source_text: str, store: UseCheck, load: UseCheck,
              converts: Optional[Converts] = None) -> bool:
    """Is every occurrence of ``name`` in ``scope`` (:func:`uses_in_scope`, which must follow
    it) a store that ``store`` accepts or a read that ``load`` accepts (``del``: neither)?
    With ``converts``, those that see only ``name = conv(name)`` are not asked about
    (:func:`.convertedlists.converted_uses`)."""
    found = uses_in_scope(scope, name, source_text)
    if found is None:
        return False
    uses, parents = found
    skip = converted_uses(scope, name, uses, parents, converts) if converts is not None else ()
    for node, parent in uses:
        if id(node) in skip:
            continue
        if isinstance(node.ctx, ast.Store):
            if not store(node, parent, parents):
                return False
        elif not (isinstance(node.ctx, ast.Load) and load(node, parent, parents)):
            return False
    return True


def list_stays_local(scope: ast.AST, name: str, source_text: str, constructors, item_reads: bool = False) -> bool:
    """Is ``name`` in ``scope`` (a function or the module) only ever bound to a fresh list
    (``name = [...]``, ``name = [... for ...]``) and only read by ``name.append(x)``
    statements, ``len(name)``, ``if name:``, iteration (comprehensions too), and calls of
    ``constructors`` (qualified-name check by the caller's ``constructors(call)``)?  Then no
    other name holds the list and nothing but those appends fills it: the analysis has seen
    every item.  With ``item_reads``, ``name[k]`` reads too: they hand out an item (or a new
    list), never the list, so they matter only where the caller trusts what is inside an
    item.  What :func:`uses_in_scope` does not follow, and ``del``, refuse it; what only sees
    ``name = conv(name)`` (``conv`` a call ``constructors`` accepts) is not the list."""
    stored = []

    def store(node: ast.Name, parent: ast.AST, parents: Parents) -> bool:
        stored.append(node)
        value = getattr(parent, "value", None)
        return isinstance(parent, (ast.Assign, ast.AnnAssign)) and value is not None \
            and (isinstance(value, (ast.List, ast.ListComp)) or _repeated(value)) and unaliased_store(parent) \
            and (getattr(parent, "target", None) is node or node in getattr(parent, "targets", ()))

    def load(node: ast.Name, parent: ast.AST, parents: Parents) -> bool:
        if item_reads and isinstance(parent, ast.Subscript) and parent.value is node \
                and isinstance(parent.ctx, ast.Load):
            return True
        return _allowed_read(node, parent, parents, constructors)

    return every_use(scope, name, source_text, store, load, constructors) and bool(stored)


def unaliased_store(parent: ast.AST) -> bool:
    """Does a store of a name under ``parent`` bind no other name to its object: no ``+=``,
    no ``:=`` binding it or in its value, no second target (``xs = ys = [t]``)?"""
    if isinstance(parent, (ast.AugAssign, ast.NamedExpr)) or isinstance(parent, ast.Assign) and len(parent.targets) > 1:
        return False
    value = getattr(parent, "value", None)
    return not isinstance(value, ast.AST) or not any(isinstance(n, ast.NamedExpr) for n in walk(value))


def _repeated(value: ast.AST) -> bool:
    """``[None] * n`` (or ``n * [None]``): a fresh list, or what ``n``'s ``__rmul__`` makes."""
    return isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult) \
        and (isinstance(value.left, ast.List) or isinstance(value.right, ast.List))


def item_store(node: ast.Name, parent: ast.AST, parents) -> bool:
    """Is ``node`` (``parent`` a subscript of it) the list of a statement ``xs[k] = v``: one
    target, ``k`` no slice (the walker follows it: :func:`.listfill.stored`)?"""
    above = parents.get(id(parent))
    return isinstance(parent, ast.Subscript) and isinstance(parent.ctx, ast.Store) and parent.value is node \
        and not isinstance(parent.slice, ast.Slice) and isinstance(above, ast.Assign) and above.targets == [parent]


def _allowed_read(node: ast.Name, parent: ast.AST, parents, constructors) -> bool:
    if isinstance(parent, ast.Subscript) and isinstance(parent.ctx, ast.Store):
        return item_store(node, parent, parents)
    if isinstance(parent, ast.Attribute) and parent.attr == "append":
        call = parents.get(id(parent))
        return isinstance(call, ast.Call) and call.func is parent and isinstance(parents.get(id(call)), ast.Expr)
    if isinstance(parent, ast.Call) and node in parent.args:
        return (isinstance(parent.func, ast.Name) and parent.func.id == "len") or constructors(parent)
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)) and parent.iter is node:
        return True
    if isinstance(parent, (ast.If, ast.While, ast.IfExp)) and parent.test is node:
        return True
    return isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)


# calls that read a list passed to them and store into none (qualified names), and builtins
_READING_CALLS = frozenset(
    "torch." + n for n in "tensor as_tensor stack cat concat concatenate hstack vstack dstack column_stack".split()
) | frozenset("numpy." + n for n in "array asarray stack concatenate hstack vstack".split()) \
    | frozenset(p + n for p in ("torch.", "torch.cuda.") for n in LEGACY_CONSTRUCTORS)
_READING_BUILTINS = frozenset("len zip enumerate list tuple sorted sum min max any all reversed iter isinstance "
                              "bool print str repr".split())
_READING_METHODS = frozenset({"index", "count", "copy"})


def builtin_reads(call: ast.Call, node: ast.AST) -> bool:
    """Does the reading builtin ``call`` hand back anything but ``node`` itself?  ``min``/``max``
    of two or more arguments return one of them (``max(xs, [], key=len)`` is ``xs``), and
    ``sum(items, xs)`` returns its start ``xs`` when ``items`` is empty: a store into that
    result stores into the list.  ``max(xs)`` (an item) and ``sum(xs)`` are reads."""
    f = call.func
    if isinstance(f, ast.Name) and f.id in ("min", "max"):
        return len(call.args) == 1
    if isinstance(f, ast.Name) and f.id == "sum":
        return call.args[0] is node
    return True


def list_reads_safe(ev, name: ast.Name) -> bool:
    """May the list value ``name`` reads be trusted to hold what the evaluator saw put in it
    (its literal's items, the appends it followed)?  Yes when, in the scope of ``name``
    (:func:`uses_in_scope`), every read of the name only reads the list: ``xs[i]``, iteration,
    tests, comparisons, unpacking (``a, b = xs``), ``*xs``, ``return xs``, f-strings,
    ``xs.index``/``count``/``copy``, a statement ``xs.append(x)`` (one plain argument: the
    evaluator follows it), and passing it to ``torch.tensor``/``stack``/``cat``..., ``numpy.array``
    ..., or a builtin that reads (``len``, ``zip``, ``sorted``...; not shadowed).  Any other
    read (a call, another name, a display, ``xs[i] = v``, ``del xs[i]``, ``xs += ...``) may
    store into it; what only sees ``xs = torch.tensor(xs)`` (one of those calls) is not the
    list.  Decided once per scope and name."""
    return _per_scope(ev, name, "_list_reads", lambda scope, text: _reads_only(ev, scope, name.id, text))


def _per_scope(ev, name: ast.Name, memo_name: str, decide) -> bool:
    """``decide(scope, text)`` for the scope ``name`` is read in, once per walker, scope and name."""
    tree = getattr(ev, "tree", None)
    if tree is None:
        return False
    scope = scope_of(ev, tree, name)
    memo = ev.__dict__.setdefault(memo_name, {})
    key = (id(scope), name.id)
    if key not in memo:
        memo[key] = decide(scope, ev.source if isinstance(scope, ast.Module) else ev.idx.text(scope))
    return memo[key]


def scope_of(ev, tree: ast.AST, node: ast.AST) -> ast.AST:
    """The scope ``node`` is read in: the function the walker is in when its lines hold the
    node (a nested scope inside it holding the node makes :func:`uses_in_scope` refuse, as
    the node's own scope would not), the module in its body, else :func:`enclosing_scope`."""
    func = getattr(ev, "closure_func", None)
    if getattr(ev, "in_module_body", False) and isinstance(tree, ast.Module):
        func = tree
    line = getattr(node, "lineno", None)
    if isinstance(func, ast.Module) or func is not None and line is not None \
            and func.lineno <= line <= (func.end_lineno or 0):
        return func
    return enclosing_scope(tree, node)


def _reads_only(ev, scope: ast.AST, name: str, text: str) -> bool:
    return every_use(scope, name, text, lambda node, parent, parents: unaliased_store(parent),
                     lambda node, parent, parents: _list_read(ev, node, parent, parents),
                     lambda call: ev.static_qualname(call.func) in _READING_CALLS)


def _list_read(ev, node: ast.Name, parent: ast.AST, parents) -> bool:
    if isinstance(parent, ast.Subscript):
        return parent.value is node and isinstance(parent.ctx, ast.Load) or item_store(node, parent, parents)
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)):
        return parent.iter is node
    if isinstance(parent, (ast.If, ast.While, ast.IfExp)):
        return parent.test is node
    if isinstance(parent, (ast.Compare, ast.Return, ast.FormattedValue)):
        return True
    if isinstance(parent, ast.UnaryOp):
        return isinstance(parent.op, ast.Not)
    if isinstance(parent, ast.BoolOp):  # `if xs and ...:` (its value is only tested)
        above = parents.get(id(parent))
        return isinstance(above, (ast.If, ast.While, ast.Assert)) and above.test is parent
    if isinstance(parent, ast.Assign):
        return parent.value is node and all(isinstance(t, (ast.Tuple, ast.List)) for t in parent.targets)
    if isinstance(parent, ast.Starred):
        return isinstance(parents.get(id(parent)), (ast.Call, ast.List, ast.Tuple, ast.Set))
    if isinstance(parent, ast.Attribute):
        call = parents.get(id(parent))
        if not (isinstance(call, ast.Call) and call.func is parent):
            return False
        if parent.attr == "append":
            return isinstance(parents.get(id(call)), ast.Expr) and len(call.args) == 1 \
                and not call.keywords and not isinstance(call.args[0], ast.Starred)
        return parent.attr in _READING_METHODS
    if isinstance(parent, ast.Call) and node in parent.args:
        f = parent.func
        if isinstance(f, ast.Name) and f.id in _READING_BUILTINS:
            return builtin(ev, f.id) and builtin_reads(parent, node)
        return ev.static_qualname(f) in _READING_CALLS
    return False


def inner_lists_dropped(v, ev=None, name: Optional[ast.Name] = None):
    """``v`` (a list) with what the lists among its items hold forgotten: ``xs[0][0] = v``
    stores into one through a subscript, which :func:`list_reads_safe` does not see.  Read
    through ``name`` where :func:`rows_fresh` holds, those lists are kept (the lists inside
    them forgotten)."""
    def drop(e):
        return e.with_(elems=None, item=None) if e is not None and e.mutable and (e.elems or e.item) else e
    if not any(e is not None and e.mutable for e in (v.elems or ()) + (v.item,)):
        return v
    if ev is not None and name is not None and rows_fresh(ev, name):
        def drop(e):  # noqa: F811 (one level down)
            return inner_lists_dropped(e) if e is not None and e.mutable else e
    return v.with_(elems=tuple(drop(e) for e in v.elems) if v.elems is not None else None, item=drop(v.item))


def rows_fresh(ev, name: ast.Name) -> bool:
    """Are the lists among the items of the list ``name`` holds out of every other code's
    reach: in its scope every binding of the name is a display of displays (``rows = []``,
    ``rows = [[a, b]]``; one target), every read a statement ``rows.append([...])`` of a
    display, ``len(rows)``, a test, or a call of ``torch.tensor``/``numpy.array``... that only
    reads it?  Then no row is handed out or held by a name, and each is the display it was
    built from (``torch.tensor(boxes)`` of ``boxes.append([xmin, ymin, xmax, ymax])``)."""
    def decide(scope: ast.AST, text: str) -> bool:
        return every_use(scope, name.id, text, _fresh_store,
                         lambda node, parent, parents: _fresh_read(ev, node, parent, parents))
    return _per_scope(ev, name, "_fresh_rows", decide)


def _displays(values) -> bool:
    return all(isinstance(e, (ast.List, ast.Tuple)) for e in values)


def _fresh_store(node: ast.Name, parent: ast.AST, parents) -> bool:
    value = getattr(parent, "value", None)
    return (isinstance(parent, ast.Assign) and parent.targets == [node]
            or isinstance(parent, ast.AnnAssign) and parent.target is node) \
        and isinstance(value, ast.List) and _displays(value.elts)


def _fresh_read(ev, node: ast.Name, parent: ast.AST, parents) -> bool:
    if isinstance(parent, ast.Attribute):
        call = parents.get(id(parent))
        return parent.attr == "append" and isinstance(call, ast.Call) and call.func is parent \
            and isinstance(parents.get(id(call)), ast.Expr) and len(call.args) == 1 and not call.keywords \
            and _displays(call.args)
    if isinstance(parent, ast.Call):
        f = parent.func
        if node not in parent.args:
            return False
        if isinstance(f, ast.Name) and f.id == "len":
            return builtin(ev, "len")
        return ev.static_qualname(f) in _READING_CALLS
    if isinstance(parent, (ast.If, ast.While, ast.IfExp)):
        return parent.test is node
    return isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)


_MAPPING_METHODS = frozenset("keys values items get copy word_ids tokens sequence_ids".split())


def mapping_reads_safe(ev, name: ast.Name) -> bool:
    """:func:`list_reads_safe` for a mapping whose values the analysis knows (a tokenizer's
    encoding): every read of the name is ``m[k]``, ``m.attr``, ``m.keys()``/``values()``/
    ``items()``/``get()``/``copy()``..., ``m.to(...)`` as a statement or rebinding the same
    name (it returns the mapping itself), ``**m``/``*m``, iteration, tests, comparisons,
    ``return m``, an f-string, ``len``/``dict``/``list`` of it."""
    def decide(scope: ast.AST, text: str) -> bool:
        return every_use(scope, name.id, text, lambda node, parent, parents: unaliased_store(parent),
                         lambda node, parent, parents: _mapping_read(ev, node, parent, parents))
    return _per_scope(ev, name, "_mapping_reads", decide)


def _mapping_read(ev, node: ast.Name, parent: ast.AST, parents) -> bool:
    if isinstance(parent, ast.Attribute):
        if not isinstance(parent.ctx, ast.Load):
            return False
        call = parents.get(id(parent))
        if not (isinstance(call, ast.Call) and call.func is parent):
            return True  # m.input_ids
        if parent.attr == "to":
            above = parents.get(id(call))
            return isinstance(above, ast.Expr) or isinstance(above, ast.Assign) and len(above.targets) == 1 \
                and isinstance(above.targets[0], ast.Name) and above.targets[0].id == node.id
        return parent.attr in _MAPPING_METHODS
    if isinstance(parent, ast.keyword):
        return parent.arg is None  # f(**m): a new dict
    if isinstance(parent, ast.Call) and node in parent.args and isinstance(parent.func, ast.Name) \
            and parent.func.id == "dict":
        return builtin(ev, "dict")
    if isinstance(parent, ast.Assign) or isinstance(parent, ast.Subscript) and not isinstance(parent.ctx, ast.Load):
        return False  # another name; m[k] = v (the walker follows stores into lists only)
    return _list_read(ev, node, parent, parents) and not isinstance(parent, ast.Attribute)
