"""``torchcopy-fix rule CODE`` (and ``--explain CODE``): a rule's page, as ``ruff rule`` prints
it; ``torchcopy-fix rule --all`` lists every rule.  The page is built from the rule's class
(the same fields docs/rules/CODE.md is rendered from), so it needs no docs on disk.
"""
from __future__ import annotations

import argparse
import difflib
import json
import sys
from typing import List, Optional, Sequence

from ..finding import DOCS_URL
from ..rules import ALL_RULES, RULES_BY_CODE, Rule
from .settings import PROG


def _diff(before: str, after: str) -> str:
    lines = difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=1)
    return "\n".join(line for line in lines if not line.startswith(("---", "+++")))


def _fixable(rule: Rule) -> str:
    fixed = [ex for ex in rule.INVALID if ex.fixed is not None]
    if not fixed:
        return "no fix"
    if all(ex.unsafe for ex in fixed):
        return "unsafe fix (applied with --unsafe-fixes)"
    return "safe fix" + (" (unsafe in some cases)" if any(ex.unsafe for ex in fixed) else "")


def page(rule: Rule) -> str:
    """The markdown page of ``rule``."""
    out = [f"# {rule.name} ({rule.code})", "", f"Fix: {_fixable(rule)}.", "", rule.summary, "",
           "## What it finds and why it matters", "", rule.rationale.strip(), "",
           "## When the fix is safe", "", rule.fix_safety.strip(), ""]
    examples = [ex for ex in rule.INVALID if ex.fixed is not None][:1] or list(rule.INVALID[:1])
    if examples:
        ex = examples[0]
        out += ["## Example", "", "```python", ex.code.rstrip(), "```", ""]
        if ex.fixed is not None:
            out += ["Fixed:", "", "```diff", _diff(ex.code, ex.fixed), "```", ""]
    out += [f"More: {DOCS_URL.format(code=rule.code)}", ""]
    return "\n".join(out)


def _record(rule: Rule) -> dict:
    return {"code": rule.code, "name": rule.name, "summary": rule.summary, "fix": _fixable(rule),
            "explanation": page(rule), "url": DOCS_URL.format(code=rule.code)}


def main(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(prog=f"{PROG} rule", description="Print a rule's page.")
    p.add_argument("code", nargs="?", metavar="CODE", help="a rule code, such as TRC101")
    p.add_argument("--all", action="store_true", help="every rule")
    p.add_argument("--output-format", choices=("text", "json"), default="text")
    try:
        args = p.parse_args(list(argv))
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else 2
    if args.all == (args.code is not None):
        sys.stderr.write(f"{PROG} rule: error: give one rule code or --all\n")
        return 2
    rules: List[Rule]
    if args.all:
        rules = list(ALL_RULES)
    else:
        code = args.code.strip().upper()
        found: Optional[Rule] = RULES_BY_CODE.get(code)
        if found is None:
            sys.stderr.write(f"{PROG} rule: error: unknown rule {args.code!r} (known: "
                             f"{', '.join(r.code for r in ALL_RULES)})\n")
            return 2
        rules = [found]
    if args.output_format == "json":
        data = [_record(r) for r in rules]
        sys.stdout.write(json.dumps(data if args.all else data[0], indent=2) + "\n")
    else:
        sys.stdout.write("\n".join(page(r) for r in rules))
    return 0
