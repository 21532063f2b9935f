"""Every rule's own VALID and INVALID examples: quiet, reported once, fixed as documented."""

import pytest

from flake8_torchcopy import fix_source, lint_source
from flake8_torchcopy.rules import ALL_RULES

VALID = [(r.code, i, src) for r in ALL_RULES for i, src in enumerate(r.VALID)]
INVALID = [(r.code, i, ex) for r in ALL_RULES for i, ex in enumerate(r.INVALID)]


def test_every_rule_has_examples():
    for rule in ALL_RULES:
        assert rule.VALID, rule.code
        assert rule.INVALID, rule.code
        assert rule.code.startswith("TRC") and len(rule.code) == 6
        assert rule.summary and rule.rationale and rule.fix_safety


def test_codes_unique_and_ordered():
    codes = [r.code for r in ALL_RULES]
    assert codes == sorted(set(codes))


@pytest.mark.parametrize("code,i,src", VALID, ids=[f"{c}-valid{i}" for c, i, _ in VALID])
def test_valid_is_quiet(code, i, src):
    compile(src, "<example>", "exec")
    assert [f for f in lint_source(src) if f.code == code] == []


@pytest.mark.parametrize("code,i,ex", INVALID, ids=[f"{c}-invalid{i}" for c, i, _ in INVALID])
def test_invalid_is_reported_once_and_fixed(code, i, ex):
    findings = [f for f in lint_source(ex.code) if f.code == code]
    assert len(findings) == 1
    finding = findings[0]
    assert finding.message and not finding.message.startswith(code)
    if ex.fixed is None:
        assert finding.fix is None
        assert fix_source(ex.code, unsafe=True) == ex.code or code not in {
            f.code for f in lint_source(fix_source(ex.code, unsafe=True))}
        return
    assert finding.fix is not None
    assert finding.fix.safe is (not ex.unsafe)
    # a safe-only run leaves unsafe fixes alone
    if ex.unsafe:
        assert fix_source(ex.code) == ex.code
    fixed = fix_source(ex.code, unsafe=ex.unsafe)
    assert fixed == ex.fixed
    compile(fixed, "<fixed>", "exec")
    # the rule is quiet on its own output, and a second run changes nothing
    assert [f for f in lint_source(fixed) if f.code == code] == []
    assert fix_source(fixed, unsafe=True) == fixed
