"""Apply fix edits as a LibCST transformation, and check the bytes they may change.

The ``ast`` analysis says what to replace and where (character offsets, see
:mod:`flake8_torchcopy.finding`); here the module is parsed with LibCST, each
edit's span is mapped to the expression node with exactly that span, the new
node is built from LibCST nodes (a template whose holes are the original
sub-nodes, or ``with_changes`` for a swap of chained calls), and the module is
rendered by LibCST.  The result is refused (:class:`FixRefused`) unless every
byte outside the edited spans is the input's.

Only files that get a fix import this module (and so LibCST).
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Dict, List, Sequence, Tuple

import libcst as cst
from libcst.helpers import parse_template_expression
from libcst.metadata import MetadataWrapper
from libcst.metadata.base_provider import BaseMetadataProvider
from libcst.metadata.span_provider import CodeSpan, SpanProvidingCodegenState

from .finding import Edit, Replacement

_CACHE_SIZE = 4
_parsed: "OrderedDict[str, cst.Module]" = OrderedDict()


class FixRefused(ValueError):
    """A fix that could not be applied exactly; the message says why."""


class CharSpanProvider(BaseMetadataProvider[CodeSpan]):
    """Each node's syntactic span (parentheses excluded, as in ``ast``) in characters."""

    def _gen_impl(self, module: cst.Module) -> None:
        state = SpanProvidingCodegenState(
            default_indent=module.default_indent, default_newline=module.default_newline, provider=self)
        module._codegen(state)


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
    module = transform(parse(source), edits)
    new = module.code
    check_outside_spans(source, new, edits)
    remember(module, new)
    return new


def transform(module: cst.Module, edits: Sequence[Edit]) -> cst.Module:
    """The module with each edit's expression node replaced by the node it builds."""
    wanted = {(e.start, e.end) for e in edits}
    for e in edits:
        if isinstance(e.content, Replacement):
            wanted.update((h.start, h.end) for h in e.content.holes)
    nodes = _nodes_at(module, wanted)
    replacements: Dict[cst.CSTNode, cst.CSTNode] = {}
    for e in edits:
        target = _node(nodes, e.start, e.end)
        new = _swapped(target) if e.swap else _built(e.content, nodes, module)
        if isinstance(target, cst.BaseExpression) and isinstance(new, cst.BaseExpression):
            new = new.with_changes(lpar=target.lpar, rpar=target.rpar)
        replacements[target] = new
    return module.visit(_Replacer(replacements))


def _nodes_at(module: cst.Module, spans) -> Dict[Tuple[int, int], cst.BaseExpression]:
    """The outermost expression node of each span (post-order: the outer one comes last)."""
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(CharSpanProvider)
    found: Dict[Tuple[int, int], cst.BaseExpression] = {}
    for node, span in positions.items():
        key = (span.start, span.start + span.length)
        if key in spans and isinstance(node, cst.BaseExpression):
            found[key] = node
    return found


def _node(nodes, start: int, end: int) -> cst.BaseExpression:
    node = nodes.get((start, end))
    if node is None:
        raise FixRefused(f"internal error: no expression at characters {start}-{end} to fix "
                         "(please report)")
    return node


def _built(content: str, nodes, module: cst.Module) -> cst.BaseExpression:
    """The new expression: the template with its holes bound to the original nodes."""
    if not isinstance(content, Replacement):
        return cst.parse_expression(content, config=module.config_for_parsing)
    bound = {}
    for i, hole in enumerate(content.holes):
        node = _node(nodes, hole.start, hole.end).deep_clone()
        if hole.parenthesize and not node.lpar:
            node = node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        bound[f"h{i}"] = node
    return parse_template_expression(content.template, config=module.config_for_parsing, **bound)


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
    def __init__(self, replacements: Dict[cst.CSTNode, cst.CSTNode]) -> None:
        super().__init__()
        self.replacements = replacements

    def on_leave(self, original_node, updated_node):
        return self.replacements.get(original_node, updated_node)


def check_outside_spans(source: str, new: str, edits: Sequence[Edit]) -> None:
    """Refuse unless ``new`` is ``source`` with only the edited spans changed: the text
    before, between and after them must come back in order (a leftmost match of each
    piece finds a placement whenever one exists)."""
    spans = sorted((e.start, e.end) for e in edits)
    pieces: List[str] = []
    pos = 0
    for start, end in spans:
        pieces.append(source[pos:start])
        pos = end
    head, tail, middle = pieces[0], source[pos:], pieces[1:]
    at = len(head)
    ok = new.startswith(head) and new.endswith(tail)
    for piece in middle:
        if not ok:
            break
        found = new.find(piece, at)
        ok = found != -1
        at = found + len(piece)
    if not ok or at > len(new) - len(tail):
        line = _first_difference_line(source, new)
        raise FixRefused(f"fix refused: LibCST would change line {line} outside the fixed code "
                         "(please report)")


def _first_difference_line(source: str, new: str) -> int:
    i = next((i for i, (a, b) in enumerate(zip(source, new)) if a != b), min(len(source), len(new)))
    return len((source[:i] + "x").splitlines())
