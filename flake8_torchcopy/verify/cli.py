"""``torchcopy-verify``: check one rewrite, or every fix of every rule (``--rules``).

Exit status: 0 equivalent or improved, 1 mismatch, 2 nothing could be run.
With ``--rules``: 1 when a safe fix is not equivalent/improved, 2 when no
example could be verified.
"""
from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from typing import Any, Dict, List, Optional, Sequence


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="torchcopy-verify",
        description="Check that a PyTorch expression rewrite keeps behaviour, and time it.",
    )
    p.add_argument("--before", help="the original expression")
    p.add_argument("--after", help="the rewritten expression")
    p.add_argument("--rules", action="store_true", help="verify every fix of every rule from its examples")
    p.add_argument("--select", default="", help="with --rules: comma-separated rule codes")
    p.add_argument("--device", default="all", choices=("cpu", "cuda", "all"),
                   help="cpu, cuda, or all (CPU always, CUDA when available; default)")
    p.add_argument("--json", metavar="PATH", help="write the report(s) as JSON ('-' for stdout)")
    p.add_argument("--bench", dest="bench", action="store_true", default=None,
                   help="time before and after (default: on)")
    p.add_argument("--no-bench", dest="bench", action="store_false", help="skip timing")
    p.add_argument("--sizes", help="element counts to time, e.g. '1,16,2^10' "
                   "(default 2^0..2^24; with --rules up to 2^20)")
    p.add_argument("--min-run-time", type=float, default=None,
                   help="seconds per blocked_autorange (default 0.2; with --rules 0.05)")
    p.add_argument("--plot", metavar="PNG", help="plot before/after time against size (needs matplotlib)")
    p.add_argument("--input", action="append", default=[], metavar="NAME=SPEC",
                   help="say what an input is: n=int:1..4, x=tensor:rank=3, d=dtype:float32|int64")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-cases", type=int, default=None, help="limit the cases per device")
    return p


def load_rules() -> List[Any]:
    """``flake8_torchcopy.rules.ALL_RULES``; while the registry is incomplete,
    whatever rule modules import on their own."""
    try:
        from flake8_torchcopy.rules import ALL_RULES

        return list(ALL_RULES)
    except ImportError:
        pass
    rules = []
    try:
        import flake8_torchcopy.rules.base  # noqa: F401 - may fail with the package
        pkg = sys.modules["flake8_torchcopy.rules"]
        paths = list(pkg.__path__)
    except Exception:  # noqa: BLE001
        return rules
    for info in pkgutil.iter_modules(paths):
        if not info.name.startswith("trc"):
            continue
        try:
            mod = importlib.import_module(f"flake8_torchcopy.rules.{info.name}")
        except Exception:  # noqa: BLE001
            continue
        if hasattr(mod, "RULE"):
            rules.append(mod.RULE)
    return sorted(rules, key=lambda r: r.code)


def rule_examples(rules: Sequence[Any]) -> List[Dict[str, Any]]:
    """Every example with a ``verify`` pair: code, index, before, after, inputs, unsafe, note."""
    out = []
    for rule in rules:
        for i, ex in enumerate(getattr(rule, "INVALID", ())):
            if not getattr(ex, "verify", None):
                continue
            before, after = ex.verify
            out.append({"rule": rule.code, "index": i, "before": before, "after": after,
                        "inputs": dict(ex.inputs or {}), "unsafe": bool(ex.unsafe), "note": ex.note})
    return out


def _fmt_ratio(r: Optional[float]) -> str:
    return "-" if r is None else f"{r:.2f}x"


def _speed_cell(rep, dev: str) -> str:
    sp = rep.speedup.get(dev) or {}
    if not sp:
        return "-"
    keys = sorted(sp, key=int)
    lo, hi = keys[0], keys[-1]
    return f"{_fmt_ratio(sp[lo])} @{lo} / {_fmt_ratio(sp[hi])} @{hi}"


def _rules_table(rows: List[Dict[str, Any]], devices: Sequence[str]) -> str:
    head = ["rule", "example", "fix", "inputs tried", "verdict"] + [f"speedup {d}" for d in devices]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        rep = row["report"]
        example = f"`{row['before']}` → `{row['after']}`"
        tried = f"{rep.cases} compared / {rep.tried}"
        cells = [row["rule"], example, "unsafe" if row["unsafe"] else "safe", tried, rep.status]
        cells += [_speed_cell(rep, d) for d in devices]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)


def _run_rules(args, sizes, min_run_time) -> int:
    from . import verify_expressions

    rules = load_rules()
    if args.select:
        codes = {c.strip() for c in args.select.split(",") if c.strip()}
        rules = [r for r in rules if r.code in codes]
    examples = rule_examples(rules)
    if not examples:
        print("torchcopy-verify: no rule examples with a verify pair were found", file=sys.stderr)
        return 2
    bench = True if args.bench is None else args.bench
    rows = []
    for ex in examples:
        inputs = dict(ex["inputs"])
        for item in args.input:
            name, _, spec = item.partition("=")
            inputs[name.strip()] = spec
        rep = verify_expressions(ex["before"], ex["after"], inputs=inputs, devices=args.device,
                                 bench=bench, seed=args.seed, sizes=sizes, max_cases=args.max_cases,
                                 min_run_time=min_run_time)
        rows.append({**ex, "report": rep})
        print(f"{ex['rule']}[{ex['index']}] {rep.status}: {ex['before']} -> {ex['after']}", file=sys.stderr)
    devices = []
    for row in rows:
        for d in row["report"].devices:
            if d not in devices:
                devices.append(d)
    print(_rules_table(rows, devices))
    for row in rows:
        rep = row["report"]
        if rep.status == "mismatch" or rep.reason:
            print(f"\n{row['rule']}[{row['index']}] ({'unsafe' if row['unsafe'] else 'safe'}):")
            print(rep.summary())
    if args.json:
        data = [{"rule": r["rule"], "index": r["index"], "unsafe": r["unsafe"], "note": r["note"],
                 **r["report"].to_dict()} for r in rows]
        _write_json(args.json, data)
    if args.plot:
        _plot_many(rows, args.plot)
    if all(r["report"].status == "unverified" for r in rows):
        return 2
    bad = [r for r in rows if not r["unsafe"] and not r["report"].ok]
    return 1 if bad else 0


def _plot_many(rows, path: str) -> None:
    from .bench import plot_timings

    rows = [r for r in rows if r["report"].timings]
    if not rows:
        raise RuntimeError("nothing was timed, so there is nothing to plot (use --bench)")
    # One figure per example would be many files: plot the first, name the others by index.
    for k, row in enumerate(rows):
        p = path if k == 0 else path.replace(".png", f".{row['rule']}-{row['index']}.png")
        plot_timings(row["report"].timings, p, f"{row['rule']}: {row['before']} -> {row['after']}")


def _write_json(path: str, data: Any) -> None:
    text = json.dumps(data, indent=2, default=str)
    if path == "-":
        print(text)
    else:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    from .bench import DEFAULT_SIZES, RULES_SIZES, parse_sizes

    try:
        sizes = parse_sizes(args.sizes) if args.sizes else (RULES_SIZES if args.rules else DEFAULT_SIZES)
    except ValueError as exc:
        print(f"torchcopy-verify: {exc}", file=sys.stderr)
        return 2
    min_run_time = args.min_run_time if args.min_run_time is not None else (0.05 if args.rules else 0.2)
    try:
        if args.rules:
            return _run_rules(args, sizes, min_run_time)
        if not args.before or not args.after:
            print("torchcopy-verify: give --before and --after, or --rules", file=sys.stderr)
            return 2
        from . import verify_expressions
        from .inputs import SpecError, parse_input_args

        try:
            inputs = parse_input_args(args.input)
        except SpecError as exc:
            print(f"torchcopy-verify: {exc}", file=sys.stderr)
            return 2
        bench = True if args.bench is None else args.bench
        rep = verify_expressions(args.before, args.after, inputs=inputs, devices=args.device, bench=bench,
                                 seed=args.seed, sizes=sizes, max_cases=args.max_cases,
                                 min_run_time=min_run_time)
        print(rep.summary())
        if rep.speedup:
            for dev, sp in rep.speedup.items():
                cells = ", ".join(f"{n}: {_fmt_ratio(r)}" for n, r in sorted(sp.items(), key=lambda kv: int(kv[0])))
                print(f"  speedup {dev} (before/after, geometric mean over requires_grad): {cells}")
        if args.json:
            _write_json(args.json, rep.to_dict())
        if args.plot:
            from .bench import plot_timings

            plot_timings(rep.timings, args.plot, f"{args.before} -> {args.after}")
        if rep.status in ("equivalent", "improved"):
            return 0
        return 1 if rep.status == "mismatch" else 2
    except RuntimeError as exc:
        print(f"torchcopy-verify: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
