"""The gates lose no finding: every finding (and whether its fix is safe) of every file of the
corpora with the text gates on, against the same run with every function and every module
walked (``FlowWalker._text_may_match`` always true, no module skipped by ``ModuleWalk.of``).

    python benchmarks/gate_diff.py [--root .corpora] [--only torch,kornia]

Prints each file whose findings differ and the count; exits 1 when any does.  Slow: walking
everything costs several times the gated run.
"""
from __future__ import annotations

import argparse
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _findings(lint_source, path: str, source: str) -> set:
    try:
        return {(f.code, f.line, f.col, f.fix is not None and f.fix.safe) for f in lint_source(source, path)}
    except (SyntaxError, ValueError, RecursionError) as e:
        return {("error", type(e).__name__)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(HERE), ".corpora"))
    ap.add_argument("--only", default="", help="comma-separated corpus names (default: all)")
    args = ap.parse_args()
    from flake8_torchcopy import lint_source
    from flake8_torchcopy.analysis import flow

    names = [n for n in args.only.split(",") if n] or sorted(os.listdir(args.root))
    files = [p for n in names for p in sorted(glob.glob(os.path.join(args.root, n, "**", "*.py"), recursive=True))]
    gated = {}
    for p in files:
        with open(p, encoding="utf-8", errors="replace") as f:
            source = f.read()
        gated[p] = (source, _findings(lint_source, p, source))

    def walk_all(cls, source, tree, visitor, options, sink, path=None, words=None):
        groups = flow.FlowWalker.trigger_groups(source, tree, visitor.function_triggers, words) or [("",)]
        return cls(source, tree, visitor, options, sink, path, words, groups)

    flow.FlowWalker._text_may_match = lambda self, node: True  # type: ignore[method-assign]
    flow.ModuleWalk.of = classmethod(walk_all)  # type: ignore[method-assign, assignment]
    differ = 0
    for p, (source, found) in gated.items():
        every = _findings(lint_source, p, source)
        if every != found:
            differ += 1
            print(os.path.relpath(p, args.root), "only when all is walked:", sorted(every - found),
                  "only gated:", sorted(found - every))
    print(f"{len(files)} files, {sum(len(v[1]) for v in gated.values())} findings gated, {differ} files differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
