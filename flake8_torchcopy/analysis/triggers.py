"""Trigger words of a function's text: plain substrings, or :class:`CallWord` (a call of
one of some names), and the aliases that may stand for them.

The walker walks a function's body only when its text holds every word of one group
(:attr:`.visitor.Visitor.function_triggers`).  A plain word is a substring (``"tensor("``
is in ``as_tensor(``, ``is_tensor(``, ``to_tensor(`` too); a :class:`CallWord` (a rule's,
:class:`flake8_torchcopy.rules.base.CallWord`) is that substring where the name it ends is
one of the callees the rule asks about, which rules out most of them; a
:class:`~flake8_torchcopy.rules.base.WordPattern` is a regular expression (``x.T``, not
``torch.Tensor``; a factory's name as a whole identifier).  A name imported
under an alias (``from torch import tensor as T``, ``import torch as th``) or bound to one
(``T = torch.tensor``; in a block, a function, through a chain of aliases) may stand for a
word: :func:`alias_groups` gives the groups the alias then stands in for, with a call of
the alias (``T(``) where it stands for a callee.
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Dict, FrozenSet, List, Optional, Protocol, Sequence, Set, Tuple, Union


class CallWord(Protocol):
    """A word that is not a plain substring (:class:`flake8_torchcopy.rules.base.CallWord`,
    a call of one of some names; :class:`~flake8_torchcopy.rules.base.WordPattern`, a
    regular expression): found by ``found_in``; ``callees`` are the names it stands for
    where it names a callable, which an alias then stands in for."""

    callees: FrozenSet[str]

    def found_in(self, text: str) -> object: ...


Word = Union[str, CallWord]


def found(word: Word, text: str) -> bool:
    """Is ``word`` in ``text``?"""
    return word in text if isinstance(word, str) else bool(word.found_in(text))


class WordsIn(dict):
    """``word -> found(word, source)``, each looked for once and only when asked: shared by
    the engine's file check (a rule's groups short-circuit: with no ``view(`` in the file,
    TRC201's other words are never searched) and the walker's trigger groups."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source
        self.absent: List[str] = []  # plain words not in the text: no word holding one is

    def __missing__(self, word: Word) -> bool:
        need = word if word.__class__ is str else getattr(word, "needs", None)
        if need is not None:
            for gone in self.absent:
                if gone in need:
                    self[word] = False
                    return False
        known = self[word] = word in self.source if isinstance(word, str) else bool(word.found_in(self.source))
        if not known and word.__class__ is str:
            self.absent.append(word)
        return known


def _hidden(word: Word, qualname: str, binds_module: bool) -> bool:
    """May a name bound to ``qualname`` (a module where ``binds_module``), used under an
    alias, stand for ``word`` in the text?  An attribute (``.to(``) is written out whatever
    its receiver is named; a call (``tensor(``) only by a name bound to the callee, never a
    module; any other word by a name whose qualified name holds it."""
    parts = qualname.split(".")
    if not isinstance(word, str):
        return not binds_module and parts[-1] in word.callees
    text = word
    if text.startswith("."):
        return False
    core = text.rstrip("(")
    if text.endswith("("):
        return not binds_module and parts[-1].endswith(core)
    return any(core in p for p in parts)


def alias_groups(tree: ast.AST, triggers: Sequence[Sequence[Word]], source: str) -> List[Tuple[Word, ...]]:
    """The groups the names a module binds to another name anywhere stand in for
    (:func:`_bindings`): a
    group of ``triggers`` with the words the alias may stand for replaced by the alias
    (``import torch as th``: ``("torch", ".to(")`` gives ``("th", ".to(")``;
    ``T = torch.tensor``: ``(CallWord("tensor(", ...),)`` gives ``("T",)``)."""
    out: List[Tuple[Word, ...]] = []

    def add(alias: str, qualname: str, module: bool) -> None:
        for group in triggers:
            hidden = [w for w in group if _hidden(w, qualname, module)]
            if not hidden:
                continue
            # where a callee is hidden, the alias is called (T = torch.tensor: "T(")
            word: Word = alias if all(isinstance(w, str) for w in hidden) else _Called(alias)
            new = (word,) + tuple(w for w in group if w not in hidden)
            if new not in out:
                out.append(new)

    callees = frozenset().union(*(w.callees for g in triggers for w in g if not isinstance(w, str)))
    cores = {w.rstrip("(") for g in triggers for w in g if isinstance(w, str) and not w.startswith(".")}
    relevant = _relevance(frozenset(cores), callees)
    if relevant is None:
        return out
    # a bare name (W = Z) is kept too: it may be a link of a chain of aliases
    for alias, qualname, module in dict.fromkeys(_bindings(tree, source, lambda q: "." not in q or relevant(q))):
        if relevant(qualname):
            add(alias, qualname, module)
    return out


def _relevance(cores: FrozenSet[str], callees: FrozenSet[str]) -> Optional[Callable[[str], object]]:
    """Whether a dotted name may stand for a word: it holds one of ``cores``, or ends in
    one of ``callees`` (None: nothing can).  Substring tests, not a pattern: the rules
    active in a file vary, and compiling one alternation per set cost more than the few
    names a module binds to others take to test."""
    if not cores and not callees:
        return None
    ordered = tuple(sorted(cores))

    def relevant(qualname: str) -> bool:
        for core in ordered:
            if core in qualname:
                return True
        return qualname.rpartition(".")[2] in callees
    return relevant


# around each ``:=`` (found by str.find: a pattern led by the name would be tried at every
# position of the file): the name bound before it, the dotted name after it
_WALRUS_NAME = re.compile(r"(?<![\w.])([^\W\d]\w*)\s*$")
_WALRUS_VALUE = re.compile(r"\s*\(?\s*([^\W\d]\w*(?:\s*\.\s*[^\W\d]\w*)*)(?![\w.])(?!\s*[(\[])")
_CHAIN = 3  # links of a chain of aliases followed
_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")
_BLOCK_FIELDS: Dict[type, Tuple[str, ...]] = {}  # a statement class -> those of its fields


def _bindings(tree: ast.AST, source: str, keep: Callable[[str], object] = bool) -> List[Tuple[str, str, bool]]:
    """``(alias, qualified name, binds a module)`` of every name bound to another by an
    ``import ... as``, an assignment of a dotted name (``T = torch.tensor``; a tuple of
    them; ``:=``) by the module's own statements, in ``if``/``try``/``with``/loop blocks
    too, the first name of a dotted value replaced by what an alias of it stands for
    (``W = Z`` where ``Z = torch.zeros``).  Not in functions or classes: reading every
    body would cost every file (a function's own ``z = torch.zeros`` is in its text, which
    :func:`~flake8_torchcopy.rules.base.calls_pattern` finds; its own ``from torch import
    zeros as z`` is not followed)."""
    pairs: List[Tuple[str, str, bool]] = []
    stack: List[ast.AST] = list(getattr(tree, "body", ()))
    while stack:  # statements only: cheap, expressions are not entered
        node = stack.pop()
        kind = node.__class__
        if kind is ast.Import or kind is ast.ImportFrom:
            for a in node.names:  # type: ignore[attr-defined]
                if a.asname:
                    pairs.append((a.asname, a.name, True) if kind is ast.Import else
                                 (a.asname, ".".join(p for p in (node.module, a.name) if p), False))  # type: ignore[attr-defined]
        elif kind is ast.Assign or kind is ast.AnnAssign:
            if node.value is not None:  # type: ignore[attr-defined]
                for t in node.targets if kind is ast.Assign else [node.target]:  # type: ignore[attr-defined]
                    _pair(t, node.value, pairs, keep)  # type: ignore[attr-defined]
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef or kind is ast.ClassDef:
            continue  # the module's own names only: a walk of every body costs every file
        fields = _BLOCK_FIELDS.get(kind)
        if fields is None:
            fields = _BLOCK_FIELDS[kind] = tuple(f for f in _BLOCKS if f in kind._fields)
        for name in fields:
            for child in getattr(node, name) or ():
                stack.extend(child.body if name in ("handlers", "cases") else (child,))
    if ":=" in source:  # a text scan, not a walk of every expression
        pos = source.find(":=")
        while pos >= 0:
            bound = _WALRUS_NAME.search(source, max(0, pos - 200), pos)
            value = _WALRUS_VALUE.match(source, pos + 2)
            if bound and value:
                pairs.append((bound[1], re.sub(r"\s", "", value[1]), False))
            pos = source.find(":=", pos + 2)
    known: Dict[str, Set[Tuple[str, bool]]] = {}
    for alias, q, m in pairs:
        known.setdefault(alias, set()).add((q, m))
    for _ in range(_CHAIN):  # W = Z, Z = torch.zeros; not node = node.parent
        grown = []
        for alias, q, _m in pairs:
            head, _, rest = q.partition(".")
            for hq, hm in list(known.get(head, ()) if head != alias else ()):
                new = (hq + "." + rest if rest else hq, hm and not rest)
                if hq.partition(".")[0] not in (alias, head) and new not in known[alias]:
                    known[alias].add(new)
                    grown.append((alias,) + new)
        if not grown:
            break
        pairs.extend(grown)
    return pairs


def _pair(target: ast.AST, value: ast.AST, pairs: List[Tuple[str, str, bool]],
          keep: Callable[[str], object] = bool) -> None:
    """``target = value``'s aliases: a name bound to a dotted name ``keep`` keeps, item by
    item for tuples."""
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
            and len(target.elts) == len(value.elts):
        for t, v in zip(target.elts, value.elts):
            _pair(t, v, pairs, keep)
        return
    dotted = _dotted(value)
    if dotted is not None and isinstance(target, ast.Name) and target.id != dotted and keep(dotted):
        pairs.append((target.id, dotted, False))


def _dotted(node: ast.AST) -> Optional[str]:
    """``a.b.c`` of a chain of names and attributes, else None."""
    parts: List[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


class _Called:
    """``alias(`` (``alias (``), where the identifier is ``alias`` (not ``my_alias(``, not
    an attribute ``x.alias(``)."""

    __slots__ = ("alias", "callees", "found_in")

    def __init__(self, alias: str) -> None:
        self.alias = alias
        self.callees: FrozenSet[str] = frozenset()
        self.found_in = re.compile(r"(?<![\w.])%s\s*\(" % re.escape(alias)).search

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Called) and other.alias == self.alias

    def __hash__(self) -> int:
        return hash(("called", self.alias))

    def __repr__(self) -> str:
        return f"_Called({self.alias!r})"


def returning_groups(tree: ast.AST, groups: Sequence[Sequence[Word]], source: str, present) -> List[Tuple[Word, ...]]:
    """Trigger groups a module-level function stands in for by what it returns: where a
    group is ``("view(", w)`` (TRC201's) and a ``def f`` of the module holds ``w`` and ends
    in a ``return``, ``("view(", f(...))``: a function that views what ``f`` returns
    (``y = f(...)`` then ``y.view(``, or ``f(...).view(``) may judge a permuted layout.
    (:mod:`.funclayouts`) Asked per module, only where such a group is present."""
    from .funclayouts import returns_lay_text
    pairs = [g for g in groups if len(g) == 2 and g[0] == "view(" and not getattr(g[1], "in_module", False)
             and present[g[0]] and present[g[1]]]
    if not pairs or not isinstance(tree, ast.Module):
        return []
    defs = [s for s in tree.body if isinstance(s, ast.FunctionDef) and not s.decorator_list
            and isinstance(s.body[-1], ast.Return)]
    if not defs:
        return []
    lines = source.splitlines()
    out: List[Tuple[Word, ...]] = []
    for d in defs:
        own = lines[d.lineno - 1:d.end_lineno]
        if any(found(g[1], "\n".join(own)) for g in pairs) and returns_lay_text(own):
            group = ("view(", _Viewed(d.name))
            if group not in out:
                out.append(group)
    return out


class _Viewed(_Called):
    """``y = f(...)`` then ``y.view(``, or ``f(...)`` then ``.view(`` on the same line:
    what a call of ``f`` returns may be viewed."""

    __slots__ = ()

    def __init__(self, alias: str) -> None:
        super().__init__(alias)
        bound = re.compile(r"(\w+)\s*=\s*%s\s*\(" % re.escape(alias))
        chained = re.compile(r"(?<![\w.])%s\s*\([^\n]*\.view\(" % re.escape(alias))

        def found_in(text: str) -> bool:
            if chained.search(text):
                return True
            return any(re.search(r"(?<![\w.])%s\s*\.\s*view\(" % re.escape(m.group(1)), text)
                       for m in bound.finditer(text))
        self.found_in = found_in  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Viewed) and other.alias == self.alias

    def __hash__(self) -> int:
        return hash(("viewed", self.alias))
