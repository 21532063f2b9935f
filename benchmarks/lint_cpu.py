"""CPU time of the analysis itself on one corpus: ``lint_source`` on every file, in-process.

    python benchmarks/lint_cpu.py [--corpus torch] [--no-project]

``--no-project`` switches the cross-module summaries off (to tell their cost apart).  Run it
against another checkout with ``PYTHONPATH=/path/to/checkout`` (it imports the package found
first on the path).
"""
from __future__ import annotations

import argparse
import glob
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="torch")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(HERE), ".corpora"))
    ap.add_argument("--no-project", action="store_true", help="cross-module summaries off")
    args = ap.parse_args()
    sys.setrecursionlimit(10000)
    from flake8_torchcopy import lint_source

    if args.no_project:
        import flake8_torchcopy.analysis.exprs as exprs
        exprs.imported_call = lambda *a, **k: None  # type: ignore[assignment]
    sources = []
    for path in sorted(glob.glob(os.path.join(args.root, args.corpus, "**", "*.py"), recursive=True)):
        try:
            with open(path, encoding="utf-8") as f:
                sources.append((path, f.read()))
        except (OSError, UnicodeDecodeError):
            continue
    start = time.process_time()
    for path, source in sources:
        try:
            lint_source(source, path)
        except (SyntaxError, ValueError, RecursionError):
            continue
    print(f"{len(sources)} files, {time.process_time() - start:.2f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
