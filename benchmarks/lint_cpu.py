"""CPU time of the analysis itself on one corpus: ``lint_source`` on every file, in-process.

    python benchmarks/lint_cpu.py [--corpus torch] [--no-project] [--tree] [--profile N]

``--no-project`` switches the cross-module summaries off (to tell their cost apart).
``--tree`` parses every file first and times ``lint_source(source, path, tree=tree)``
only: the flake8 plugin's whole job (flake8 hands it the tree); the trees are frozen out
of the garbage collector first, as no flake8 process holds them all.  ``--profile N`` prints
the N most expensive functions (cumulative) of the timed part, from ``cProfile``.  Run it
against another checkout with ``PYTHONPATH=/path/to/checkout`` (it imports the package found
first on the path).
"""
from __future__ import annotations

import argparse
import gc
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
    ap.add_argument("--tree", action="store_true", help="parse first; time the lint with the tree given")
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="print the N costliest functions")
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
    trees = {}
    if args.tree:
        import ast
        for path, source in sources:
            try:
                trees[path] = ast.parse(source, path)
            except (SyntaxError, ValueError, RecursionError):
                continue
        # the 2,285 trees held here are millions of objects no flake8 process holds at once
        # (it lints one file's tree at a time): kept out of the collector's full collections,
        # whose firing or not would otherwise decide the figure (one costs seconds)
        gc.collect()
        gc.freeze()
    profile = None
    if args.profile:
        import cProfile
        profile = cProfile.Profile()
        profile.enable()
    start = time.process_time()
    for path, source in sources:
        if args.tree and path not in trees:
            continue
        try:
            lint_source(source, path, tree=trees.get(path))
        except (SyntaxError, ValueError, RecursionError):
            continue
    spent = time.process_time() - start
    if profile is not None:
        import pstats
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)
    print(f"{len(sources)} files, {spent:.2f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
