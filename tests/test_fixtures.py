"""Fixture files: exact findings (line, column, code) and exact fixed text, per rule."""
from pathlib import Path

import pytest

from flake8_torchcopy import fix_source, lint_source

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
RULE_DIRS = sorted(p for p in FIXTURES.glob("TRC*") if p.is_dir())
NEGATIVE = sorted((FIXTURES / "negative").glob("*.py"))


def _expected(d: Path):
    out = []
    for line in (d / "expected.txt").read_text().splitlines():
        pos, code = line.split()
        row, col = pos.split(":")
        out.append((int(row), int(col), code))
    return out


@pytest.mark.parametrize("d", RULE_DIRS, ids=[d.name for d in RULE_DIRS])
def test_findings(d):
    src = (d / "input.py").read_text()
    got = [(f.line, f.col + 1, f.code) for f in lint_source(src)]
    assert got == _expected(d)
    assert any(code == d.name for _, _, code in got)


@pytest.mark.parametrize("d", RULE_DIRS, ids=[d.name for d in RULE_DIRS])
def test_fixed(d):
    src = (d / "input.py").read_text()
    safe = fix_source(src)
    assert safe == (d / "fixed.py").read_text()
    unsafe_file = d / "fixed_unsafe.py"
    expected_unsafe = unsafe_file.read_text() if unsafe_file.exists() else safe
    assert fix_source(src, unsafe=True) == expected_unsafe
    for text in (safe, expected_unsafe):
        compile(text, str(d), "exec")
        assert fix_source(text, unsafe=True) == expected_unsafe  # idempotent


@pytest.mark.parametrize("path", NEGATIVE, ids=[p.name for p in NEGATIVE])
def test_negative_fixtures_are_quiet(path):
    assert lint_source(path.read_text()) == []
