"""Verify one expression pair: synthesize inputs, run both sides per case, decide a verdict."""
from __future__ import annotations

import ast
import builtins
import contextlib
import copy as _copy
import os
import time
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import torch

from . import state as _state
from .compare import compare
from .inputs import build_inputs, make_cases
from .observe import NOISE_WARNINGS, observe, warn_always
from .outcome import Report
from .specs import IGNORED_NAMES, InputSpec, SpecError, parse_spec

MAX_LISTED = 20


def base_globals() -> Dict[str, Any]:
    env: Dict[str, Any] = {"torch": torch, "copy": _copy, "deepcopy": _copy.deepcopy,
                           "nn": torch.nn, "F": torch.nn.functional}
    try:
        import math

        env["math"] = math
        import numpy

        env["np"] = env["numpy"] = numpy
    except ImportError:  # pragma: no cover - numpy is optional
        pass
    return env


class _Bound(ast.NodeVisitor):
    """Names bound inside an expression (comprehension targets, lambda args, walrus)."""

    def __init__(self) -> None:
        self.bound: set = set()

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.bound.add(node.id)

    def visit_arg(self, node: ast.arg) -> None:
        self.bound.add(node.arg)


def free_names(expr: Union[str, ast.AST], known: Sequence[str] = ()) -> List[str]:
    """Input names of an expression, in order of first appearance."""
    tree = ast.parse(expr, mode="eval") if isinstance(expr, str) else expr
    b = _Bound()
    b.visit(tree)
    skip = set(IGNORED_NAMES) | set(dir(builtins)) | b.bound | set(known)
    out: List[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in skip:
            if node.id not in out:
                out.append(node.id)
    # ast.walk is breadth first; order by source position for stable naming.
    pos: Dict[str, Tuple[int, int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in out:
            key = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
            pos[node.id] = min(pos.get(node.id, key), key)
    return sorted(out, key=lambda n: pos.get(n, (0, 0)))


_TENSOR_ATTRS = frozenset(dir(torch.Tensor))


class _CollapseAttrs(ast.NodeTransformer):
    """``self.weight.clone()`` -> ``self__weight.clone()``: attribute chains on a free
    name whose attributes are not Tensor attributes become one input."""

    def __init__(self, skip: set) -> None:
        self.skip = skip
        self.renamed: Dict[str, str] = {}

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        chain: List[ast.Attribute] = []
        cur: ast.AST = node
        while isinstance(cur, ast.Attribute):
            chain.append(cur)
            cur = cur.value
        if not (isinstance(cur, ast.Name) and cur.id not in self.skip):
            return self.generic_visit(node)
        chain.reverse()  # innermost first
        k = 0
        while k < len(chain) and chain[k].attr not in _TENSOR_ATTRS:
            k += 1
        if k == 0:
            return node
        dotted = cur.id + "." + ".".join(a.attr for a in chain[:k])
        name = dotted.replace(".", "__")
        self.renamed[name] = dotted
        new: ast.expr = ast.Name(id=name, ctx=ast.Load())
        for a in chain[k:]:
            new = ast.Attribute(value=new, attr=a.attr, ctx=a.ctx)
        return ast.copy_location(new, node)


def _prepare(exprs: Sequence[str], known: Sequence[str] = ()) -> Tuple[List[str], Dict[str, str]]:
    """Rewrite attribute-chain inputs and return (new expressions, renames)."""
    skip = set(IGNORED_NAMES) | set(dir(builtins)) | set(known)
    out, renamed = [], {}
    for e in exprs:
        tree = ast.parse(e.strip(), mode="eval")
        t = _CollapseAttrs(skip)
        tree = ast.fix_missing_locations(t.visit(tree))
        renamed.update(t.renamed)
        out.append(ast.unparse(tree) if t.renamed else e.strip())
    return out, renamed


def resolve_devices(devices: Union[str, Sequence[str]]) -> Tuple[List[str], List[str]]:
    """(devices to run, devices requested but unavailable)."""
    if isinstance(devices, str):
        devices = [devices]
    run: List[str] = []
    missing: List[str] = []
    for d in devices:
        want = ["cpu", "cuda"] if d == "all" else [d]
        for w in want:
            if w.startswith("cuda") and not torch.cuda.is_available():
                if d != "all":
                    missing.append(w)
            elif w not in run:
                run.append(w)
    return run, missing


def _specs(names: Sequence[str], inputs: Optional[Dict[str, Any]]) -> Dict[str, InputSpec]:
    inputs = dict(inputs or {})
    specs: Dict[str, InputSpec] = {}
    # Non-tensor inputs first: tensor shapes may refer to them.
    for n, s in inputs.items():
        specs[n] = s if isinstance(s, InputSpec) else parse_spec(str(s))
    for n in names:
        specs.setdefault(n, parse_spec("tensor"))
    ordered = {n: s for n, s in specs.items() if s.kind != "tensor"}
    ordered.update({n: s for n, s in specs.items() if s.kind == "tensor"})
    return ordered


class _Tally:
    """Per-case verdicts, summed into a :class:`Report` and its status."""

    def __init__(self) -> None:
        self.skipped: Dict[str, int] = {"unsupported input": 0, "both raised": 0, "result not comparable": 0}
        self.both_raised: Dict[str, int] = {}
        self.equal = self.rescued = self.quieter = 0
        self.uncomparable: Dict[str, str] = {}  # verifier error -> first case
        self.notes: Dict[str, int] = {}  # why both raising different types was accepted -> cases
        # mismatching cases, in order: (the original raised), differing properties, the entry
        self.mismatched: List[Tuple[bool, List[str], Dict[str, str]]] = []

    def skip(self, why: str) -> None:
        self.skipped[why] += 1

    def add(self, rep: Report, label: str, verdict: str, diffs, ob, oa) -> None:
        if verdict == "both_raised":
            self.skip("both raised")
            key = ob.exception if ob.exception == oa.exception else f"{ob.exception} / {oa.exception}"
            self.both_raised[key] = self.both_raised.get(key, 0) + 1
            if len(diffs[0]) > 3:  # different types, a pair the rule accepts: say so
                self.notes[diffs[0][3]] = self.notes.get(diffs[0][3], 0) + 1
            return
        rep.cases += 1
        if verdict == "equal":
            self.equal += 1
            return
        prop, before, after = diffs[0][:3]
        if verdict == "improved":
            if prop in ("exception", "backward"):
                self.rescued += 1
            else:
                self.quieter += 1
            if len(rep.improvements) < MAX_LISTED:
                rep.improvements.append({"case": label, "property": prop, "before": before, "after": after})
            return
        entry = {"case": label, "property": prop, "before": before, "after": after,
                 "all_properties": ", ".join(d[0] for d in diffs)}
        if len(diffs[0]) > 3:
            entry["reason"] = diffs[0][3]
        self.mismatched.append((ob.exception is not None, [d[0] for d in diffs], entry))

    def finish(self, rep: Report) -> None:
        """``improved`` needs cases where both ran (all equal or quieter after) *and* an
        improvement; where the original never ran there is nothing to compare with: the cases
        where it raised and the rewrite did otherwise then give ``unverified``, not a
        mismatch, unless a case where the original ran differs."""
        rep.skipped = self.skipped
        rep.both_raised = self.both_raised
        rep.notes += [f"{why} ({n} cases, counted as rejected by both versions)" for why, n in self.notes.items()]
        both_ran = self.equal + self.quieter
        others = [m for m in self.mismatched if not m[0]]
        raised = len(self.mismatched) - len(others)
        if others or (self.mismatched and both_ran):
            rep.status = "mismatch"
            for _, props, entry in self.mismatched:
                rep.mismatch_count += 1
                for p in props:
                    rep.mismatch_properties[p] = rep.mismatch_properties.get(p, 0) + 1
                if len(rep.mismatches) < MAX_LISTED:
                    rep.mismatches.append(entry)
        elif both_ran == 0:
            rep.status = "unverified"
            if self.rescued or raised:
                why = (f"the original raised on every input it was given ({self.rescued + raised} cases) "
                       "and never ran: there is no case to compare the rewrite with")
            else:
                why = "no case could be compared: every input was unsupported or both versions raised"
            rep.reason = "; ".join(r for r in (rep.reason, why) if r)
        elif self.rescued or self.quieter:
            rep.status = "improved"
        else:
            rep.status = "equivalent"


def verify_expressions(
    before: str,
    after: str,
    inputs: Optional[Dict[str, Any]] = None,
    devices: Union[str, Sequence[str]] = ("cpu",),
    bench: bool = False,
    seed: int = 0,
    sizes: Optional[Sequence[int]] = None,
    max_cases: Optional[int] = None,
    min_run_time: float = 0.05,
    repeats: int = 5,
    env: Optional[Dict[str, Any]] = None,
    rule: Optional[str] = None,
) -> Report:
    """Run ``before`` and ``after`` on the same synthesized inputs and compare them.

    ``rule`` is the code of the rule the rewrite comes from: it decides which errors of
    the original the rewrite may remove and still be ``improved`` (see :mod:`.rescues`);
    None when it is not known.  The process's global state (random generators, default
    dtype and device...) is the same afterwards as before."""
    entry = _state.capture()
    try:
        return _verify_expressions(before, after, inputs, devices, bench, seed, sizes, max_cases,
                                   min_run_time, repeats, env, rule)
    finally:
        _state.restore(entry)


def _verify_expressions(before, after, inputs, devices, bench, seed, sizes, max_cases, min_run_time,
                        repeats, env, rule) -> Report:
    t0 = time.perf_counter()
    rep = Report(before=before, after=after)
    try:
        (b_src, a_src), renamed = _prepare([before, after], known=list(env or ()))
        names = free_names(b_src, known=list(env or ()))
        for n in free_names(a_src, known=list(env or ())):
            if n not in names:
                names.append(n)
        specs = _specs(names, inputs)
        b_code = compile(b_src, "<before>", "eval")
        a_code = compile(a_src, "<after>", "eval")
    except SyntaxError as exc:
        rep.reason = f"not an expression: {exc.msg}"
        return rep
    except SpecError as exc:
        rep.reason = f"cannot synthesize inputs: {exc}"
        return rep
    rep.inputs = {renamed.get(n, n): s.text for n, s in specs.items()}
    run_devs, missing = resolve_devices(devices)
    rep.devices = run_devs
    if missing:
        rep.reason = f"device not available: {', '.join(missing)}"
    if not run_devs:
        return rep
    try:
        cases = make_cases(specs, seed=seed, max_cases=max_cases)
    except (SpecError, Exception) as exc:  # noqa: BLE001
        rep.reason = f"cannot synthesize inputs: {exc}"
        return rep

    glb = base_globals()
    glb.update(env or {})
    tally = _Tally()
    with warn_always(), warnings.catch_warnings():
        for text in NOISE_WARNINGS:
            warnings.filterwarnings("ignore", message=text)
        for dev in run_devs:
            for case in cases:
                rep.tried += 1
                try:
                    in_b = build_inputs(case, dev, seed)
                    in_a = build_inputs(case, dev, seed)
                except Exception:  # noqa: BLE001 - this dtype/layout does not exist here
                    tally.skip("unsupported input")
                    continue
                rng_seed = seed * 7919 + case.index
                try:
                    ob = observe(b_code, {**glb, **in_b, "__input_names__": list(in_b)}, case.grad_mode,
                                 rng_seed, case.default_dtype)
                    oa = observe(a_code, {**glb, **in_a, "__input_names__": list(in_a)}, case.grad_mode,
                                 rng_seed, case.default_dtype)
                    verdict, diffs = compare(ob, oa, rule)
                except Exception as exc:  # noqa: BLE001 - a result the verifier cannot inspect
                    tally.skip("result not comparable")
                    tally.uncomparable.setdefault(f"{type(exc).__name__}: {exc}"[:200], f"{dev} {case.describe()}")
                    continue
                tally.add(rep, f"{dev} {case.describe()}", verdict, diffs, ob, oa)
    tally.finish(rep)
    if bench and rep.status != "unverified":
        from .bench import DEFAULT_SIZES, bench_pair

        with open(os.devnull, "w") as null, contextlib.redirect_stdout(null), contextlib.redirect_stderr(null):
            rep.speedup, rep.timings = bench_pair(
                b_code, a_code, specs, run_devs, sizes or DEFAULT_SIZES, glb, min_run_time=min_run_time,
                repeats=repeats)
    rep.seconds = round(time.perf_counter() - t0, 3)
    return rep
