"""The engine: one cheap pre-check, one parse, one traversal for all rules; then fixes.

``lint_source`` is what the flake8 plugin and ``torchcopy-fix`` both call.  A file
that contains none of the rules' trigger words costs a handful of substring
searches.  Otherwise the ``ast`` tree (handed over by flake8 for free, or parsed
here) is walked once by :class:`~flake8_torchcopy.analysis.flow.FlowWalker`,
which resolves torch names, infers tensor-ness and layouts; the rule runner
(:mod:`flake8_torchcopy.rule_runner`) dispatches the nodes to every active rule that
cares about them and turns the rules' reports into findings.

A fix says what to replace where (see :mod:`flake8_torchcopy.finding`);
``apply_fixes`` applies the non-overlapping ones as a LibCST transformation
(:mod:`flake8_torchcopy.libcst_edits`, imported only when there is a fix to apply)
and ``fix_rounds`` / ``fix_source`` repeat lint-and-fix rounds until nothing
changes.

A module nested deeper than the default recursion limit allows the walk (a sum of
500 terms) is walked again in :func:`~flake8_torchcopy.source.deep_call`'s thread,
up to :data:`MAX_LEVELS` levels; deeper ones raise :class:`TooDeep`.
"""
from __future__ import annotations

import ast
import gc
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, List, Optional, Sequence, Tuple

from .analysis.triggers import WordsIn
from .finding import Finding
from .rules import ALL_RULES, Rule
from .source import deep_call, nesting_depth, parse_python, recursion_limit_kept, source_depth

MAX_FIX_ROUNDS = 10
#: the deepest ``ast`` the analysis walks (Python compiles about 3000 levels)
MAX_LEVELS = 20000


class TooDeep(RecursionError):
    """Code nested more deeply than the analysis (or LibCST) handles; the message says so."""


@dataclass(frozen=True)
class Options:
    """Analysis options shared by the plugin and the CLI."""

    trust_annotations: bool = False
    #: count the calls of public module-level functions too (their fixes are then unsafe)
    public_helpers: bool = False


DEFAULT_OPTIONS = Options()


def prefix_len(code: str, prefixes: Optional[Sequence[str]]) -> int:
    """Length of the longest prefix in ``prefixes`` that ``code`` starts with; -1 for none."""
    return max((len(p) for p in prefixes or () if code.startswith(p)), default=-1)


def select_rules(
    select: Optional[Sequence[str]] = None,
    ignore: Optional[Sequence[str]] = None,
    extend_select: Optional[Sequence[str]] = None,
) -> Tuple[Rule, ...]:
    """The rules whose code matches a selected prefix and no ignored one (flake8 semantics)."""
    sel = (tuple(select) if select else ("TRC",)) + tuple(extend_select or ())
    chosen = []
    for rule in ALL_RULES:
        best_sel = prefix_len(rule.code, sel)
        # a longer (more specific) select wins over a shorter ignore, as in flake8
        if best_sel >= 0 and prefix_len(rule.code, ignore) < best_sel:
            chosen.append(rule)
    return tuple(chosen)


#: objects allocated between two collections of the youngest generation while a file is
#: analysed (Python's default is 700)
GC_YOUNG_THRESHOLD = 10_000
_gc_lock = threading.Lock()
_gc_depth = [0]  # lints under way
_gc_saved: List[Tuple[int, ...]] = []  # the setting before the outermost one began


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect the youngest generation less often while a file is analysed, as it was
    before afterwards.  The analysis allocates millions of short-lived objects and leaves
    no reference cycles (each is freed when its count drops); at Python's default every
    700 allocations start a collection, and every tenth of those the next generation,
    which walk what is alive -- the tree, the walker's tables, the caller's own objects --
    each time: on torch's sources about 1.5 s of a 10.5 s lint, 0.4 s with this.  Nested
    and concurrent lints (threads) share one setting: the outermost restores it."""
    with _gc_lock:
        if not _gc_depth[0]:
            young, *older = saved = gc.get_threshold()
            _gc_saved.append(saved)
            gc.set_threshold(max(young, GC_YOUNG_THRESHOLD), *older)
        _gc_depth[0] += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_depth[0] -= 1
            if not _gc_depth[0]:
                gc.set_threshold(*_gc_saved.pop())


def lint_source(
    source: str,
    path: Optional[str] = None,
    *,
    rules: Optional[Iterable[Rule]] = None,
    options: Options = DEFAULT_OPTIONS,
    tree: Optional[ast.AST] = None,
) -> List[Finding]:
    """Findings of ``rules`` (default: all) in ``source``, sorted by position.

    Raises ``SyntaxError`` (or ``ValueError`` for NUL bytes) when the source does
    not parse.  ``# noqa`` comments are not applied here: flake8 applies them for
    the plugin, and :mod:`flake8_torchcopy.cli.noqa` for the CLI.
    """
    from .analysis.project import release_trees
    from .rule_runner import run_rules

    candidates = ALL_RULES if rules is None else tuple(rules)
    present = WordsIn(source)
    active = [r for r in candidates if r.may_match(present)]
    if not active:
        return []
    with fewer_collections(), recursion_limit_kept():
        if tree is None:
            tree = parse_python(source, path or "<unknown>")
        try:
            findings = run_rules(source, tree, active, options, path, words=present)
        except RecursionError:
            levels = nesting_depth(tree)
            if levels > MAX_LEVELS:
                raise TooDeep(f"the code is nested {levels} levels deep, more than the analysis "
                              f"handles ({MAX_LEVELS})") from None
            findings = deep_call(levels, run_rules, source, tree, active, options, path, (), present)
        finally:
            # the other modules' trees the summaries kept while this file asked about them
            # (kept between files, every garbage collection would traverse them)
            release_trees()
    findings.sort(key=lambda f: (f.line, f.col, f.code))
    return findings


def apply_fixes(
    source: str, findings: Iterable[Finding], unsafe: bool = False
) -> Tuple[str, List[Finding]]:
    """Apply the fixes of ``findings`` that are allowed and don't overlap an earlier one.

    Returns the new source and the findings whose fix was applied.  Raises
    :class:`~flake8_torchcopy.finding.FixRefused` (a ``ValueError``) when LibCST
    cannot parse the source, the code is nested too deeply for it or the result
    would change bytes outside the fixes.
    """
    chosen: List[Finding] = []
    taken: List[Tuple[int, int]] = []
    for f in sorted(findings, key=lambda f: (f.line, f.col)):
        if f.fix is None or (not f.fix.safe and not unsafe):
            continue
        spans = [(e.start, e.end) for e in f.fix.edits]
        if any(s < te and ts < e or (s == e == ts == te) for s, e in spans for ts, te in taken):
            continue  # overlaps an earlier fix: the next round gets it
        taken.extend(spans)
        chosen.append(f)
    if not chosen:
        return source, chosen
    from .libcst_edits import apply_edits

    return apply_edits(source, [e for f in chosen for e in f.fix.edits]), chosen  # type: ignore[union-attr]


def fix_rounds(
    source: str,
    unsafe: bool = False,
    *,
    rules: Optional[Iterable[Rule]] = None,
    options: Options = DEFAULT_OPTIONS,
    path: Optional[str] = None,
    tree: Optional[ast.AST] = None,
    keep: Optional[Callable[[str, List[Finding]], List[Finding]]] = None,
    allow: Optional[Callable[[str, List[Finding]], List[Finding]]] = None,
) -> Tuple[str, List[Finding], List[Finding]]:
    """Apply fixes in rounds until nothing changes: (new source, applied findings, findings left).

    ``keep(source, findings)`` filters each round's findings (noqa, per-file ignores);
    ``allow(source, findings)`` picks those whose fix may be applied this round
    (``torchcopy-fix --verify``).  ``tree`` is the parsed ``source``, if at hand.
    """
    rules = tuple(ALL_RULES if rules is None else rules)

    def lint(src: str, tree: Optional[ast.AST] = None) -> List[Finding]:
        found = lint_source(src, path, rules=rules, options=options, tree=tree)
        return keep(src, found) if keep is not None else found

    applied_all: List[Finding] = []
    for _ in range(MAX_FIX_ROUNDS):
        findings = lint(source, tree)
        allowed = allow(source, findings) if allow is not None else findings
        if tree is not None and any(f.fix is not None for f in allowed):
            source_depth(source, tree)  # known now: the fixes need not parse the source again
        tree = None
        new, applied = apply_fixes(source, allowed, unsafe=unsafe)
        if not applied or new == source:
            return source, applied_all, findings
        applied_all.extend(applied)
        source = new
    return source, applied_all, lint(source)


def fix_source(
    source: str,
    unsafe: bool = False,
    *,
    rules: Optional[Iterable[Rule]] = None,
    options: Options = DEFAULT_OPTIONS,
    path: Optional[str] = None,
    keep: Optional[Callable[[str, List[Finding]], List[Finding]]] = None,
) -> str:
    """Apply fixes in rounds until nothing changes; see :func:`fix_rounds`."""
    return fix_rounds(source, unsafe, rules=rules, options=options, path=path, keep=keep)[0]
