"""The chain of decisions of the cross-module summaries, and what each answer rests on.

Deciding whether a function of another module returns a tensor may ask about a function of
a third module, and so on: the functions being decided form a stack (:data:`_STACK`), one
:class:`_Frame` each, recording the files (path and version) its answer read and the
longest chain of decisions it opened.  An answer is remembered with that record and used
again only where deciding afresh would read the same (:func:`valid`), so answers do not
depend on the order the questions come in.  A cycle of calls across modules, or a chain
deeper than :data:`MAX_DEPTH`, is cut: the answer is no, and neither it nor any answer that
rests on it is remembered (:data:`CUTS` counts the cuts).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple, Union

from .projectdisk import Version, stat_key

#: how many modules a name is followed through (re-exports, chains of decisions), the first included
MAX_DEPTH = 6

Reads = Dict[str, Optional[Version]]  # path -> the version an answer read


class _Frame:
    """A function being decided: the modules (path -> version) its answer read, and the
    longest chain of decisions it opened (itself included)."""

    __slots__ = ("reads", "height")

    def __init__(self, path: str, key: Optional[Version]) -> None:
        self.reads: Reads = {path: key}
        self.height = 1


_STACK: List[_Frame] = []  # the functions being decided, outermost first
_BUILDING: Set[str] = set()  # the paths of their modules
CUTS = [0]  # how many answers were cut short (by a cycle, or MAX_DEPTH): those are not cached


def depth() -> int:
    """How many decisions are open."""
    return len(_STACK)


def frame() -> _Frame:
    """The innermost decision being made."""
    return _STACK[-1]


def read(path: str, key: Optional[Version]) -> None:
    """The decision being made (if any) rests on the file at ``path`` as it is now."""
    if _STACK:
        _STACK[-1].reads[path] = key


def valid(reads: Reads, height: int, at: int, own: Optional[str] = None) -> bool:
    """Would deciding afresh, ``at`` decisions deep, read the same: no module it read is
    being decided now (that would be a cut), the chain fits under :data:`MAX_DEPTH`, and
    no module it read changed on disk?"""
    if at + height > MAX_DEPTH:
        return False
    for path, key in reads.items():
        if path != own and path in _BUILDING or stat_key(path) != key:
            return False
    return True


def note(reads: Reads, height: int) -> None:
    """The decision being made rests on an answer that read ``reads``."""
    if _STACK:
        top = _STACK[-1]
        top.reads.update(reads)
        top.height = max(top.height, height + 1)


def tensor_def(module, name: str) -> Union[bool, Tuple[bool, ...]]:
    """Does ``module``'s function ``name`` (a :class:`~.projectmodule.Module`) return a
    tensor on every path (True), or a tuple display with tensors where the answer's tuple
    says (:data:`~.returnwalker.Shape`)?  Decided when first asked (:meth:`~.projectmodule.Module.decide`),
    and remembered with what it read (:func:`valid`).  A module whose function is being
    decided is not entered again (a cycle), nor one more than :data:`MAX_DEPTH` decisions
    deep: the answer is no, and neither it nor any answer that rests on it is remembered."""
    if name not in module.candidates and name.partition("()")[0] not in module.class_names:
        return False  # ("Net()": what calling an instance of a class returns; "Net().m": its method m)
    hit = module.decided.get(name)
    if hit is not None and valid(hit[1], hit[2], len(_STACK)):
        note(hit[1], hit[2])
        return hit[0]
    if module.path in _BUILDING or len(_STACK) >= MAX_DEPTH:
        CUTS[0] += 1  # a cycle of calls across modules, or too long a chain
        return False
    top = _Frame(module.path, module.key)
    _STACK.append(top)
    _BUILDING.add(module.path)
    cuts = CUTS[0]
    try:
        answer: Union[bool, Tuple[bool, ...]] = module.decide(name)
    except (RecursionError, MemoryError, SyntaxError, ValueError):
        answer = False
    finally:
        _STACK.pop()
        _BUILDING.discard(module.path)
    if CUTS[0] == cuts:
        module.decided[name] = (answer, top.reads, top.height)
    note(top.reads, top.height)
    return answer


def body_frame(path: str, key: Optional[Version]):
    """A frame standing for the walk of a module's body, in place of the innermost one
    while it runs (a context manager yielding the frame)."""
    return _BodyFrame(path, key)


class _BodyFrame:
    def __init__(self, path: str, key: Optional[Version]) -> None:
        self.frame = _Frame(path, key)

    def __enter__(self) -> _Frame:
        self.saved = _STACK[-1]
        _STACK[-1] = self.frame
        return self.frame

    def __exit__(self, *exc) -> None:
        _STACK[-1] = self.saved
