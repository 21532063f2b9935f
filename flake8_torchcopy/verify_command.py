"""The ``torchcopy-verify`` command: check one rewrite, or every fix of every rule (``--rules``).

Also ``python -m flake8_torchcopy.verify_command``.  This module imports no torch at load
time: the arguments are parsed first, so ``--help`` and usage errors work without torch,
and a missing torch is one line, not a traceback.  The verifier itself
(:mod:`flake8_torchcopy.verify`) is imported inside the functions that run it.

Exit status (one meaning each): 0 equivalent or improved; 1 mismatch; 2 usage error or
the verification could not be run as asked (bad argument, bad ``--input``, no such device,
torch or matplotlib missing); 3 unverified (it ran, but no case could be compared).
With ``--rules`` the status is the worst over the safe fixes: 1 when one is a mismatch,
else 3 when one is unverified.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict, List, Optional, Sequence

EXIT_OK, EXIT_MISMATCH, EXIT_USAGE, EXIT_UNVERIFIED = 0, 1, 2, 3


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="torchcopy-verify",
        description="Check that a PyTorch expression rewrite keeps behaviour, and time it.",
        epilog="exit status: 0 equivalent or improved, 1 mismatch, 2 usage error or cannot run "
               "as asked, 3 unverified (nothing could be compared)",
    )
    p.add_argument("--before", help="the original expression")
    p.add_argument("--after", help="the rewritten expression")
    p.add_argument("--rules", action="store_true", help="verify every fix of every rule from its examples")
    p.add_argument("--select", default="", help="with --rules: comma-separated rule codes")
    p.add_argument("--rule", metavar="CODE",
                   help="with --before/--after: the rule the rewrite comes from (TRC107...), which "
                        "decides the errors of the original it may remove and be 'improved'; "
                        "without it only a .view() size/stride RuntimeError counts")
    p.add_argument("--device", default="all", choices=("cpu", "cuda", "all"),
                   help="cpu, cuda, or all (CPU always, CUDA when available; default)")
    p.add_argument("--json", metavar="PATH", help="write the report(s) as JSON ('-' for stdout)")
    p.add_argument("--bench", dest="bench", action="store_true", default=None,
                   help="time before and after (default: on)")
    p.add_argument("--no-bench", dest="bench", action="store_false", help="skip timing")
    p.add_argument("--sizes", help="element counts to time, e.g. '1,16,2^10' "
                   "(default 2^0..2^24; with --rules up to 2^20; 0-d inputs are timed once)")
    p.add_argument("--repeats", type=int, default=5,
                   help="timed repetitions per size, alternating before and after (default 5)")
    p.add_argument("--min-run-time", type=float, default=None,
                   help="seconds per repetition (default 0.05)")
    p.add_argument("--plot", metavar="FILE",
                   help="plot time against size (needs matplotlib); any format matplotlib writes "
                        "(.png, .svg, .pdf); with --rules one file per rule, FILE's stem + '-TRC1xx'")
    p.add_argument("--input", action="append", default=[], metavar="NAME=SPEC",
                   help="say what an input is: n=int:1..4, x=tensor:rank=3, d=dtype:float32|int64")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-cases", type=int, default=None,
                   help="verify a seeded sample of this many cases per device (default: all)")
    return p


def load_rules() -> List[Any]:
    """The rule registry; an import error there is a bug and propagates."""
    from flake8_torchcopy.rules import ALL_RULES

    return list(ALL_RULES)


def rule_examples(rules: Sequence[Any]) -> List[Dict[str, Any]]:
    """Every example with a ``verify`` pair: code, index, before, after, inputs, unsafe, note."""
    out = []
    for rule in rules:
        for i, ex in enumerate(getattr(rule, "INVALID", ())):
            if not getattr(ex, "verify", None):
                continue
            before, after = ex.verify
            out.append({"rule": rule.code, "index": i, "before": before, "after": after,
                        "inputs": dict(ex.inputs or {}), "unsafe": bool(ex.unsafe), "note": ex.note,
                        "code": ex.code, "fixed": ex.fixed})
    return out


def _fmt_ratio(r: Optional[float]) -> str:
    return "-" if r is None else f"{r:.2f}x"


def speed_cell(rep, dev: str) -> str:
    """The speed of a rewrite in one table cell: ratios where both sides ran, and where
    only the rewrite ran, "makes code run" instead of a ratio."""
    from .verify.bench import makes_code_run

    sp = rep.speedup.get(dev) or {}
    runs = makes_code_run(rep.timings, dev)
    parts = []
    if sp:
        keys = list(sp)
        lo, hi = keys[0], keys[-1]
        parts.append(_fmt_ratio(sp[lo]) + f" @{lo}" + ("" if lo == hi else f" / {_fmt_ratio(sp[hi])} @{hi}"))
    if runs:
        parts.append("makes code run" + ("" if not sp else f" at {', '.join(runs)}"))
    return "; ".join(parts) or "-"


def _rules_table(rows: List[Dict[str, Any]], devices: Sequence[str]) -> str:
    head = ["rule", "example", "fix", "inputs tried", "verdict"] + [f"speedup {d}" for d in devices]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        rep = row["report"]
        example = f"`{row['before']}` → `{row['after']}`"
        tried = f"{rep.cases} compared / {rep.tried}"
        cells = [row["rule"], example, "unsafe" if row["unsafe"] else "safe", tried, rep.status]
        cells += [speed_cell(rep, d) for d in devices]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)


def _exit_status(reports) -> int:
    statuses = {r.status for r in reports}
    if "mismatch" in statuses:
        return EXIT_MISMATCH
    if "unverified" in statuses:
        return EXIT_UNVERIFIED
    return EXIT_OK


def _run_rules(args, sizes, min_run_time) -> int:
    from .verify import verify_expressions

    rules = load_rules()
    if args.select:
        codes = {c.strip() for c in args.select.split(",") if c.strip()}
        unknown = codes - {r.code for r in rules}
        if unknown:
            print(f"torchcopy-verify: unknown rule code(s): {', '.join(sorted(unknown))}", file=sys.stderr)
            return EXIT_USAGE
        rules = [r for r in rules if r.code in codes]
    examples = rule_examples(rules)
    if not examples:
        print("torchcopy-verify: the selected rules have no example with a verify pair", file=sys.stderr)
        return EXIT_USAGE
    bench = True if args.bench is None else args.bench
    rows = []
    for ex in examples:
        inputs = dict(ex["inputs"])
        for item in args.input:
            name, _, spec = item.partition("=")
            inputs[name.strip()] = spec
        rep = verify_expressions(ex["before"], ex["after"], inputs=inputs, devices=args.device,
                                 bench=bench, seed=args.seed, sizes=sizes, max_cases=args.max_cases,
                                 min_run_time=min_run_time, repeats=args.repeats, rule=ex["rule"])
        rows.append({**ex, "report": rep})
        print(f"{ex['rule']}[{ex['index']}] {rep.status}: {ex['before']} -> {ex['after']}", file=sys.stderr)
    devices: List[str] = []
    for row in rows:
        for d in row["report"].devices:
            if d not in devices:
                devices.append(d)
    print(_rules_table(rows, devices))
    for row in rows:
        rep = row["report"]
        if rep.status == "mismatch" or rep.reason or rep.notes:
            print(f"\n{row['rule']}[{row['index']}] ({'unsafe' if row['unsafe'] else 'safe'}):")
            print(rep.summary())
    if args.json:
        data = [{"rule": r["rule"], "index": r["index"], "unsafe": r["unsafe"], "note": r["note"],
                 **r["report"].to_dict()} for r in rows]
        _write_json(args.json, data)
    if args.plot:
        _plot_rules(rows, args.plot)
    return _exit_status([r["report"] for r in rows if not r["unsafe"]])


def plot_paths(path: str, codes: Sequence[str]) -> Dict[str, str]:
    """One file per rule: ``out.svg`` -> ``out-TRC101.svg``...; one rule keeps ``path``."""
    if len(codes) == 1:
        return {codes[0]: path}
    stem, ext = os.path.splitext(path)
    return {code: f"{stem}-{code}{ext}" for code in codes}


def _plot_rules(rows, path: str) -> None:
    from .verify.bench import plot_timings

    rows = [r for r in rows if r["report"].timings]
    if not rows:
        raise RuntimeError("nothing was timed, so there is nothing to plot (use --bench)")
    codes = list(dict.fromkeys(r["rule"] for r in rows))
    for code, file in plot_paths(path, codes).items():
        panels = [(f"{r['rule']}[{r['index']}] {r['before']} -> {r['after']}", r["report"].timings)
                  for r in rows if r["rule"] == code]
        plot_timings(panels, file)
        print(f"torchcopy-verify: wrote {file}", file=sys.stderr)


def _write_json(path: str, data: Any) -> None:
    text = json.dumps(data, indent=2, default=str)
    if path == "-":
        print(text)
    else:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")


def undefined_calls(expr: str, known: Sequence[str]) -> List[str]:
    """Free names that ``expr`` calls (``foo`` in ``foo(t)``) and that are not in ``known``:
    an input is a value (a tensor, a number), never a function, so such a name is a typo
    or a helper the verifier cannot see.  An expression that does not parse gives none
    (the verifier reports it as unverified)."""
    import ast

    from .verify.expressions import free_names

    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except (SyntaxError, ValueError):
        return []
    called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    return [n for n in free_names(tree, known=list(known)) if n in called]


def _run_pair(args, sizes, min_run_time) -> int:
    from .verify import resolve_devices, verify_expressions
    from .verify.bench import makes_code_run
    from .verify.specs import SpecError, parse_input_args

    try:
        inputs = parse_input_args(args.input)
    except SpecError as exc:
        print(f"torchcopy-verify: {exc}", file=sys.stderr)
        return EXIT_USAGE
    for option, expr in (("--before", args.before), ("--after", args.after)):
        unknown = undefined_calls(expr, list(inputs))
        if unknown:
            print(f"torchcopy-verify: {option} {expr!r} calls {', '.join(map(repr, unknown))}, which is "
                  "not defined: only torch, builtins and tensor methods can be called (an --input "
                  "is a value, not a function)", file=sys.stderr)
            return EXIT_USAGE
    rule = (args.rule or "").strip().upper() or None
    if rule is not None and rule not in {r.code for r in load_rules()}:
        print(f"torchcopy-verify: unknown rule code: {rule}", file=sys.stderr)
        return EXIT_USAGE
    bench = True if args.bench is None else args.bench
    rep = verify_expressions(args.before, args.after, inputs=inputs, devices=args.device, bench=bench,
                             seed=args.seed, sizes=sizes, max_cases=args.max_cases,
                             min_run_time=min_run_time, repeats=args.repeats, rule=rule)
    print(rep.summary())
    for dev in rep.speedup:
        sp = rep.speedup[dev]
        cells = ", ".join(f"{n}: {_fmt_ratio(r)}" for n, r in sp.items())
        runs = makes_code_run(rep.timings, dev)
        if runs:
            cells = "; ".join(c for c in (cells, f"makes code run at {', '.join(runs)}") if c)
        print(f"  speedup {dev} (before/after, median of {args.repeats} repetitions, geometric mean "
              f"over requires_grad): {cells or '-'}")
    if args.json:
        _write_json(args.json, rep.to_dict())
    if args.plot and rep.timings:
        from .verify.bench import plot_timings

        plot_timings([(f"{args.before} -> {args.after}", rep.timings)], args.plot)
    if resolve_devices(args.device)[1]:
        return EXIT_USAGE  # the device asked for does not exist here
    return _exit_status([rep])


def _size_ok(part: str) -> bool:
    from .verify.bench import parse_sizes

    if not part.strip():
        return True  # empty parts are skipped
    try:
        parse_sizes(part)
    except (ValueError, OverflowError):
        return False
    return True


def run(args) -> int:
    from .verify.bench import DEFAULT_SIZES, RULES_SIZES, parse_sizes

    try:
        sizes = parse_sizes(args.sizes) if args.sizes else (RULES_SIZES if args.rules else DEFAULT_SIZES)
    except (ValueError, OverflowError):
        bad = [part.strip() for part in args.sizes.split(",") if not _size_ok(part)]
        what = f"{bad[0]!r} is not a size" if bad else "no size given"
        print(f"torchcopy-verify: --sizes {args.sizes!r}: {what} (want whole numbers of at least 1 "
              "or B^E, comma separated: 1,16,2^10)", file=sys.stderr)
        return EXIT_USAGE
    if args.repeats < 1:
        print("torchcopy-verify: --repeats must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    min_run_time = args.min_run_time if args.min_run_time is not None else 0.05
    if not args.rules and (not args.before or not args.after):
        print("torchcopy-verify: give --before and --after, or --rules", file=sys.stderr)
        return EXIT_USAGE
    try:
        if args.rules:
            return _run_rules(args, sizes, min_run_time)
        return _run_pair(args, sizes, min_run_time)
    except RuntimeError as exc:  # --plot without matplotlib, or nothing timed
        print(f"torchcopy-verify: {exc}", file=sys.stderr)
        return EXIT_USAGE


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parser().parse_args(argv)
    try:
        import torch  # noqa: F401
    except ImportError:
        print("torchcopy-verify: needs torch: pip install 'flake8-torchcopy[verify]'", file=sys.stderr)
        return EXIT_USAGE
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
