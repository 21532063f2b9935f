"""Judging a ``.view(...)`` call: legal, raising (unless which sizes are 1), or not known.

The receiver's sizes and strides come from the evaluator (:class:`~.values.Value`), the
decision from :func:`~.layout.view_verdict`.  A layout that holds only while some sizes
are not 1 (``Value.assumes``: an elementwise op's output order) adds those sizes to the
"unless" list, so the claim stays true for every size.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple, cast

from . import viewlegality as VL
from .funclayouts import returned_here
from .instancemethods import from_elsewhere
from .selfmethods import hedged
from .symbolic import Condition, Mono, Sym
from .values import Value

LEGAL, ILLEGAL, UNKNOWN = VL.LEGAL, VL.ILLEGAL, VL.UNKNOWN


@dataclass(frozen=True)
class ViewJudgement:
    """``verdict``: LEGAL, ILLEGAL or UNKNOWN.  For ILLEGAL, ``unless``: sets of conditions
    (``"x.size(0) == 1"``, ``"x.dim() < 2"``); the view raises unless every condition of one
    set holds.  ``origin``: the op that made the
    receiver's layout (``".transpose(1, 2)"``), if the analysis knows it."""

    verdict: str
    unless: Tuple[Tuple[str, ...], ...] = ()
    origin: Optional[str] = None
    elsewhere: bool = False  # the layout rests on another module of the project (a fix is unsafe)

    @property
    def raises(self) -> bool:
        """Proven to raise (unless the sizes named are 1)."""
        return self.verdict == ILLEGAL


NOT_JUDGED = ViewJudgement(UNKNOWN)


def judge_view(recv: Value, target: Optional[Sequence[Optional[Mono]]],
               args_text: str = "") -> ViewJudgement:
    """The judgement of ``recv.view(*target)`` (target sizes, None for ``-1``; ``args_text``:
    the call's argument text, to tell a size named before a rebinding from the one the
    arguments read)."""
    layout = recv.open_layout or (recv.sizes, recv.strides)
    if layout[0] is None or layout[1] is None or target is None or None in layout[0]:
        return NOT_JUDGED
    sizes = cast(Sequence[Mono], layout[0])
    reads = recv.sizes is not None or _reads_sizes(target, sizes)
    if not reads and not any(_cut(a) for m in sizes for a in m.atoms()):
        return NOT_JUDGED
    verdict, rescues = VL.view_verdict(sizes, layout[1], target)
    if not reads and not (verdict == VL.ILLEGAL and any(_cut(a) for r in rescues for a in r)):
        return NOT_JUDGED
    if verdict != VL.ILLEGAL:
        return ViewJudgement(verdict, origin=recv.permuted_by)
    if any(hedged(a) for m in list(sizes) + list(layout[1]) for a in m.atoms()):
        return NOT_JUDGED  # it rests on what a method overridable elsewhere returns
    rescues = _with_assumptions(rescues, recv.assumes)
    in_target = {sym for m in target if m is not None for sym in m.atoms()}
    rescues.sort(key=lambda syms: (any(isinstance(s, Condition) for s in syms), len(syms),
                                   not set(syms) <= in_target))  # sizes first, then conditions
    read = {a for m in target if m is not None for a in m.atoms()}
    unless = tuple(tuple(s.name if isinstance(s, Condition) else
                         f"{_label(s, read, args_text, recv.permuted_by)} == 1" for s in syms)
                   for syms in rescues)
    elsewhere = any(from_elsewhere(a) or returned_here(a) for m in list(sizes) + list(layout[1]) for a in m.atoms())
    return ViewJudgement(ILLEGAL, unless, recv.permuted_by, elsewhere)


_SIZE_OF = re.compile(r"(.+)\.size\((\d+)\)")


def _label(sym: Sym, read, args_text: str, origin: Optional[str]) -> str:
    """The size's name, said of the tensor before the permutation when the view's own
    arguments spell the same name for another size (``x = x.transpose(1, 2)`` then
    ``x.view(x.size(0), x.size(1) // k, -1)``: the "x.size(1)" that must be 1 is the old x's)."""
    m = _SIZE_OF.fullmatch(sym.name)
    if m is None or sym in read or sym.name not in args_text:
        return sym.name
    before = f" before {origin}" if origin else " before the permutation"
    return f"({m.group(1)}{before}).size({m.group(2)})"


def _with_assumptions(rescues: List[Tuple[Sym, ...]], assumes) -> List[Tuple[Sym, ...]]:
    """The rescues, plus each size the layout assumed not to be 1 (or :class:`Condition`
    it assumed false) that no rescue of its own already covers (a rescue set containing
    it is then implied by it)."""
    out = list(rescues)
    for sym in sorted(assumes, key=lambda s: s.name):
        if any(set(r) <= {sym} for r in out):
            continue
        out = [r for r in out if sym not in r] + [(sym,)]
    return out


def _reads_sizes(target: Sequence[Optional[Mono]], sizes: Sequence[Mono]) -> bool:
    """Of a tensor whose rank is not known, only views whose arguments read its sizes are
    judged, and those that raise unless (among others) a part the code cut (``correct[:k]``)
    has size 1: ``y.view(-1)`` of an untraced ``y`` depends on sizes the code never looks
    at and often fixes by design (a 1-channel convolution's output), while a dim the code
    cuts a part of is one it takes to be longer than that part."""
    known = {a for m in sizes for a in m.atoms()}
    return any(a in known for m in target if m is not None for a in m.atoms())


def _cut(sym: Sym) -> bool:
    """The size of a part of a dim cut by a slice (``x[:k]``), where it is not known."""
    key = sym.key[1]
    return isinstance(key, tuple) and key[:1] == ("slice",)
