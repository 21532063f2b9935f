"""Trigger words of a function's text: plain substrings, or :class:`CallWord` (a call of
one of some names), and the aliases that may stand for them.

The walker walks a function's body only when its text holds every word of one group
(:attr:`.visitor.Visitor.function_triggers`).  A plain word is a substring (``"tensor("``
is in ``as_tensor(``, ``is_tensor(``, ``to_tensor(`` too); a :class:`CallWord` (a rule's,
:class:`flake8_torchcopy.rules.base.CallWord`) is that substring where the name it ends is
one of the callees the rule asks about, which rules out most of them.  A name imported
under an alias (``from torch import tensor as T``, ``import torch as th``) or bound to one
at the top level (``T = torch.tensor``) may stand for a word: :func:`alias_groups` gives
the groups the alias then stands in for.
"""
from __future__ import annotations

import ast
from typing import FrozenSet, List, Optional, Protocol, Sequence, Tuple, Union


class CallWord(Protocol):
    """A word that is a call of one of some names (:class:`flake8_torchcopy.rules.base.CallWord`):
    ``word`` (ending in ``(``) where the identifier it ends is one of ``callees``."""

    word: str
    callees: FrozenSet[str]

    def found_in(self, text: str) -> bool: ...


Word = Union[str, CallWord]


def found(word: Word, text: str) -> bool:
    """Is ``word`` in ``text``?"""
    return word in text if isinstance(word, str) else word.found_in(text)


class WordsIn(dict):
    """``word -> found(word, source)``, each looked for once and only when asked: shared by
    the engine's file check (a rule's groups short-circuit: with no ``view(`` in the file,
    TRC201's other words are never searched) and the walker's trigger groups."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    def __missing__(self, word: Word) -> bool:
        known = self[word] = found(word, self.source)
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


def alias_groups(tree: ast.AST, triggers: Sequence[Sequence[Word]]) -> List[Tuple[Word, ...]]:
    """The groups the names a module binds to another name at its top level stand in for: a
    group of ``triggers`` with the words the alias may stand for replaced by the alias
    (``import torch as th``: ``("torch", ".to(")`` gives ``("th", ".to(")``;
    ``T = torch.tensor``: ``(CallWord("tensor(", ...),)`` gives ``("T",)``)."""
    out: List[Tuple[Word, ...]] = []

    def add(alias: str, qualname: str, module: bool) -> None:
        for group in triggers:
            kept = tuple(w for w in group if not _hidden(w, qualname, module))
            if len(kept) < len(group) and (alias,) + kept not in out:
                out.append((alias,) + kept)

    for node in tree.body:  # type: ignore[attr-defined]
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                if not a.asname:
                    continue
                if isinstance(node, ast.Import):
                    add(a.asname, a.name, True)
                else:
                    add(a.asname, ".".join(p for p in (node.module, a.name) if p), False)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            dotted = _dotted(node.value)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if dotted is not None:
                for t in targets:
                    if isinstance(t, ast.Name):
                        add(t.id, dotted, False)
    return out


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
