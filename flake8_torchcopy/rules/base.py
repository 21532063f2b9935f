"""The shape every rule has: code, message, rationale, examples and a check.

A rule module defines one subclass of :class:`Rule`.  Its ``VALID`` snippets must
stay quiet, its ``INVALID`` examples must report exactly one finding of the
rule's code, and apply to the ``fixed`` text.  The tests, the docs pages and the
verifier's cases are all derived from these examples, so they cannot drift.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Dict, FrozenSet, Iterable, Mapping, Optional, Sequence, Tuple, Union

from ..textsearch import AnyOf, whole_word

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context


@dataclass(frozen=True)
class Example:
    """A snippet the rule reports, and what its fix turns it into.

    ``code`` and ``fixed`` are whole small modules.  ``fixed`` is None when the
    rule offers no fix; ``unsafe`` says the fix is applied only with
    ``--unsafe-fixes``.  ``verify`` names the expression before and after the fix
    for the verifier (free names are its inputs) and ``inputs`` overrides how
    the verifier builds an input (``{"n": "int:1..4"}``).
    """

    code: str
    fixed: Optional[str] = None
    unsafe: bool = False
    verify: Optional[Tuple[str, str]] = None
    inputs: Dict[str, str] = field(default_factory=dict)
    note: str = ""


class CallWord:
    """``word`` (ending in ``(``) where the identifier it ends is one of ``callees``:
    ``CallWord("tensor(", {"tensor", "as_tensor"})`` is in ``torch.tensor(x)`` and in
    ``as_tensor(x)``, not in ``is_tensor(x)``.  With ``data_only``, a call whose first
    argument is written as a literal of numbers or bools (``tensor(0.5)``,
    ``tensor([[1, 2], [3, 4]], ...)``) does not count: no tensor or array can be in it."""

    __slots__ = ("word", "callees", "data_only")

    def __init__(self, word: str, callees: Iterable[str], data_only: bool = False) -> None:
        self.word = word
        self.callees: FrozenSet[str] = frozenset(callees)
        self.data_only = data_only

    def found_in(self, text: str) -> bool:
        word = self.word
        end = len(word) - 1  # the identifier ends before the "("
        pos = text.find(word)
        while pos >= 0:
            start = stop = pos + end
            while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
                start -= 1
            if text[start:stop] in self.callees and not (self.data_only and literal_argument(text, stop + 1)):
                return True
            pos = text.find(word, pos + 1)
        return False

    def __eq__(self, other: object) -> bool:  # rules asking the same are asked once (WordsIn)
        return isinstance(other, CallWord) and (other.word, other.callees, other.data_only) == (
            self.word, self.callees, self.data_only)

    def __hash__(self) -> int:
        return hash((self.word, self.callees, self.data_only))

    @property
    def needs(self) -> str:
        """A substring every text this word is found in holds."""
        return self.word

    def __repr__(self) -> str:
        return f"CallWord({self.word!r}, {sorted(self.callees)!r})"


class WordPattern:
    """A regular expression a function's text must match, for words a substring would
    find in too many others: ``WordPattern(r"\\.T(?!\\w)")`` is in ``x.T`` and not in
    ``torch.Tensor``; several (a list) match where any does, each searched on its own (led by
    its literal: :mod:`flake8_torchcopy.textsearch`).  ``callees`` are the names it stands for
    where it names a callable (``zeros`` in a pattern of factory names): a name imported or
    bound under an alias stands in for it
    (:func:`~flake8_torchcopy.analysis.triggers.alias_groups`); ``needs``, where given, is a
    substring of every text it matches."""

    __slots__ = ("pattern", "callees", "found_in", "needs")

    def __init__(self, pattern: Union[str, Sequence[str]], callees: Iterable[str] = (),
                 needs: Optional[str] = None) -> None:
        self.pattern = pattern if isinstance(pattern, str) else "|".join(pattern)
        self.callees: FrozenSet[str] = frozenset(callees)
        self.found_in = AnyOf([pattern] if isinstance(pattern, str) else pattern).search
        self.needs = needs

    def __repr__(self) -> str:
        return f"WordPattern({self.pattern!r})"


class CalledThen:
    """A call of one of ``methods`` (``.to(``, ``.detach(``) on what a call of one of
    ``callees`` returns, maybe through calls or attributes of ``through``
    (``torch.zeros(n).view(-1).to(``, ``.T.to(``) and, where it holds ``"["``, indexes (``[None].to(``),
    or with ``itself`` on a name assigned to itself (``p = p.to(``): the chained forms a
    rule looks at, out of the many ``.to(`` of a function.  Found from each ``.method(``
    back over the receiver's text; where that text is not plain (a line break, a quote or
    a ``#`` in between) it counts as found.  With ``aliased`` (a callee the rule resolves
    by its qualified name, which a local name may stand for: ``z = torch.zeros``) any
    callee counts where the text names one of ``callees`` without calling it; ``called``
    are callees that count only where called by their name (``self.stack`` names no join)."""

    __slots__ = ("found_in", "callees")

    def __init__(self, methods: Iterable[str], callees: Iterable[str], through: Iterable[str] = (),
                 itself: bool = False, aliased: bool = False, called: Iterable[str] = ()) -> None:
        self.callees = frozenset(callees) | frozenset(called)  # a name bound to one stands in for the word
        moves = re.compile(r"\.[\s\\]*(?:%s)[\s\\]*\(" % "|".join(map(re.escape, sorted(methods))))
        named = re.compile(r"\.(?:%s)(?![\w(])" % "|".join(map(re.escape, sorted(frozenset(callees)))))
        made, ops = self.callees, frozenset(through)

        def found_in(text: str) -> bool:
            for m in moves.finditer(text):
                got = _called_before(text, m.start(), made, ops, itself)
                if got is True or got is None and aliased and named.search(text):
                    return True
            return False
        self.found_in = found_in

    def __repr__(self) -> str:
        return f"CalledThen({sorted(self.callees)[:3]!r}...)"


def _called_before(text: str, dot: int, made: FrozenSet[str], ops: FrozenSet[str], itself: bool) -> Optional[bool]:
    """Is the receiver that ends at ``text[dot]`` (a ``.``) a call of one of ``made``
    (through calls of ``ops``), or (``itself``) a name assigned to itself (``p = p.to(``,
    ``p = (p.to(``)?  True also where the text is not plain; None: a call of another name."""
    i = dot - 1
    while i >= 0 and text[i] in " \t\f":
        i -= 1
    if i < 0:
        return False
    c = text[i]
    if c in "\n\r\\":
        return True
    if c == "]" and "[" in ops:  # torch.tensor(a)[None].to(: through an index of None, ..., :
        end = i
        depth = 0
        while i >= 0:
            c = text[i]
            if c in "'\"#":
                return True
            depth += (c == "]") - (c == "[")
            if not depth:
                if text[i + 1:end].replace("None", "").strip(" \t,:."):
                    return False  # [0], [:k], [i]: not looked through
                return _called_before(text, i, made, ops, False)
            i -= 1
        return False
    if c == ")":
        depth = 0
        while i >= 0:
            c = text[i]
            if c in "'\"#":
                return True
            if c == ")":
                depth += 1
            elif c == "(":
                depth -= 1
                if not depth:
                    break
            i -= 1
        i -= 1
        while i >= 0 and text[i] in " \t\f":
            i -= 1
        if i < 0 or text[i] in "\n\r\\":
            return i >= 0
        end = i + 1
        while i >= 0 and (text[i].isalnum() or text[i] == "_"):
            i -= 1
        callee = text[i + 1:end]
        if not callee:
            return False  # (a + b).to(), f(x)(y).to(): no call of a name
        if callee in made:
            return True
        if callee in ops:
            while i >= 0 and text[i] in " \t\f":
                i -= 1
            if i >= 0 and text[i] in "\n\r\\":
                return True
            if i >= 0 and text[i] == ".":
                return _called_before(text, i, made, ops, itself)
        return None
    end = i + 1
    while i >= 0 and (text[i].isalnum() or text[i] == "_"):
        i -= 1
    name = text[i + 1:end]
    if name in ops and i >= 0 and text[i] == ".":
        return _called_before(text, i, made, ops, False)  # torch.tensor(a).T.to(: through an attribute
    if not itself:
        return False
    if not name or i >= 0 and text[i] == ".":
        return False  # an attribute (a.p.to(), never TRC112's name), or no name
    while i >= 0 and text[i] in " \t\f(":
        i -= 1
    if i >= 0 and text[i] in "\n\r\\":
        return True
    if i < 1 or text[i] != "=" or text[i - 1] in "=!<>+-*/%&|^:@":
        return False
    i -= 1
    while i >= 0 and text[i] in " \t\f":
        i -= 1
    start = i - len(name) + 1
    return start >= 0 and text[start:i + 1] == name and not (
        start and (text[start - 1].isalnum() or text[start - 1] in "_."))


class ModuleWord(str):
    """A word the module's text must hold, anywhere, and a function's need not: the
    evidence it stands for is made in another function (``nn.GRU(..., batch_first=True)``
    in ``__init__``, called in ``forward``)."""

    in_module = True


def calls_pattern(called: Iterable[str], attributes: Iterable[str] = ()) -> WordPattern:
    """A call of one of ``called`` (``zeros(``, ``Tensor (``; not ``zeros_like(``, not the
    annotation ``Tensor``), or one of ``attributes`` named but not called (``torch.zeros``
    handed to a name, then called through it)."""
    called, attributes = sorted(called, key=_common_first), sorted(attributes, key=_common_first)
    # ``(?<![\w])name\s*\(``, each searched on its own and written before its lookbehind: a
    # pattern led by a lookbehind or an alternation is tried at every position of the text
    patterns = [whole_word(c, r"\s*\(") for c in called] + [r"\.%s(?![\w(])" % re.escape(a) for a in attributes]
    names = set(called) | set(attributes)
    return WordPattern(patterns, sorted(names), needs=names.pop() if len(names) == 1 else None)


#: names most texts that call any of a pattern's call first (a text that calls one stops there)
_COMMON = ("zeros", "tensor", "ones", "empty", "arange", "full", "randn", "rand")


def _common_first(name: str) -> Tuple[int, str]:
    return (_COMMON.index(name) if name in _COMMON else len(_COMMON), name)


_LITERAL_WORDS = ("True", "False")


def literal_argument(text: str, i: int) -> bool:
    """Is the argument that starts at ``text[i]`` a literal of numbers and bools, alone or in
    (nested) lists and tuples, ending at a ``,`` or ``)`` outside its brackets?  A scan of
    characters (no regex: it must not backtrack); anything else, a name, an operator, a
    comment, answers False."""
    depth = 0
    n = len(text)
    seen = False
    while i < n:
        c = text[i]
        if c in " \t\r\n,":
            if c == "," and depth == 0:
                return seen
        elif c in "[(":
            depth += 1
        elif c in "])":
            if depth == 0:
                return seen and c == ")"
            depth -= 1
        elif c.isdigit() or (c in ".-+" and i + 1 < n and (text[i + 1].isdigit() or text[i + 1] == ".")):
            i += 1  # a number: digits, ".", "_", an exponent, a "j"
            while i < n and (text[i].isalnum() or text[i] in "._" or (text[i] in "+-" and text[i - 1] in "eE")):
                i += 1
            seen = True
            continue
        else:
            for w in _LITERAL_WORDS:
                if text.startswith(w, i) and not (text[i + len(w):i + len(w) + 1].isalnum()
                                                   or text[i + len(w):i + len(w) + 1] == "_"):
                    i += len(w)
                    seen = True
                    break
            else:
                return False
            continue
        i += 1
    return False


class Rule:
    """Base class.  Subclasses set the class attributes and implement ``check``."""

    code: ClassVar[str]
    name: ClassVar[str]  # kebab-case, e.g. "torch-tensor-copy"
    summary: ClassVar[str]  # one line for the rule table
    # The README's rules table (tools/docgen.py writes it): what the rule finds, its fix
    # ("–" for none) and when the fix is safe, each a few words of markdown.
    table_finds: ClassVar[str]
    table_fix: ClassVar[str]
    table_safety: ClassVar[str]
    rationale: ClassVar[str]  # why it matters (markdown)
    fix_safety: ClassVar[str]  # when the fix is safe and when it is not (markdown)
    # Substrings (or patterns) of which at least one group must all be present in a file
    # for the rule to possibly match: the engine's cheap pre-check.
    triggers: ClassVar[Sequence[Sequence[Union[str, WordPattern]]]]
    # The same, for the text of one function (None: ``triggers``).  Stricter, since a
    # call must be there: names imported under an alias are added by the walker.
    function_triggers: ClassVar[Optional[Sequence[Sequence[Union[str, CallWord, WordPattern, CalledThen]]]]] = None
    # ast node types the rule's check is called for.
    node_types: ClassVar[Tuple[type, ...]] = (ast.Call,)
    VALID: ClassVar[Sequence[str]] = ()
    INVALID: ClassVar[Sequence[Example]] = ()

    def check(self, node: ast.AST, ctx: "Context") -> None:  # pragma: no cover
        raise NotImplementedError

    @classmethod
    def may_match(cls, present: "Mapping[Union[str, WordPattern], bool]") -> bool:
        """``present`` maps each trigger word to whether the file contains it."""
        for group in cls.triggers:  # loops, not any(all(...)): asked of every rule for every file
            for t in group:
                if not present[t]:
                    break
            else:
                return True
        return False
