"""Apply fix edits as a LibCST transformation, and check the bytes they may change.

The ``ast`` analysis says what to replace and where (character offsets, see
:mod:`flake8_torchcopy.finding`); here the module is parsed with LibCST, each
edit's span is mapped to the expression node with exactly that span, the new
node is built from LibCST nodes (a template whose holes are the original
sub-nodes, or ``with_changes`` for a swap of chained calls), and the module is
rendered by LibCST.  The rendering is refused (:class:`FixRefused`) unless,
outside the edited nodes, it is LibCST's rendering of the input.  The output is
the input with each edited span replaced by its LibCST rendering: the same
thing, except where LibCST's round trip loses a byte of the input (a lone ``\r``
ending the file), which is kept.

Form feeds in the indentation of a statement's line are not shown to LibCST:
Python measures the indentation from after the last one, LibCST takes it into
the block's indentation string and writes it before every statement of the
block (or fails on a nested block).  They are cut from the text LibCST parses,
with what comes before them on the line, and put back in the output.

Code nested more than a few dozen levels deep (a sum of 500 terms) is handled
in :func:`~flake8_torchcopy.source.deep_call`'s thread; more than
:data:`MAX_FIX_LEVELS` levels is refused (LibCST's parser takes seconds, then
overflows the stack).

Only files that get a fix import this module (and so LibCST).
"""
from __future__ import annotations

import dataclasses
import re
import tokenize
import warnings
from bisect import bisect_right
from collections import OrderedDict
from typing import Dict, List, NoReturn, Optional, Sequence, Tuple, cast

import libcst as cst
from libcst.helpers import parse_template_expression
from libcst.metadata.base_provider import BaseMetadataProvider
from libcst.metadata.span_provider import CodeSpan, SpanProvidingCodegenState

from .finding import Edit, FixRefused, Hole, Replacement
from .source import deep_call, line_starts, source_depth

_CACHE_SIZE = 4
_parsed: "OrderedDict[str, cst.Module]" = OrderedDict()
Spans = Dict[cst.CSTNode, CodeSpan]
#: the deepest code given to LibCST (its parser takes about 4 s at 5000 levels, time
#: growing with the square of the depth, and overflows an 8 MiB stack near 7000)
MAX_FIX_LEVELS = 4000
#: LibCST walks code this deep within the default recursion limit; deeper code is
#: handled in a thread with room for it
_SHALLOW_LEVELS = 80


class _CharSpans(BaseMetadataProvider[CodeSpan]):
    """Collects each node's syntactic span (parentheses excluded, as in ``ast``) in characters."""


def render(module: cst.Module) -> Tuple[str, Spans]:
    """The module's code and its nodes' spans, from one LibCST code generation (what
    ``ByteSpanPositionProvider`` does, counting characters instead of bytes)."""
    provider = _CharSpans()
    state = SpanProvidingCodegenState(
        default_indent=module.default_indent, default_newline=module.default_newline, provider=provider)
    module._codegen(state)
    return "".join(state.tokens), provider._computed  # type: ignore[return-value]


def remember(module: cst.Module, code: str) -> None:
    """Keep ``module`` as the parse of ``code`` (the few most recent ones)."""
    _parsed[code] = module
    _parsed.move_to_end(code)
    while len(_parsed) > _CACHE_SIZE:
        _parsed.popitem(last=False)


def parse(source: str) -> cst.Module:
    """``source`` as a LibCST module (cached: ``--verify`` applies fixes one at a time)."""
    module = _parsed.get(source)
    if module is None:
        try:
            module = cst.parse_module(source)
        except cst.ParserSyntaxError as exc:
            raise FixRefused(f"cannot fix: LibCST cannot parse the file: {exc.message} "
                             f"(line {exc.raw_line})") from None
    remember(module, source)
    return module


def apply_edits(source: str, edits: Sequence[Edit], *, levels: Optional[int] = None) -> str:
    """``source`` with the non-overlapping ``edits`` applied through LibCST.  ``levels`` is
    the nesting depth of ``source``'s ``ast`` (:func:`~flake8_torchcopy.source.nesting_depth`);
    by default :func:`~flake8_torchcopy.source.source_depth` finds it."""
    if levels is None:
        levels = _depth(source)
    if levels > MAX_FIX_LEVELS:
        raise FixRefused(f"cannot fix: the code is nested {levels} levels deep, more than "
                         f"LibCST handles ({MAX_FIX_LEVELS})")
    text, text_edits = _without_indent_form_feeds(source, edits)
    try:
        if levels > _SHALLOW_LEVELS:
            raise RecursionError
        texts, new_module, new_code = _render_edits(text, text_edits)
    except RecursionError:  # LibCST's walks need more room than the caller's thread has
        texts, new_module, new_code = deep_call(max(levels, _SHALLOW_LEVELS), _render_edits, text, text_edits)
    out, pos = [], 0
    for e, new in zip(sorted(edits, key=lambda e: e.start), texts):
        out += [source[pos:e.start], new]
        pos = e.end
    out.append(source[pos:])
    result = "".join(out)
    if result == new_code:
        remember(new_module, result)
    return result


def _render_edits(source: str, edits: Sequence[Edit]) -> Tuple[List[str], cst.Module, str]:
    """LibCST's text of each edit's new expression (in the order of the edits' starts),
    the new module and its code; refused unless the code outside the edits is LibCST's
    rendering of ``source``."""
    module = parse(source)
    old_code, old_spans = render(module)
    to_code = _offsets_in(old_code, source, edits)
    nodes = _nodes_at(source, old_spans, to_code, edits)
    replacements: Dict[cst.CSTNode, cst.CSTNode] = {nodes[(e.start, e.end)]: _new_node(e, nodes) for e in edits}
    new_module = module.visit(_Replacer(replacements, old_spans, module))
    new_code, new_spans = render(new_module)
    texts, pos, old_pos, new_pos = [], 0, 0, 0
    for e in sorted(edits, key=lambda e: e.start):
        old, maybe_new = old_spans[nodes[(e.start, e.end)]], new_spans.get(replacements[nodes[(e.start, e.end)]])
        if maybe_new is None:
            _refuse(source, e.start, "")
        new = maybe_new
        if old_code[old_pos:old.start] != new_code[new_pos:new.start]:
            _refuse(source, pos, new_code[new_pos:new.start])
        texts.append(new_code[new.start:new.start + new.length])
        pos, old_pos, new_pos = e.end, old.start + old.length, new.start + new.length
    if old_code[old_pos:] != new_code[new_pos:]:
        _refuse(source, pos, new_code[new_pos:])
    return texts, new_module, new_code


def _depth(source: str) -> int:
    """The nesting depth of ``source``'s ``ast`` (more than LibCST handles when Python
    cannot parse it as deep; 0 when it does not parse: LibCST says what it thinks of it)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return source_depth(source)
    except (SyntaxError, ValueError):
        return 0
    except (RecursionError, MemoryError):
        return MAX_FIX_LEVELS + 1


_INDENT = re.compile(r"[ \t\f]*")


def indent_form_feeds(source: str) -> List[Tuple[int, int]]:
    """(start, end) of the text up to and including the last form feed in the indentation
    of each line that starts a statement or is blank or a comment (not a continuation
    line, not inside a string).  Python measures the indentation from after it, so the
    code means the same without it.  Empty when ``source`` does not tokenize."""
    starts = line_starts(source)
    lines = [source[a:b] for a, b in zip(starts, starts[1:])]
    if starts[-1] < len(source):
        lines.append(source[starts[-1]:])
    lines = [line.rstrip("\r\n") + "\n" if line.endswith(("\r", "\n")) else line for line in lines]
    fresh, depth = {1}, 0
    try:
        for tok in tokenize.generate_tokens(iter(lines).__next__):
            if tok.type == tokenize.OP and tok.string in "([{":
                depth += 1
            elif tok.type == tokenize.OP and tok.string in ")]}":
                depth = max(0, depth - 1)
            elif tok.type in (tokenize.NEWLINE, tokenize.NL) and depth == 0:
                fresh.add(tok.end[0] + 1)
    except (tokenize.TokenError, SyntaxError, ValueError):
        return []
    cuts = []
    for row in sorted(fresh):
        if row > len(lines):
            break
        start = starts[row - 1]
        last = _INDENT.match(source, start).group().rfind("\f")  # type: ignore[union-attr]  # matches ""
        if last >= 0:
            cuts.append((start, start + last + 1))
    return cuts


def _without_indent_form_feeds(source: str, edits: Sequence[Edit]) -> Tuple[str, List[Edit]]:
    """``source`` without its :func:`indent_form_feeds` and the edits moved to match
    (unchanged when there are none, or one lies inside an edit)."""
    cuts = indent_form_feeds(source) if "\f" in source else []
    if not cuts:
        return source, list(edits)
    cut_starts = [a for a, _ in cuts]
    removed = [0]
    for a, b in cuts:
        removed.append(removed[-1] + b - a)

    def moved(offset: int) -> int:
        i = bisect_right(cut_starts, offset)  # cuts starting at or before the offset
        if i and offset < cuts[i - 1][1]:
            raise ValueError("inside a cut")
        return offset - removed[i]

    def inside(start: int, end: int) -> bool:
        return any(start < a and b <= end for a, b in cuts)

    try:
        new_edits = []
        for e in edits:
            if inside(e.start, e.end):
                return source, list(edits)
            content = e.content
            if isinstance(content, Replacement):
                holes = tuple(Hole(moved(h.start), moved(h.end), h.parenthesize) for h in content.holes)
                content = Replacement(str(content), content.template, holes)
            new_edits.append(dataclasses.replace(e, start=moved(e.start), end=moved(e.end), content=content))
    except ValueError:
        return source, list(edits)
    pieces, pos = [], 0
    for a, b in cuts:
        pieces.append(source[pos:a])
        pos = b
    pieces.append(source[pos:])
    return "".join(pieces), new_edits


def _offsets_in(code: str, source: str, edits: Sequence[Edit]) -> Optional[List[int]]:
    """Where each offset of ``source`` is in LibCST's rendering ``code`` of it: None when
    they are equal; else ``code`` must be ``source`` less a few characters, none of them
    in an edited span."""
    if code == source:
        return None
    where, j = [], 0
    for ch in source:
        where.append(j)
        if j < len(code) and code[j] == ch:
            j += 1
    where.append(j)
    if j != len(code) or any(source[e.start:e.end] != code[where[e.start]:where[e.end]] for e in edits):
        raise FixRefused("cannot fix: LibCST does not reproduce this file (please report)")
    return where


def _nodes_at(source: str, spans: Spans, to_code: Optional[List[int]],
              edits: Sequence[Edit]) -> Dict[Tuple[int, int], cst.BaseExpression]:
    """The outermost expression node of each edit's and hole's span (by source offsets)."""
    wanted = {(e.start, e.end) for e in edits}
    for e in edits:
        if isinstance(e.content, Replacement):
            wanted.update((h.start, h.end) for h in e.content.holes)
    by_code = {(to_code[a], to_code[b]) if to_code else (a, b): (a, b) for a, b in wanted}
    found: Dict[Tuple[int, int], cst.BaseExpression] = {}
    for node, span in spans.items():  # post-order: an outer node comes after an inner one
        key = by_code.get((span.start, span.start + span.length))
        if key is not None and isinstance(node, cst.BaseExpression):
            found[key] = node
    missing = wanted - set(found)
    if missing:
        line = bisect_right(line_starts(source), min(missing)[0])
        raise FixRefused(f"internal error: no expression to fix at line {line} (please report)")
    return found


def _new_node(edit: Edit, nodes) -> cst.BaseExpression:
    target = nodes[(edit.start, edit.end)]
    new = _swapped(target) if edit.swap else _built(edit.content, nodes)
    return new.with_changes(lpar=target.lpar, rpar=target.rpar)


def _built(content: str, nodes) -> cst.BaseExpression:
    """The new expression: the template with its holes bound to the original nodes."""
    if not isinstance(content, Replacement):
        parsed = cst.parse_expression(content)
        # the text's continuation lines carry their columns in the file; parsed alone, LibCST
        # takes them for lines of a block and would indent them by the block's indentation again
        return cast(cst.BaseExpression, parsed.visit(_AsWritten())) if "\n" in content else parsed
    bound = {}
    for i, hole in enumerate(content.holes):
        node = nodes[(hole.start, hole.end)].deep_clone()
        if hole.parenthesize and not node.lpar:
            node = node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        bound[f"h{i}"] = node
    return parse_template_expression(content.template, **bound)


class _AsWritten(cst.CSTTransformer):
    """Continuation lines written out as they are, not indented by the enclosing block."""

    def leave_ParenthesizedWhitespace(self, original_node, updated_node):
        return updated_node.with_changes(indent=False)


def _swapped(outer: cst.BaseExpression) -> cst.Call:
    """``r.a(A).b(B)`` -> ``r.b(B).a(A)``: names and argument lists trade places."""
    if not (isinstance(outer, cst.Call) and isinstance(outer.func, cst.Attribute)
            and isinstance(outer.func.value, cst.Call) and isinstance(outer.func.value.func, cst.Attribute)):
        raise FixRefused("internal error: the swapped expression is not r.a(...).b(...) (please report)")
    inner = outer.func.value
    inner_func = cast(cst.Attribute, inner.func)  # checked above; mypy does not narrow attributes of attributes
    new_inner = inner.with_changes(
        func=inner_func.with_changes(attr=outer.func.attr), args=outer.args,
        whitespace_after_func=outer.whitespace_after_func, whitespace_before_args=outer.whitespace_before_args)
    return outer.with_changes(
        func=outer.func.with_changes(value=new_inner, attr=inner_func.attr), args=inner.args,
        whitespace_after_func=inner.whitespace_after_func, whitespace_before_args=inner.whitespace_before_args)


class _Extents(cst.CSTVisitor):
    """Each node's extent: its span joined with its children's.  A node's syntactic span
    need not hold its children: a ``Param``'s is its name (not its default), a
    ``FunctionDef``'s or ``ClassDef``'s leaves out its decorators."""

    def __init__(self, spans: Spans) -> None:
        super().__init__()
        self.spans = spans
        self.extents: Dict[cst.CSTNode, Tuple[int, int]] = {}

    def on_leave(self, original_node) -> None:
        span = self.spans.get(original_node)
        parts = [self.extents[c] for c in original_node.children if c in self.extents]
        if span is not None:
            parts.append((span.start, span.start + span.length))
        if parts:
            self.extents[original_node] = (min(a for a, _ in parts), max(b for _, b in parts))


class _Replacer(cst.CSTTransformer):
    """Swaps in the new nodes, descending only into nodes whose extent holds one."""

    def __init__(self, replacements: Dict[cst.CSTNode, cst.CSTNode], spans: Spans,
                 module: cst.Module) -> None:
        super().__init__()
        self.replacements = replacements
        extents = _Extents(spans)
        module.visit(extents)
        self.extents = extents.extents
        self.targets = [(spans[n].start, spans[n].start + spans[n].length) for n in replacements]

    def on_visit(self, node) -> bool:
        extent = self.extents.get(node)
        if extent is None or node in self.replacements:
            return extent is None
        return any(extent[0] <= start and end <= extent[1] for start, end in self.targets)

    def on_leave(self, original_node, updated_node):
        return self.replacements.get(original_node, updated_node)


def _refuse(source: str, start: int, rendered: str) -> NoReturn:
    """Name the first line where ``rendered``, LibCST's text from ``source[start:]`` on
    up to the next fix, differs from the input."""
    offset = start + next((i for i, (a, b) in enumerate(zip(source[start:], rendered)) if a != b),
                          len(rendered))
    line = bisect_right(line_starts(source), offset)
    raise FixRefused(f"fix refused: LibCST would change the code near line {line} outside the "
                     "fixed expressions (please report)")
