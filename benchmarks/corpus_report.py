"""Run ``flake8_torchcopy.lint_source`` over every .py file of the corpora and report per rule.

Writes ``OUT/report.md`` (per rule: number of reports and files, then the
reports with ``path:line``, the code line and the message; at most ``--sample``
per rule, chosen evenly, or all with ``--all``) and ``OUT/report.json`` (every
report).  Files that don't parse are counted, not fatal.

    python benchmarks/corpus_report.py [--corpus torch,transformers] [--out .bench/report]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import traceback
from collections import defaultdict
from typing import Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, REPO)

import fetch_corpora  # noqa: E402


def read_source(path: str) -> str:
    """Decode like Python does (PEP 263 cookie, BOM)."""
    import tokenize

    with open(path, "rb") as fh:
        data = fh.read()
    import io

    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    return text[1:] if text.startswith("\ufeff") else text


def iter_files(root: str, name: str):
    base = os.path.join(root, name)
    for dirpath, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(dirpath, f)


def lint_corpora(root: str, names: List[str], options=None, log=print) -> dict:
    """Lint every file; returns {'reports': [...], 'stats': {...}}."""
    import flake8_torchcopy
    from flake8_torchcopy.engine import DEFAULT_OPTIONS

    options = options or DEFAULT_OPTIONS

    reports = []
    stats: Dict[str, dict] = {}
    for name in names:
        st = {"files": 0, "syntax_errors": 0, "crashes": 0, "seconds": 0.0, "crash_samples": []}
        t0 = time.perf_counter()
        for path in iter_files(root, name):
            st["files"] += 1
            rel = os.path.relpath(path, root)
            try:
                source = read_source(path)
                findings = flake8_torchcopy.lint_source(source, path, options=options)
            except (SyntaxError, ValueError, UnicodeDecodeError):
                st["syntax_errors"] += 1
                continue
            except Exception as exc:  # an engine bug: keep going, report it
                st["crashes"] += 1
                if len(st["crash_samples"]) < 20:
                    st["crash_samples"].append({"path": rel, "error": repr(exc),
                                                "traceback": traceback.format_exc()[-1500:]})
                continue
            if not findings:
                continue
            lines = source.splitlines()
            for f in findings:
                code_line = lines[f.line - 1].strip() if 0 < f.line <= len(lines) else ""
                reports.append({
                    "corpus": name, "path": rel, "line": f.line, "col": f.col, "code": f.code,
                    "message": f.message, "source": code_line,
                    "fix": None if f.fix is None else f.fix.applicability,
                })
        st["seconds"] = round(time.perf_counter() - t0, 2)
        stats[name] = st
        log(f"  {name:16s} {st['files']:5d} files  {st['seconds']:7.1f} s  "
            f"{st['syntax_errors']} unparsable  {st['crashes']} crashes")
    return {"reports": reports, "stats": stats}


def write_report(data: dict, out_dir: str, sample: Optional[int]) -> str:
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "report.json"), "w") as fh:
        json.dump(data, fh, indent=1)
    by_rule: Dict[str, List[dict]] = defaultdict(list)
    for r in data["reports"]:
        by_rule[r["code"]].append(r)
    md = ["# flake8-torchcopy on the corpora", ""]
    md.append("| corpus | files | unparsable | engine crashes | seconds |")
    md.append("|---|---:|---:|---:|---:|")
    for name, st in data["stats"].items():
        md.append(f"| {name} | {st['files']} | {st['syntax_errors']} | {st['crashes']} | {st['seconds']} |")
    md.append("")
    md.append("| rule | reports | files | with fix (safe/unsafe) | per corpus |")
    md.append("|---|---:|---:|---|---|")
    for code in sorted(by_rule):
        rs = by_rule[code]
        per = defaultdict(int)
        for r in rs:
            per[r["corpus"]] += 1
        safe = sum(1 for r in rs if r["fix"] == "safe")
        unsafe = sum(1 for r in rs if r["fix"] == "unsafe")
        md.append(f"| {code} | {len(rs)} | {len({r['path'] for r in rs})} | {safe}/{unsafe} | "
                  + ", ".join(f"{k} {v}" for k, v in sorted(per.items())) + " |")
    md.append("")
    for _name, st in data["stats"].items():
        for c in st["crash_samples"]:
            md.append(f"- CRASH {c['path']}: {c['error']}")
    for code in sorted(by_rule):
        rs = by_rule[code]
        shown = rs
        if sample is not None and len(rs) > sample:
            shown = sorted(random.Random(code).sample(rs, sample), key=lambda r: (r["path"], r["line"]))
        md.append(f"## {code} ({len(rs)} reports" + (f", {len(shown)} shown)" if shown is not rs else ")"))
        md.append("")
        md.append(f"{rs[0]['message']}" if len({r['message'] for r in rs}) == 1 else "")
        md.append("")
        for r in shown:
            md.append(f"- `{r['path']}:{r['line']}:{r['col'] + 1}` `{r['source'][:160]}`"
                      + ("" if len({x['message'] for x in rs}) == 1 else f" — {r['message']}")
                      + (f" [fix: {r['fix']}]" if r["fix"] else ""))
        md.append("")
    path = os.path.join(out_dir, "report.md")
    with open(path, "w") as fh:
        fh.write("\n".join(md) + "\n")
    return path


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=",".join(fetch_corpora.ALL_CORPORA),
                    help="comma-separated corpora (default: the seven of ALL_CORPORA; "
                    "'research' stands for the research-style group, RESEARCH_CORPORA)")
    ap.add_argument("--root", default=fetch_corpora.DEFAULT_ROOT, help="corpora folder (default: %(default)s)")
    ap.add_argument("--out", default=os.path.join(REPO, ".bench", "report"), help="output folder")
    ap.add_argument("--sample", type=int, default=40, help="reports shown per rule in report.md (default 40)")
    ap.add_argument("--all", action="store_true", help="show every report in report.md")
    ap.add_argument("--public-helpers", action="store_true",
                    help="lint with the public-helpers option (public functions' calls count)")
    args = ap.parse_args(argv)
    names = []
    for n in args.corpus.split(","):
        names += fetch_corpora.RESEARCH_CORPORA if n == "research" else [n] if n else []
    root = os.path.abspath(args.root)
    missing = [n for n in names if not fetch_corpora.is_complete(root, n)]
    if missing:
        fetch_corpora.fetch(root, missing)
    from flake8_torchcopy.engine import Options

    data = lint_corpora(root, names, Options(public_helpers=args.public_helpers))
    path = write_report(data, args.out, None if args.all else args.sample)
    n = len(data["reports"])
    print(f"{n} reports; wrote {path} and report.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
