"""What each TRC101/TRC103 corpus fix rests on: the kind and caveat of its tensor's value.

Reads the findings of ``benchmarks/safe_fix_census.py`` and, for each, walks its file again
with a probe rule that records what the analysis knows about the value the fix needs to be a
plain tensor (the argument of ``torch.tensor``, the receiver of ``clone().detach()``):

    python benchmarks/fix_evidence.py .bench/census-new.jsonl
"""
from __future__ import annotations

import ast
import json
import sys
from collections import Counter
from pathlib import Path

from flake8_torchcopy import lint_source
from flake8_torchcopy.rules.base import Rule

ROOT = Path(__file__).resolve().parent.parent


class Probe(Rule):
    """Records (kind, caveat, node type) of the value each fix rests on, by line."""

    code = "TRC999"
    name = "evidence-probe"
    summary = rationale = fix_safety = ""
    triggers = (("detach",), ("tensor",))

    def __init__(self) -> None:
        self.seen: dict = {}

    def check(self, node: ast.Call, ctx) -> None:
        f = node.func
        target = None
        if (isinstance(f, ast.Attribute) and f.attr == "detach" and isinstance(f.value, ast.Call)
                and isinstance(f.value.func, ast.Attribute) and f.value.func.attr == "clone"):
            target = f.value.func.value
        elif ctx.qualname(f) == "torch.tensor" and node.args:
            target = node.args[0]
        if target is not None:
            v = ctx.value(target)
            self.seen[node.lineno] = (v.kind, v.caveat or "-", type(target).__name__)


def main(argv=None) -> int:
    census = (argv or sys.argv[1:] or [str(ROOT / ".bench" / "census-new.jsonl")])[0]
    counts: Counter = Counter()
    with open(census) as fh:
        rows = [json.loads(line) for line in fh]
    for r in rows:
        if r["code"] not in ("TRC101", "TRC103"):
            continue
        probe = Probe()
        lint_source((ROOT / ".corpora" / r["path"]).read_text(encoding="utf-8"), rules=[probe])
        counts[(r["code"], r["fix"]) + probe.seen.get(r["line"], ("?", "-", "?"))] += 1
    for key, n in sorted(counts.items(), key=str):
        print(n, *key, sep="\t")
    return 0


if __name__ == "__main__":
    sys.exit(main())
