"""The docs pages are rendered from the rules: a page that drifts from its rule fails here."""
import sys
from pathlib import Path

from flake8_torchcopy.finding import Finding
from flake8_torchcopy.rules import ALL_RULES

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import docgen  # noqa: E402


def test_rule_pages_match_the_rules():
    for name, text in docgen.pages().items():
        page = ROOT / "docs" / "rules" / name
        assert page.exists(), f"missing {page}: run python tools/docgen.py"
        assert page.read_text(encoding="utf-8") == text, f"{page} is stale: run python tools/docgen.py"


def test_finding_url_points_at_the_page():
    for rule in ALL_RULES:
        f = Finding(rule.code, "m", 1, 0, 1, 1)
        assert f.url.endswith(f"docs/rules/{rule.code}.md")
        assert (ROOT / "docs" / "rules" / f"{rule.code}.md").exists()


def test_readme_lists_every_rule():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for rule in ALL_RULES:
        assert f"[{rule.code}](docs/rules/{rule.code}.md)" in readme


def test_readme_rules_table_is_generated_from_the_rules():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert docgen.readme_with_table(readme) == readme, "README.md's rules table is stale: run python tools/docgen.py"


def test_readme_test_command_is_what_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    [command] = [line for line in ci.splitlines() if line.startswith("pip install")]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"python3 -m venv .venv && . .venv/bin/activate && {command}\n" in readme
