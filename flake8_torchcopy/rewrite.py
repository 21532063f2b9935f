"""Apply fix edits as a LibCST transformation, and check the bytes they may change.

The ``ast`` analysis says what to replace and where (character offsets, see
:mod:`flake8_torchcopy.finding`); here the module is parsed with LibCST, each
edit's span is mapped to the expression node with exactly that span, the new
node is built from LibCST nodes (a template whose holes are the original
sub-nodes, or ``with_changes`` for a swap of chained calls), and the module is
rendered by LibCST.  The rendering is refused (:class:`FixRefused`) unless,
outside the edited nodes, it is LibCST's rendering of the input.  The output is
the input with each edited span replaced by its LibCST rendering: the same
thing, except where LibCST's round trip loses a byte of the input (a form feed
before a statement, a lone ``\r`` ending the file), which is kept.

Only files that get a fix import this module (and so LibCST).
"""
from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from typing import Dict, List, Optional, Sequence, Tuple

import libcst as cst
from libcst.helpers import parse_template_expression
from libcst.metadata.base_provider import BaseMetadataProvider
from libcst.metadata.span_provider import CodeSpan, SpanProvidingCodegenState

from .finding import Edit, FixRefused, Replacement
from .source import line_starts

_CACHE_SIZE = 4
_parsed: "OrderedDict[str, cst.Module]" = OrderedDict()
Spans = Dict[cst.CSTNode, CodeSpan]


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


def apply_edits(source: str, edits: Sequence[Edit]) -> str:
    """``source`` with the non-overlapping ``edits`` applied through LibCST."""
    module = parse(source)
    old_code, old_spans = render(module)
    to_code = _offsets_in(old_code, source, edits)
    nodes = _nodes_at(source, old_spans, to_code, edits)
    replacements = {nodes[(e.start, e.end)]: _new_node(e, nodes) for e in edits}
    new_module = module.visit(_Replacer(replacements, old_spans))
    new_code, new_spans = render(new_module)
    out, pos, old_pos, new_pos = [], 0, 0, 0
    for e in sorted(edits, key=lambda e: e.start):
        old, new = old_spans[nodes[(e.start, e.end)]], new_spans.get(replacements[nodes[(e.start, e.end)]])
        if new is None:
            _refuse(source, e.start, "")
        if old_code[old_pos:old.start] != new_code[new_pos:new.start]:
            _refuse(source, pos, new_code[new_pos:new.start])
        out += [source[pos:e.start], new_code[new.start:new.start + new.length]]
        pos, old_pos, new_pos = e.end, old.start + old.length, new.start + new.length
    if old_code[old_pos:] != new_code[new_pos:]:
        _refuse(source, pos, new_code[new_pos:])
    out.append(source[pos:])
    result = "".join(out)
    if result == new_code:
        remember(new_module, result)
    return result


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
        return cst.parse_expression(content)
    bound = {}
    for i, hole in enumerate(content.holes):
        node = nodes[(hole.start, hole.end)].deep_clone()
        if hole.parenthesize and not node.lpar:
            node = node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        bound[f"h{i}"] = node
    return parse_template_expression(content.template, **bound)


def _swapped(outer: cst.BaseExpression) -> cst.Call:
    """``r.a(A).b(B)`` -> ``r.b(B).a(A)``: names and argument lists trade places."""
    if not (isinstance(outer, cst.Call) and isinstance(outer.func, cst.Attribute)
            and isinstance(outer.func.value, cst.Call) and isinstance(outer.func.value.func, cst.Attribute)):
        raise FixRefused("internal error: the swapped expression is not r.a(...).b(...) (please report)")
    inner = outer.func.value
    new_inner = inner.with_changes(
        func=inner.func.with_changes(attr=outer.func.attr), args=outer.args,
        whitespace_after_func=outer.whitespace_after_func, whitespace_before_args=outer.whitespace_before_args)
    return outer.with_changes(
        func=outer.func.with_changes(value=new_inner, attr=inner.func.attr), args=inner.args,
        whitespace_after_func=inner.whitespace_after_func, whitespace_before_args=inner.whitespace_before_args)


class _Replacer(cst.CSTTransformer):
    """Swaps in the new nodes, descending only into nodes whose span holds one."""

    def __init__(self, replacements: Dict[cst.CSTNode, cst.CSTNode], spans: Spans) -> None:
        super().__init__()
        self.replacements = replacements
        self.spans = spans
        self.targets = [(spans[n].start, spans[n].start + spans[n].length) for n in replacements]

    def on_visit(self, node) -> bool:
        span = self.spans.get(node)
        if span is None or node in self.replacements:
            return span is None
        return any(span.start <= start and end <= span.start + span.length for start, end in self.targets)

    def on_leave(self, original_node, updated_node):
        return self.replacements.get(original_node, updated_node)


def _refuse(source: str, start: int, rendered: str) -> None:
    """Name the first line where ``rendered``, LibCST's text from ``source[start:]`` on
    up to the next fix, differs from the input."""
    offset = start + next((i for i, (a, b) in enumerate(zip(source[start:], rendered)) if a != b),
                          len(rendered))
    line = bisect_right(line_starts(source), offset)
    raise FixRefused(f"fix refused: LibCST would change the code near line {line} outside the "
                     "fixed expressions (please report)")
