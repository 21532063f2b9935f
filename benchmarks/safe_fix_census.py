"""Every finding in the corpora with its fix's safety, for before/after comparisons.

Writes one JSON line per finding: package, path, line, code, and ``fix`` (``safe``,
``unsafe`` or ``none``).  Run it on two checkouts and compare with ``--diff``:

    python benchmarks/safe_fix_census.py --out .bench/census-new.jsonl
    PYTHONPATH=/path/to/old python benchmarks/safe_fix_census.py --out .bench/census-old.jsonl
    python benchmarks/safe_fix_census.py --diff .bench/census-old.jsonl .bench/census-new.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


def read_source(path: str) -> str:
    """Decode like Python does (PEP 263 cookie, BOM); the package under test is whichever
    flake8_torchcopy is first on the path (PYTHONPATH picks an old checkout)."""
    import io
    import tokenize

    data = Path(path).read_bytes()
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    return text[1:] if text.startswith("\ufeff") else text

PACKAGES = ("torch", "transformers", "diffusers", "timm", "torchvision", "lightning", "torch_geometric")


def census(root: Path, out_path: Path, packages=PACKAGES) -> None:
    from flake8_torchcopy import lint_source

    with open(out_path, "w") as out:
        for pkg in packages:
            base = root / pkg
            for dirpath, _, files in os.walk(base):
                for name in sorted(files):
                    if not name.endswith(".py"):
                        continue
                    path = Path(dirpath) / name
                    try:
                        found = lint_source(read_source(str(path)), str(path))
                    except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError):
                        continue
                    for f in found:
                        fix = "none" if f.fix is None else "safe" if f.fix.safe else "unsafe"
                        out.write(json.dumps({"package": pkg, "path": str(path.relative_to(root)),
                                              "line": f.line, "code": f.code, "fix": fix}) + "\n")


def load(path: str):
    with open(path) as fh:
        return {(r["path"], r["line"], r["code"]): r for r in map(json.loads, fh)}


def diff(old_path: str, new_path: str) -> None:
    old, new = load(old_path), load(new_path)
    table: Counter = Counter()
    for r in old.values():
        table[(r["code"], "before", r["fix"])] += 1
    for r in new.values():
        table[(r["code"], "after", r["fix"])] += 1
    codes = sorted({k[0] for k in table})
    print("| rule | reports before | after | safe fixes before | after | unsafe before | after |")
    print("|---|---|---|---|---|---|---|")
    for c in codes:
        rb = sum(v for k, v in table.items() if k[0] == c and k[1] == "before")
        ra = sum(v for k, v in table.items() if k[0] == c and k[1] == "after")
        print(f"| {c} | {rb} | {ra} | {table[(c, 'before', 'safe')]} | {table[(c, 'after', 'safe')]} "
              f"| {table[(c, 'before', 'unsafe')]} | {table[(c, 'after', 'unsafe')]} |")
    print()
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a is None or b is None or a["fix"] != b["fix"]:
            print(f"{key[0]}:{key[1]} {key[2]}: {a['fix'] if a else 'not reported'} -> "
                  f"{b['fix'] if b else 'not reported'}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(HERE.parent / ".corpora"))
    ap.add_argument("--out", default=str(HERE.parent / ".bench" / "census.jsonl"))
    ap.add_argument("--diff", nargs=2, metavar=("OLD", "NEW"))
    ap.add_argument("--corpus", default="", help="'research': the research-style group "
                    "(RESEARCH_CORPORA of fetch_corpora.py) instead of the seven packages")
    args = ap.parse_args(argv)
    if args.diff:
        diff(*args.diff)
        return 0
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    packages = PACKAGES
    if args.corpus == "research":
        sys.path.insert(0, str(HERE))
        import fetch_corpora
        packages = tuple(fetch_corpora.RESEARCH_CORPORA)
    census(Path(args.root), Path(args.out), packages)
    return 0


if __name__ == "__main__":
    sys.exit(main())
