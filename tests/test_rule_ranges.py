"""Every rule's INVALID examples are reported at the right range, as Fixit's examples check:
the range is one call of the example, the one the fix rewrites and the verifier's ``before``."""
import ast

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.rules import ALL_RULES

INVALID = [(r.code, i, ex) for r in ALL_RULES for i, ex in enumerate(r.INVALID)]


def _span(lines, node):
    """(line, col, end_line, end_col) of an ``ast`` node, columns in characters as findings count."""
    def col(line, byte_col):
        return len(lines[line - 1].encode()[:byte_col].decode())
    return (node.lineno, col(node.lineno, node.col_offset),
            node.end_lineno, col(node.end_lineno, node.end_col_offset))


def _calls(expr):
    """Each call in ``expr``: (function's last name, positional count, keyword names).  Equal for
    an example's expression and its ``verify`` twin, which renames variables and modules."""
    out = []
    for n in ast.walk(expr):
        if isinstance(n, ast.Call):
            name = n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", None)
            out.append((name, len(n.args), sorted(k.arg or "**" for k in n.keywords)))
    return out


@pytest.mark.parametrize("code,i,ex", INVALID, ids=[f"{c}-range{i}" for c, i, _ in INVALID])
def test_invalid_range_is_the_call(code, i, ex):
    """The reported range is exactly one call of the example: the innermost call holding every
    edit of the fix, and the call the verifier's ``before`` expression names."""
    (finding,) = [f for f in lint_source(ex.code) if f.code == code]
    lines = ex.code.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    calls = [n for n in ast.walk(ast.parse(ex.code)) if isinstance(n, ast.Call)]
    reported = [n for n in calls if _span(lines, n) == (finding.line, finding.col, finding.end_line, finding.end_col)]
    assert reported, "the range is not a call of the example"
    if finding.fix is not None:
        lo = min(e.start for e in finding.fix.edits)
        hi = max(e.end for e in finding.fix.edits)

        def bounds(n):
            line, col, end_line, end_col = _span(lines, n)
            return offsets[line - 1] + col, offsets[end_line - 1] + end_col

        holding = [n for n in calls if bounds(n)[0] <= lo and hi <= bounds(n)[1]]
        innermost = min(holding, key=lambda n: bounds(n)[1] - bounds(n)[0])
        assert innermost in reported
    if ex.verify:
        assert _calls(reported[0]) == _calls(ast.parse(ex.verify[0], mode="eval").body)
