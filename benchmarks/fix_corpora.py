"""Idempotence and compile-after-fix over the real packages in ``.corpora/``.

For every .py file: apply all fixes (unsafe included) through LibCST, check that
none is refused (a result that would change bytes outside the fixed expressions),
that the result still compiles and that a second run changes nothing.  Prints a markdown table;
exits 1 if any file breaks either property.

    python benchmarks/fix_corpora.py [--root .corpora] [--safe-only] [--corpus research]

Every corpus under the root by default; ``--corpus`` takes names separated by commas,
``research`` standing for the research-style group.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import fetch_corpora

from flake8_torchcopy import FixRefused, fix_source

ROOT = Path(__file__).resolve().parent.parent


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(ROOT / ".corpora"))
    ap.add_argument("--safe-only", action="store_true")
    ap.add_argument("--corpus", default="", help="comma-separated corpora (default: every one under "
                    "the root; 'research' stands for RESEARCH_CORPORA)")
    args = ap.parse_args(argv)
    root = Path(args.root)
    wanted = set()
    for n in filter(None, args.corpus.split(",")):
        wanted.update(fetch_corpora.RESEARCH_CORPORA if n == "research" else [n])
    stats: Counter = Counter()
    problems = []
    t0 = time.time()
    for pkg in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("_")
                      and (not wanted or p.name in wanted)):
        for f in sorted(pkg.rglob("*.py")):
            stats[pkg.name, "files"] += 1
            try:
                src = f.read_text(encoding="utf-8")
                compile(src, str(f), "exec", dont_inherit=True)
            except (SyntaxError, UnicodeDecodeError, ValueError):
                stats[pkg.name, "skipped"] += 1
                continue
            try:
                fixed = fix_source(src, unsafe=not args.safe_only, path=str(f))
            except FixRefused as e:
                problems.append(f"{f}: {e}")
                continue
            if fixed == src:
                continue
            stats[pkg.name, "changed"] += 1
            try:
                compile(fixed, str(f), "exec", dont_inherit=True)
            except SyntaxError as e:
                problems.append(f"{f}: fixed code does not compile: {e}")
                continue
            if fix_source(fixed, unsafe=not args.safe_only, path=str(f)) != fixed:
                problems.append(f"{f}: a second run changes the file again")
    print("| package | files | changed | still compile | idempotent | skipped (unparsable) |")
    print("|---|---|---|---|---|---|")
    for pkg in sorted({k[0] for k in stats}):
        bad = sum(1 for p in problems if f"/{pkg}/" in p)
        print(f"| {pkg} | {stats[pkg, 'files']} | {stats[pkg, 'changed']} | "
              f"{stats[pkg, 'changed'] - bad} | {stats[pkg, 'changed'] - bad} | {stats[pkg, 'skipped']} |")
    print(f"\n{sum(v for k, v in stats.items() if k[1] == 'files')} files in {time.time() - t0:.0f} s; "
          f"{len(problems)} problems", file=sys.stderr)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
