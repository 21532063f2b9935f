"""Renders the docs page of each rule (``docs/rules/TRCnnn.md``) and the README's rules
table from the rule modules themselves.

A developer tool, not part of the package: ``python tools/docgen.py`` rewrites the pages;
a test checks that the committed pages equal what this renders, so code, examples and
docs cannot drift.
"""
from __future__ import annotations

import difflib
import sys
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's package, whatever is installed

from flake8_torchcopy.rules import ALL_RULES, Rule  # noqa: E402

DOCS = ROOT / "docs" / "rules"


def _diff(before: str, after: str) -> str:
    lines = difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=1)
    return "\n".join(line for line in lines if not line.startswith(("---", "+++")))


def render(rule: Rule) -> str:
    from flake8_torchcopy import lint_source

    out = [f"# {rule.code}: {rule.name}", "", rule.summary, "", "## What it finds and why it matters",
           "", rule.rationale, "", "## When the fix is safe", "", rule.fix_safety, ""]
    out += ["## Examples", ""]
    for ex in rule.INVALID:
        findings = [f for f in lint_source(ex.code) if f.code == rule.code]
        message = findings[0].message if findings else ""
        out += ["Reported:", "", "```python", ex.code.rstrip(), "```", "",
                f"> `{rule.code} {message}`", ""]
        if ex.fixed is not None:
            kind = "unsafe fix, applied with `--unsafe-fixes`" if ex.unsafe else "safe fix"
            out += [f"Fixed ({kind}):", "", "```diff", _diff(ex.code, ex.fixed), "```", ""]
        if ex.note:
            out += [f"Note: {ex.note}.", ""]
    out += ["Not reported:", ""]
    for src in rule.VALID:
        out += ["```python", src.rstrip(), "```", ""]
    out += [
        "## How to silence it", "",
        f"- One statement: `# noqa: {rule.code}` on any of its lines.",
        f"- A file: `per-file-ignores = path/to/file.py:{rule.code}` (flake8), or "
        f"`[tool.torchcopy.per-file-ignores]` for `torchcopy-fix`.",
        f"- Everywhere: `extend-ignore = {rule.code}` (flake8) or `ignore = [\"{rule.code}\"]` in "
        "`[tool.torchcopy]`.",
        "- ruff users keep these comments with `lint.external = [\"TRC\"]`.", "",
    ]
    return "\n".join(out)


def render_index() -> str:
    out = ["# Rules", "", "| code | name | summary |", "|---|---|---|"]
    for rule in ALL_RULES:
        out.append(f"| [{rule.code}]({rule.code}.md) | {rule.name} | {rule.summary} |")
    return "\n".join(out) + "\n"


README = ROOT / "README.md"
TABLE_START = "<!-- rules table: generated from the rule modules by python tools/docgen.py -->"
TABLE_END = "<!-- end of rules table -->"


def render_readme_table() -> str:
    """The README's rules table, one row per rule, from its ``table_*`` fields."""
    out = ["| code | finds | fix | safety |", "|---|---|---|---|"]
    for rule in ALL_RULES:
        out.append(f"| [{rule.code}](docs/rules/{rule.code}.md) | {rule.table_finds} | {rule.table_fix} | "
                   f"{rule.table_safety} |")
    return "\n".join(out) + "\n"


def readme_with_table(readme: str) -> str:
    """``readme`` with the text between the table markers replaced by the current table."""
    start, end = readme.index(TABLE_START) + len(TABLE_START), readme.index(TABLE_END)
    return readme[:start] + "\n" + render_readme_table() + readme[end:]


def pages() -> dict:
    out = {f"{r.code}.md": render(r) for r in ALL_RULES}
    out["README.md"] = render_index()
    return out


def main(argv: Optional[list] = None) -> int:
    DOCS.mkdir(parents=True, exist_ok=True)
    for name, text in pages().items():
        (DOCS / name).write_text(text, encoding="utf-8")
        print(f"wrote docs/rules/{name}", file=sys.stderr)
    readme = README.read_text(encoding="utf-8")
    new = readme_with_table(readme)
    if new != readme:
        README.write_text(new, encoding="utf-8")
        print("wrote the rules table in README.md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
