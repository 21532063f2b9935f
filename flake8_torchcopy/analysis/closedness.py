"""Closed functions: the functions whose every call the module shows, and those calls.

A function's calls in the module tell what its parameters hold (:mod:`.callsites`) only
when the module shows *every* call: when the function is **closed**:

- it is defined by an undecorated ``def``: in the module body (at any block depth) and
  private (``_name``, not dunder; a public function is API that other modules call with
  anything, unless the ``public-helpers`` option says otherwise), or in a function's body
  (then called only inside that function), or as a private method of a class (``def
  _m(self, ...)``) called only as ``self._m(...)`` inside that class, all of whose bases are
  classes of the module (a base from elsewhere may call its hooks; ``public-helpers`` again);
- its name is bound once in the whole module (no other ``def``/``class``, import,
  assignment, parameter, ``global``), and every other occurrence of the name is the
  callee of a direct call; the name is in no string (``__all__``, ``getattr``, ``exec``, a
  doctest), reached as no attribute, spelled no other way (NFKC), so it is neither stored,
  passed as a callback or bound method, nor exported (a comment may name it);
- every call passes no ``*args``/``**kwargs``, names only parameters it has, and
  passes no more positional arguments than it takes.

Where views are judged, a public method (or a private one of a class with a base from
elsewhere) called only as ``self.m(...)`` in its plain class counts too, its callers unseen:
only a layout travels into it (:mod:`.paramlayouts`, :attr:`.callsites.ClosedFunction.layout_only`).

The cheap part runs first: a text check that each candidate name occurs only as
``name(`` (its ``def`` included; ``self.name(`` for a method); only the names that pass
cost a walk, and that walk enters only the nodes on the lines where they occur.
"""
from __future__ import annotations

import ast
import bisect
import unicodedata
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple, Union, cast

from ..source import SourceIndex, word_offsets
from .callsites import BLOCK_FIELDS, NO_CALLSITES, PENDING, CallSites, ClosedFunction, Others
from .nodeindex import children
from .triggers import Word, found

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
FuncDef = Union[ast.FunctionDef, ast.AsyncFunctionDef]


_DEFS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})


#: the statement lists of each compound node type (simple statements have none)
_BLOCKS_OF: Dict[type, Tuple[str, ...]] = {
    t: tuple(f for f in BLOCK_FIELDS if f in t._fields)
    for t in (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For,
              ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.ExceptHandler,
              ast.Match, ast.match_case, getattr(ast, "TryStar", ast.Try))
}


def _candidate_defs(tree: ast.AST, may_match: Callable[[ast.AST], bool], methods: bool = True
                    ) -> Tuple[List[Tuple[ast.AST, Optional[ast.AST]]], List[ast.ClassDef]]:
    """``(def, owner)`` for the functions of the module body (at any block depth, owner
    None), the methods of its classes (owner: the class) and the functions nested in a
    function a rule may match in (owner: that function; one no rule can match in is of no
    use); and the classes seen.  Statements only; class bodies only with ``methods``."""
    out: List[Tuple[ast.AST, Optional[ast.AST]]] = []
    classes: List[ast.ClassDef] = []
    stack: List[Tuple[ast.AST, Optional[ast.AST]]] = [(tree, None)]
    while stack:
        node, owner = stack.pop()
        for field in _BLOCKS_OF[type(node)]:
            for child in getattr(node, field):
                if isinstance(child, _FUNCS):
                    out.append((child, owner))
                    if may_match(child):
                        stack.append((child, child))
                elif isinstance(child, ast.ClassDef):
                    classes.append(child)
                    if methods:
                        stack.append((child, child))
                elif type(child) in _BLOCKS_OF:
                    stack.append((child, owner))
    return out, classes


def _closed_classes(classes: List[ast.ClassDef]) -> Set[int]:
    """``id()`` of the classes all of whose ancestors are classes of this module (bound
    once, no metaclass or other keywords): no code elsewhere, such as a library base
    class calling its hooks (``nn.Module._apply``), can call their private methods."""
    by_name: Dict[str, List[ast.ClassDef]] = {}
    for c in classes:
        by_name.setdefault(c.name, []).append(c)
    state: Dict[int, bool] = {}
    return {id(c) for c in classes if _closed(c, by_name, state)}


def _closed(c: ast.ClassDef, by_name: Dict[str, List[ast.ClassDef]], state: Dict[int, bool]) -> bool:
    """Is every ancestor of ``c`` a class of this module (``state``: what is known)?  A
    module-level function: a nested one calling itself would be a reference cycle."""
    if id(c) not in state:
        state[id(c)] = False  # a cycle (impossible in running code) stays open
        state[id(c)] = not c.keywords and all(
            isinstance(b, ast.Name) and (b.id == "object" or len(by_name.get(b.id, ())) == 1
                                         and _closed(by_name[b.id][0], by_name, state))
            for b in c.bases)
    return state[id(c)]


def _first_line(node: ast.AST) -> int:
    """Where a node starts: a decorated ``def``/``class`` at its first decorator."""
    decorators = getattr(node, "decorator_list", None)
    first = node.lineno  # type: ignore[attr-defined]
    return min(first, *(d.lineno for d in decorators)) if decorators else first


def _spans_any(node: ast.AST, lines: List[int]) -> bool:
    """Does one of ``lines`` (sorted) fall within the node's line span (decorators included)?"""
    i = bisect.bisect_left(lines, _first_line(node))
    return i < len(lines) and lines[i] <= node.end_lineno  # type: ignore[attr-defined]


def enclosing_defs(stmts: List[ast.AST], lines: List[int]) -> Set[int]:
    """``id()`` of every function (methods included) whose lines hold one of ``lines``
    (those of the calls; a call in a default or decorator makes its def count too: one
    more function walked, nothing wrong)."""
    out: Set[int] = set()
    for stmt in stmts:
        if hasattr(stmt, "lineno") and not _spans_any(stmt, lines):
            continue
        if isinstance(stmt, _FUNCS):
            out.add(id(stmt))
        for field in _BLOCKS_OF.get(type(stmt), ()):
            out |= enclosing_defs(getattr(stmt, field), lines)
    return out


def closed_functions(tree: ast.AST, idx: SourceIndex, may_match: Callable[[ast.AST], bool],
                     public: bool = False, others: Optional[Others] = None,
                     layouts: Sequence[Sequence[Word]] = ()) -> CallSites:
    """The calls of closed functions that matter: of one a rule may match inside, or of
    one that calls such a function (so its parameters can carry a tensor further).
    ``idx``: the module's source and positions; ``public``: module-level functions need
    not be private (``public-helpers``); ``others``: what the other modules of the
    project pass a module-level function (:func:`.projectcallers.other_calls`; None:
    unknown), where the module is in one: then one called only there counts too.
    ``layouts``: a rule judges views (:mod:`.paramlayouts`), after the words of one of these
    groups: a function holding ``view(`` matters too where the words are in the text that
    calls it (its class's, its enclosing function's: a call may pass a layout), and so do public methods called only as
    ``self.m(...)`` in a plain class (:func:`_layout_method`): only a layout travels into those."""
    source = idx.source
    cands: Dict[str, List[Tuple[ast.AST, Optional[ast.AST]]]] = {}
    viewed = bool(layouts) and "view(" in source
    defs, classes = _candidate_defs(tree, may_match, methods="def _" in source or viewed)
    closed_classes: Optional[Set[int]] = None
    layout_only: Set[str] = set()
    for node, owner in defs:
        func = cast(FuncDef, node)  # _candidate_defs yields only function definitions
        a = func.args
        name = func.name
        private = name.startswith("_") and "__" not in name  # `_C__h` is what `__h` means in class C
        if isinstance(owner, ast.ClassDef):
            if func.decorator_list or len(a.posonlyargs + a.args) + len(a.kwonlyargs) < 2 \
                    or (a.posonlyargs + a.args)[0].arg != "self":
                continue  # a static/class method or property: callers unseen
            if closed_classes is None:
                closed_classes = _closed_classes(classes)
            if not private or id(owner) not in closed_classes and not public:
                # a public method, or a base class from elsewhere may call it (a hook): its
                # callers are unseen, only a layout its calls here pass travels
                if not (viewed and "__" not in name and _layout_method(func, owner, idx)):
                    continue
                layout_only.add(name)
        elif func.decorator_list or not (a.args or a.posonlyargs or a.kwonlyargs):
            continue
        elif owner is None and not public and not private:
            continue  # a public module-level function is API
        cands.setdefault(name, []).append((func, owner))
    cands = {n: found for n, found in cands.items() if len(found) == 1}  # bound once
    texts = {n: idx.line_text(found[0][0]) for n, found in cands.items()}
    viewing = {n for n, [(_, owner)] in cands.items() if viewed and "view(" in texts[n] and (
        owner is None or any(all(found(w, idx.line_text(owner)) for w in g) for g in layouts))}
    relevant = {n for n, found in cands.items() if n in viewing or may_match(found[0][0])}
    if not relevant:
        return NO_CALLSITES
    # a candidate whose text calls a relevant one (a chain) may matter too
    wanted = set(relevant)
    grew = True
    while grew:
        grew = False
        for n, text in texts.items():
            if n not in wanted and any(r + "(" in text for r in wanted):  # `_r(` or `self._r(`
                wanted.add(n)
                grew = True
    names, offsets = _called_only(source, {n: cands[n][0] for n in wanted}, others is not None)
    if not names:
        return NO_CALLSITES
    closed = _check_closed_calls(tree, idx, names, offsets, others is not None)
    if others is not None:
        for n, c in closed.items():
            if cands[n][0][1] is None:
                c.external = PENDING  # asked when the seeds are made (callsites.parameter_seeds)
    for n, c in closed.items():
        owner = cands[n][0][1]
        if isinstance(owner, ast.ClassDef) and id(owner) not in (closed_classes or ()):
            c.public = True  # a base from elsewhere may call it
        c.layout_only = n in layout_only
    relevant = {n for n in closed if n in relevant}
    for n in [n for n in relevant & viewing if not may_match(cands[n][0][0])]:
        if not any(_caller_may_permute(tree, idx, call.lineno, layouts) for call in closed[n].calls):
            relevant.discard(n)  # no call can pass a permuted tensor: no layout to take
    grew = True
    while grew:
        lines = sorted({call.lineno for r in relevant for call in closed[r].calls})
        grew = False
        for n, c in closed.items():
            if n not in relevant and _spans_any(c.node, lines):
                relevant.add(n)
                grew = True
    if not relevant:
        return NO_CALLSITES
    calls = {id(call): closed[n] for n in relevant for call in closed[n].calls}
    lines = sorted({call.lineno for r in relevant for call in closed[r].calls})
    extra = [closed[n] for n in relevant if not closed[n].calls]  # called only elsewhere
    walked = enclosing_defs(tree.body, lines) | {id(closed[n].node) for n in relevant & viewing}  # type: ignore[attr-defined]
    return CallSites(calls, walked, extra, others)


def _caller_may_permute(tree: ast.AST, idx: SourceIndex, line: int, groups: Sequence[Sequence[Word]]) -> bool:
    """Does the function around ``line`` (the module, outside any) hold a group's words?"""
    stmts, inner = list(tree.body), None  # type: ignore[attr-defined]
    while stmts:
        st = next((st for st in stmts if not hasattr(st, "lineno")
                   or _first_line(st) <= line <= (st.end_lineno or st.lineno)), None)
        if st is None:
            break
        if isinstance(st, _FUNCS):
            inner = st
        stmts = [c for f in _BLOCKS_OF.get(type(st), ()) for c in getattr(st, f)]
    return inner is None or any(all(found(w, idx.line_text(inner)) for w in g) for g in groups)


def _layout_method(func: ast.AST, owner: ast.ClassDef, idx: SourceIndex) -> bool:
    """May a public method take a layout from its calls: it holds a ``view(``, and its class
    is plain (no decorator, metaclass, abstract method or ``NotImplementedError``: a class
    meant to be subclassed, whose own method may never run)?"""
    if owner.decorator_list or owner.keywords or "view(" not in idx.line_text(func):
        return False
    text = idx.line_text(owner)
    return "NotImplementedError" not in text and "abstract" not in text


def _occurrences(source: str, name: str, method: bool) -> Tuple[List[int], bool]:
    """Offsets where the identifier ``name`` occurs (``x.name`` included), and whether
    every one of them is followed by ``(`` and is, for a method, ``def name(`` or
    ``self.name(``, for a function not an attribute (``sys.modules[__name__].name(``),
    or may be in a comment (a ``#`` before it on its line; :func:`_check_closed_calls`
    makes sure): ``str.find`` (C speed) and a look at the neighbours."""
    out: List[int] = []
    called = True
    n = len(name)
    for i in word_offsets(source, name):
        out.append(i)
        j = i + n
        while j < len(source) and source[j] in " \t":
            j += 1
        if method:
            shape = source[max(0, i - 5):i] == "self." or source[max(0, i - 4):i] == "def "
        else:
            shape = source[i - 1:i] != "."
        if not (shape and source[j:j + 1] == "(") and "#" not in source[_line_start(source, i):i]:
            called = False
    return out, called


def _line_start(source: str, i: int) -> int:
    return max(source.rfind("\n", 0, i), source.rfind("\r", 0, i)) + 1


def _called_only(source: str, names: Dict[str, Tuple[ast.AST, Optional[ast.AST]]], elsewhere: bool = False):
    """The cheap check: the names that occur only as ``name(`` (their ``def`` included), at
    least twice (once: a module-level function that other modules may call, where
    ``elsewhere``), and the offsets of their occurrences.  A name stored, passed, imported,
    used as a parameter or declared ``global`` occurs otherwise; one written in a string or
    a comment is caught by :func:`_check_closed_calls` (an occurrence with no node)."""
    kept = {}
    offsets: Dict[str, List[int]] = {}
    normal = source if source.isascii() else unicodedata.normalize("NFKC", source)
    for n, d in names.items():
        method = isinstance(d[1], ast.ClassDef)
        where, called = _occurrences(source, n, method)
        if normal is not source and len(_occurrences(normal, n, method)[0]) != len(where):
            continue  # Python reads another spelling (`_ｈ`) as the same name
        if called and len(where) >= (1 if elsewhere and d[1] is None else 2):
            kept[n] = d
            offsets[n] = where
    return kept, offsets


def _inside(node: ast.expr, owner: ast.AST) -> bool:
    outer = cast(ast.stmt, owner)  # a class or function definition
    return (outer.lineno, outer.col_offset) <= (node.lineno, node.col_offset) \
        and (node.end_lineno or 0, node.end_col_offset or 0) \
        <= (outer.end_lineno or 0, outer.end_col_offset or 0)


def _check_closed_calls(tree: ast.AST, idx: SourceIndex,
                        names: Dict[str, Tuple[ast.AST, Optional[ast.AST]]],
                        offsets: Dict[str, List[int]], elsewhere: bool = False) -> Dict[str, ClosedFunction]:
    """The names of ``names`` that the tree shows closed, with their calls.  Only the
    nodes on the lines of an occurrence of a name (``offsets``: per name, where it occurs
    in the text) are walked: every node naming one is an occurrence.  An occurrence in a
    string (``exec("_h([1])")``, a doctest) leaves the name open; one in a comment is
    no node; every other occurrence must be a node.  ``elsewhere``: a module-level function
    with no call here stays (other modules may call it)."""
    source = idx.source
    bad: Set[str] = set()
    nodes: Dict[str, int] = {n: 0 for n in names}  # nodes that name each
    strings: List[Tuple[int, int]] = []
    # the known `def name(` is counted without walking to it (for a method, that would
    # enter the whole class)
    at_def = {n: [o for o in offs if source[max(0, o - 4):o] == "def "
                  and idx.line_col(o)[0] == names[n][0].lineno][:1]  # type: ignore[attr-defined]
              for n, offs in offsets.items()}
    lines = {n: [idx.line_col(o)[0] for o in offs if o not in at_def[n]] for n, offs in offsets.items()}
    calls: Dict[str, List[ast.Call]] = {n: [] for n in names}
    callee_ids: Set[int] = set()
    loads: Dict[str, List[ast.AST]] = {n: [] for n in names}  # each must be a callee
    methods = {n for n, (_, owner) in names.items() if isinstance(owner, ast.ClassDef)}
    for node in _nodes_on_lines(tree, sorted({ln for each in lines.values() for ln in each})):
        t = type(node)
        if t is ast.Name:
            if node.id in names:
                nodes[node.id] += 1
                if isinstance(node.ctx, ast.Load) and node.id not in methods:
                    loads[node.id].append(node)
                else:
                    bad.add(node.id)
        elif t is ast.Attribute:
            if node.attr in names:
                nodes[node.attr] += 1
            if node.attr in methods:
                if isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name) \
                        and node.value.id == "self":
                    loads[node.attr].append(node)
                else:
                    bad.add(node.attr)
            elif node.attr in names:
                bad.add(node.attr)  # a function reached as an attribute (of its own module)
        elif t is ast.Call:
            f = node.func
            if isinstance(f, ast.Name) and f.id in names and f.id not in methods \
                    or isinstance(f, ast.Attribute) and f.attr in methods:
                calls[f.id if isinstance(f, ast.Name) else f.attr].append(node)
                callee_ids.add(id(f))
        elif t in _DEFS:
            if node.name in names and names[node.name][0] is not node:
                nodes[node.name] += 1
                bad.add(node.name)
        elif t is ast.JoinedStr or t is ast.Constant and isinstance(node.value, (str, bytes)):
            strings.append((idx.start(node), idx.end(node)))
    out = {}
    for name, (func, owner) in names.items():
        if name in bad or any(id(n) not in callee_ids for n in loads[name]):
            continue
        if any(s <= o < e for o in offsets[name] for s, e in strings):
            continue  # in a string: exec, eval, a doctest may call it
        code = [o for o in offsets[name] if "#" not in source[_line_start(source, o):o]]
        if nodes[name] + len(at_def[name]) != len(code):
            continue  # an occurrence that is no node, or one taken for a comment that is not
        c = ClosedFunction(func, method=name in methods)
        if not calls[name] and not (elsewhere and owner is None) or not all(c.binds(call) for call in calls[name]):
            continue
        if owner is not None and not all(_inside(call, owner) for call in calls[name]):
            continue
        c.calls = calls[name]
        # a module-level function or a method may be called from other modules (reflection,
        # tests importing a private helper, subclasses): only a nested function's calls are all here
        c.public = not isinstance(owner, _FUNCS)
        out[name] = c
    return out


def _nodes_on_lines(tree: ast.AST, lines: List[int]):
    """The nodes whose line span holds one of ``lines`` (sorted), found without entering
    any node that spans none of them (nodes without a position are entered)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in children(node)  # no Load/Store: nothing reads them
                     if not hasattr(child, "lineno") or _spans_any(child, lines))
