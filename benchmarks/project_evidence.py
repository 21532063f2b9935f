"""How much evidence the cross-module summaries find, per corpus: of the calls of names of
the linted file's own package that the walker evaluates, how many are proven tensors.

Wraps :meth:`flake8_torchcopy.analysis.project.Project.returns_tensor` and counts only the
questions the lint of a file asks (not those asked while another module's function is
being decided, whose number depends on how much of that module is decided), then lints
every file of each corpus with its path, like ``safe_fix_census.py``:

    python benchmarks/project_evidence.py [--root .corpora] [--corpus torch ...] [--out FILE]
    python benchmarks/project_evidence.py --diff OLD NEW

Run it on two checkouts (the package found first on the path is measured) and compare: the
counts of a change that only makes the summaries cheaper must not drop.  ``--out`` writes one
JSON object per corpus, with the sorted list of proven names.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from safe_fix_census import PACKAGES, read_source  # noqa: E402


def evidence(root: Path, corpora) -> list:
    from flake8_torchcopy import lint_source
    from flake8_torchcopy.analysis import project

    original = project.Project.returns_tensor
    depth = [0]
    asked: Counter = Counter()
    proven: Counter = Counter()

    def counting(self, dotted, through=True):
        depth[0] += 1
        try:
            answer = original(self, dotted, through)
        finally:
            depth[0] -= 1
        if depth[0] == 0:
            asked[dotted] += 1
            if answer:
                proven[dotted] += 1
        return answer

    project.Project.returns_tensor = counting  # type: ignore[method-assign]
    rows = []
    try:
        for pkg in corpora:
            asked.clear()
            proven.clear()
            for dirpath, dirs, files in os.walk(root / pkg):
                dirs.sort()
                for name in sorted(files):
                    if not name.endswith(".py"):
                        continue
                    path = Path(dirpath) / name
                    try:
                        lint_source(read_source(str(path)), str(path))
                    except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError):
                        continue
            rows.append({"corpus": pkg, "evaluated": sum(asked.values()), "names": len(asked),
                         "proven_calls": sum(proven.values()), "proven_functions": len(proven),
                         "proven": sorted(proven)})
    finally:
        project.Project.returns_tensor = original  # type: ignore[method-assign]
    return rows


def show(rows) -> None:
    print(f"{'corpus':<18}{'evaluated':>10}{'names':>8}{'proven calls':>14}{'functions':>11}")
    for r in rows:
        print(f"{r['corpus']:<18}{r['evaluated']:>10}{r['names']:>8}{r['proven_calls']:>14}"
              f"{r['proven_functions']:>11}")
    print(f"{'all':<18}{sum(r['evaluated'] for r in rows):>10}{sum(r['names'] for r in rows):>8}"
          f"{sum(r['proven_calls'] for r in rows):>14}{sum(r['proven_functions'] for r in rows):>11}")


def diff(old_path: str, new_path: str) -> int:
    old = {r["corpus"]: r for r in map(json.loads, open(old_path))}
    new = {r["corpus"]: r for r in map(json.loads, open(new_path))}
    bad = 0
    for pkg in sorted(set(old) | set(new)):
        a, b = old.get(pkg), new.get(pkg)
        if a is None or b is None:
            print(f"{pkg}: only in {'new' if a is None else 'old'}")
            bad += 1
            continue
        lost = sorted(set(a["proven"]) - set(b["proven"]))
        gained = sorted(set(b["proven"]) - set(a["proven"]))
        counts = [(k, a[k], b[k]) for k in ("evaluated", "proven_calls", "proven_functions") if a[k] != b[k]]
        if lost or gained or counts:
            print(f"{pkg}: {counts} lost={lost} gained={gained}")
            bad += bool(lost) or b["proven_calls"] < a["proven_calls"]
    print("no evidence lost" if not bad else f"{bad} corpora lost evidence")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(HERE.parent / ".corpora"))
    ap.add_argument("--corpus", action="append", help="a corpus (repeatable); default: the census's 7")
    ap.add_argument("--out", help="write one JSON line per corpus here")
    ap.add_argument("--diff", nargs=2, metavar=("OLD", "NEW"))
    args = ap.parse_args()
    if args.diff:
        return diff(*args.diff)
    sys.setrecursionlimit(10000)
    rows = evidence(Path(args.root), args.corpus or PACKAGES)
    show(rows)
    if args.out:
        with open(args.out, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
