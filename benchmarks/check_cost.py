"""The cost floors of ``torchcopy-fix --check`` on one corpus, as child processes (CPU =
user + sys from ``os.wait4``), best of ``--runs``:

    python benchmarks/check_cost.py [--corpus torch] [--runs 2]

- ``floor``: read and ``ast.parse`` every ``.py`` file of the corpus (one process);
- ``check``: ``python -m flake8_torchcopy --check -q -j 1 --exit-zero CORPUS``;
- ``check, no summaries``: the same with the cross-module summaries off
  (``exprs.imported_call`` replaced by a function that knows nothing).

Prints each figure and the two ratios the issue sets floors for: ``check / floor``
(≤ 2.5) and ``check / check without summaries`` (≤ 1.25).  ``--flake8`` adds the third
(slow: flake8 takes minutes on torch): ``flake8 --isolated --exit-zero -j 1 CORPUS`` with
its default plugins, with and without this one (taken out of flake8's plugin list), the
plugin's share ≤ 5 %.  ``--corpus`` may name part of one (``torch/torch/nn``).  The
bytecode of the packages measured is written first (``compileall``), as an installed
package has it.  The package measured is the
one ``python -m flake8_torchcopy`` imports (``PYTHONPATH`` picks another checkout).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

FLOOR = """
import ast, glob, os, sys
sys.setrecursionlimit(10000)
for p in sorted(glob.glob(os.path.join(sys.argv[1], "**", "*.py"), recursive=True)):
    try:
        with open(p, "rb") as f:
            ast.parse(f.read(), p)
    except (SyntaxError, ValueError, RecursionError, OSError):
        pass
"""

NO_SUMMARIES = """
import sys
import flake8_torchcopy.analysis.exprs as exprs
exprs.imported_call = lambda *a, **k: None
from flake8_torchcopy.cli import main
sys.exit(main())
"""

FLAKE8 = """
import sys
import flake8.plugins.finder as finder
if sys.argv[1] == "without":
    found = finder._find_importlib_plugins
    finder._find_importlib_plugins = lambda: (p for p in found() if p.package != "flake8-torchcopy")
from flake8.main.cli import main
sys.exit(main(sys.argv[2:]))
"""


def cpu(argv) -> float:
    """User + sys CPU seconds of the child process ``argv`` (and the children it reaped)."""
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(argv, stdout=null, stderr=null)
        _pid, _status, ru = os.wait4(proc.pid, 0)
    return ru.ru_utime + ru.ru_stime


def compile_bytecode() -> None:
    """Write the bytecode of the packages measured, as an installed package has it (where
    ``PYTHONDONTWRITEBYTECODE`` is set, every run would otherwise compile the plugin's
    modules again, and only the plugin's: a cost no user pays)."""
    import importlib.util
    paths = []
    for name in ("flake8_torchcopy", "flake8", "pyflakes", "pycodestyle", "mccabe"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            paths.append(os.path.dirname(spec.origin) if spec.submodule_search_locations else spec.origin)
    subprocess.run([sys.executable, "-m", "compileall", "-q"] + paths, check=False)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="torch")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(HERE), ".corpora"))
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--flake8", action="store_true", help="also flake8 with and without the plugin")
    ap.add_argument("--only-flake8", action="store_true", help="only the flake8 rows")
    args = ap.parse_args()
    target = os.path.join(args.root, args.corpus)
    check = ["-m", "flake8_torchcopy", "--check", "-q", "-j", "1", "--exit-zero", target]
    rows = {"floor": [sys.executable, "-c", FLOOR, target],
            "check": [sys.executable] + check,
            "check, no summaries": [sys.executable, "-c", NO_SUMMARIES] + check[2:]}
    if args.only_flake8:
        rows = {}
    if args.flake8 or args.only_flake8:
        f8 = ["--isolated", "--exit-zero", "-j", "1", target]
        rows["flake8"] = [sys.executable, "-c", FLAKE8, "without"] + f8
        rows["flake8 + plugin"] = [sys.executable, "-c", FLAKE8, "with"] + f8
    compile_bytecode()
    best = {}
    for _ in range(args.runs):  # interleaved: each row sees the same load
        for name, argv in rows.items():
            t = cpu(argv)
            best[name] = min(best.get(name, t), t)
    for name, t in best.items():
        print(f"{name:22} {t:7.2f} s")
    if "check" in best:
        print(f"check / floor          {best['check'] / best['floor']:7.2f} (floor: 2.5)")
        print(f"summaries add          {best['check'] / best['check, no summaries'] - 1:+7.1%} (floor: +25 %)")
    if "flake8" in best:
        print(f"plugin adds to flake8  {best['flake8 + plugin'] / best['flake8'] - 1:+7.1%} (floor: +5 %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
