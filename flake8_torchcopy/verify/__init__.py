"""Verifier: does a rewrite of a PyTorch expression keep its behaviour?

    verify_expressions(before, after, inputs=None, devices="all", bench=False, seed=0) -> Report
    verify_fix(old_source, new_source) -> Report

Free names in the expressions are inputs (tensors unless ``inputs`` says
otherwise); each is run on a covering set of dtypes, ranks, layouts and
autograd states, and every observable property is compared (see
:mod:`.compare`).  torch is imported only inside this package.
"""
from __future__ import annotations

import ast
import builtins
import copy as _copy
import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import torch

from .compare import compare, observe, warn_always
from .inputs import IGNORED_NAMES, InputSpec, SpecError, build_inputs, make_cases, parse_spec

__all__ = ["Report", "verify_expressions", "verify_fix", "free_names", "resolve_devices"]

STATUSES = ("equivalent", "improved", "mismatch", "unverified")
MAX_LISTED = 20


@dataclass
class Report:
    before: str
    after: str
    status: str = "unverified"
    cases: int = 0  # cases actually compared (both sides ran or one raised)
    devices: List[str] = field(default_factory=list)
    mismatches: List[Dict[str, str]] = field(default_factory=list)
    speedup: Dict[str, Dict[str, float]] = field(default_factory=dict)
    timings: Dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    inputs: Dict[str, str] = field(default_factory=dict)
    tried: int = 0  # cases generated, over all devices
    skipped: Dict[str, int] = field(default_factory=dict)  # construction / both_raised
    improvements: List[Dict[str, str]] = field(default_factory=list)
    mismatch_count: int = 0
    mismatch_properties: Dict[str, int] = field(default_factory=dict)  # property -> cases
    seconds: float = 0.0
    parts: List["Report"] = field(default_factory=list)  # verify_fix with several changes

    @property
    def ok(self) -> bool:
        return self.status in ("equivalent", "improved")

    def to_dict(self) -> Dict[str, Any]:
        d = asdict(self)
        if not self.parts:
            d.pop("parts")
        return d

    def to_json(self, indent: Optional[int] = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, default=str)

    def summary(self) -> str:
        lines = [f"{self.status}: {self.before}  ->  {self.after}"]
        skipped = f"; skipped {self.skipped}" if any(self.skipped.values()) else ""
        lines.append(
            f"  devices {', '.join(self.devices) or '-'}; {self.cases} cases compared of {self.tried} tried{skipped}")
        if self.reason:
            lines.append(f"  reason: {self.reason}")
        if self.mismatches:
            m = self.mismatches[0]
            lines.append(f"  {self.mismatch_count} mismatching cases; properties {self.mismatch_properties}")
            lines.append(f"  first mismatch: {m['case']}")
            lines.append(f"    property {m['property']}: before {m['before']}")
            lines.append(f"    {' ' * (len(m['property']) + 9)}after  {m['after']}")
        elif self.improvements:
            m = self.improvements[0]
            lines.append(f"  improved, e.g. {m['case']}: {m['property']}: before {m['before']} / after {m['after']}")
        return "\n".join(lines)


# ---------------------------------------------------------------- expressions


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
    pos = {}
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
        new: ast.AST = ast.Name(id=name, ctx=ast.Load())
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


def verify_expressions(
    before: str,
    after: str,
    inputs: Optional[Dict[str, Any]] = None,
    devices: Union[str, Sequence[str]] = ("cpu",),
    bench: bool = False,
    seed: int = 0,
    sizes: Optional[Sequence[int]] = None,
    max_cases: Optional[int] = None,
    min_run_time: float = 0.2,
    env: Optional[Dict[str, Any]] = None,
) -> Report:
    """Run ``before`` and ``after`` on the same synthesized inputs and compare them."""
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
    counts = {"construction": 0, "both_raised": 0}
    n_improved = n_equal = 0
    with warn_always():
        for dev in run_devs:
            for case in cases:
                rep.tried += 1
                label = f"{dev} {case.describe()}"
                try:
                    in_b = build_inputs(case, dev, seed)
                    in_a = build_inputs(case, dev, seed)
                except Exception:  # noqa: BLE001 - the case cannot be constructed
                    counts["construction"] += 1
                    continue
                ob = observe(b_code, {**glb, **in_b, "__input_names__": list(in_b)}, case.grad_mode,
                             seed * 7919 + case.index)
                oa = observe(a_code, {**glb, **in_a, "__input_names__": list(in_a)}, case.grad_mode,
                             seed * 7919 + case.index)
                verdict, diffs = compare(ob, oa)
                diff = diffs[0] if diffs else None
                if verdict == "both_raised":
                    counts["both_raised"] += 1
                    continue
                rep.cases += 1
                if verdict == "equal":
                    n_equal += 1
                elif verdict == "improved":
                    n_improved += 1
                    if len(rep.improvements) < MAX_LISTED and diff:
                        rep.improvements.append(
                            {"case": label, "property": diff[0], "before": diff[1], "after": diff[2]})
                else:
                    rep.mismatch_count += 1
                    for d in diffs:
                        rep.mismatch_properties[d[0]] = rep.mismatch_properties.get(d[0], 0) + 1
                    if len(rep.mismatches) < MAX_LISTED and diff:
                        m = {"case": label, "property": diff[0], "before": diff[1], "after": diff[2],
                             "all_properties": ", ".join(d[0] for d in diffs)}
                        strides_b = ob.info.get("strides(stride, offset, contiguous)")
                        strides_a = oa.info.get("strides(stride, offset, contiguous)")
                        if strides_b is not None and strides_b != strides_a:
                            m["strides"] = f"before {strides_b} / after {strides_a}"
                        rep.mismatches.append(m)
    rep.skipped = counts
    if rep.mismatch_count:
        rep.status = "mismatch"
    elif n_improved:
        rep.status = "improved"
    elif n_equal:
        rep.status = "equivalent"
    else:
        rep.status = "unverified"
        rep.reason = rep.reason or "no case could be run: every input was rejected or both versions raised"
    if bench and rep.status != "unverified":
        from .bench import DEFAULT_SIZES, bench_pair

        rep.speedup, rep.timings = bench_pair(
            b_code, a_code, specs, run_devs, sizes or DEFAULT_SIZES, glb, min_run_time=min_run_time)
    rep.seconds = round(time.perf_counter() - t0, 3)
    return rep


# ---------------------------------------------------------------- files


class Unisolable(Exception):
    """The change between two sources is not inside an expression."""


def _differs(a: Any, b: Any) -> bool:
    if isinstance(a, ast.AST) and isinstance(b, ast.AST):
        return ast.dump(a) != ast.dump(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) != len(b) or any(_differs(x, y) for x, y in zip(a, b))
    return a != b


def _diff(a: ast.AST, b: ast.AST, pa: List[ast.AST], pb: List[ast.AST], out: list) -> None:
    """Collect the smallest differing node pairs, with their ancestor paths."""
    if type(a) is not type(b):
        out.append((pa + [a], pb + [b]))
        return
    sub = []
    for f in a._fields:
        va, vb = getattr(a, f, None), getattr(b, f, None)
        if not _differs(va, vb):
            continue
        if isinstance(va, list) and isinstance(vb, list) and len(va) == len(vb):
            sub += [(x, y) for x, y in zip(va, vb) if _differs(x, y)]
        elif isinstance(va, ast.AST) and isinstance(vb, ast.AST):
            sub.append((va, vb))
        else:  # a primitive field or a list changed length: the change is this node
            out.append((pa + [a], pb + [b]))
            return
    if isinstance(a, ast.expr) and len(sub) > 1:
        out.append((pa + [a], pb + [b]))
        return
    for x, y in sub:
        if isinstance(x, ast.AST) and isinstance(y, ast.AST):
            _diff(x, y, pa + [a], pb + [b], out)
        else:
            out.append((pa + [a], pb + [b]))


def _needs_parent(node: ast.AST, parent: Optional[ast.AST]) -> bool:
    if not isinstance(node, ast.expr) or isinstance(node, (ast.Slice, ast.Starred)):
        return True
    if isinstance(parent, ast.Call) and node is parent.func:
        return True
    if isinstance(parent, (ast.comprehension, ast.arguments, ast.keyword)):
        return True
    return False


def _climb(path: List[ast.AST]) -> int:
    i = len(path) - 1
    while i > 0 and _needs_parent(path[i], path[i - 1]):
        i -= 1
    return i


def changed_expressions(old_source: str, new_source: str) -> List[Tuple[str, str]]:
    """The smallest differing expression pairs between two versions of a module."""
    old, new = ast.parse(old_source), ast.parse(new_source)
    pairs: list = []
    _diff(old, new, [], [], pairs)
    out: List[Tuple[str, str]] = []
    for pa, pb in pairs:
        # Both paths share the ancestors; climb to the same depth on both sides.
        i = min(_climb(pa), _climb(pb))
        na, nb = pa[i], pb[i]
        if not (isinstance(na, ast.expr) and isinstance(nb, ast.expr)):
            raise Unisolable(f"the change is in a {type(na).__name__}, not inside an expression")
        if isinstance(getattr(na, "ctx", None), (ast.Store, ast.Del)):
            raise Unisolable("the change is an assignment target")
        for n in ast.walk(na):
            if isinstance(n, (ast.Await, ast.Yield, ast.YieldFrom)):
                raise Unisolable("the changed expression awaits or yields")
        pair = (ast.unparse(na), ast.unparse(nb))
        if pair not in out:
            out.append(pair)
    return out


_IMPORTABLE = ("torch", "numpy", "copy", "math")


def _module_env(source: str) -> Tuple[Dict[str, Any], Dict[str, str]]:
    """Names the module binds to torch/numpy/copy/math imports, and literal module constants."""
    env: Dict[str, Any] = {}
    consts: Dict[str, str] = {}
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mod = node.module if isinstance(node, ast.ImportFrom) else None
            roots = [mod] if mod else [a.name for a in node.names]
            if node.level if isinstance(node, ast.ImportFrom) else 0:
                continue
            if all(r and r.split(".")[0] in _IMPORTABLE for r in roots):
                try:
                    exec(compile(ast.Module([node], []), "<imports>", "exec"), env)  # noqa: S102
                except Exception:  # noqa: BLE001
                    pass
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                v = ast.literal_eval(node.value)
            except (ValueError, SyntaxError, TypeError):
                continue
            if isinstance(v, bool):
                consts[node.targets[0].id] = f"value:{v!r}"
            elif isinstance(v, int):
                consts[node.targets[0].id] = f"int:{v}"
            elif isinstance(v, (float, str, tuple, list)):
                consts[node.targets[0].id] = f"value:{v!r}"
    env.pop("__builtins__", None)
    return env, consts


def module_env(source: str) -> Tuple[Dict[str, Any], Dict[str, str]]:
    """Public name of :func:`_module_env` (for ``torchcopy-fix --verify``'s verdict cache)."""
    return _module_env(source)


def _combine(parts: List[Report]) -> Report:
    rep = Report(before="; ".join(p.before for p in parts), after="; ".join(p.after for p in parts))
    rep.parts = parts
    for p in parts:
        rep.cases += p.cases
        rep.tried += p.tried
        rep.mismatches += p.mismatches
        rep.mismatch_count += p.mismatch_count
        for k, v in p.mismatch_properties.items():
            rep.mismatch_properties[k] = rep.mismatch_properties.get(k, 0) + v
        rep.improvements += p.improvements
        for d in p.devices:
            if d not in rep.devices:
                rep.devices.append(d)
        for k, v in p.skipped.items():
            rep.skipped[k] = rep.skipped.get(k, 0) + v
        rep.seconds += p.seconds
    statuses = [p.status for p in parts]
    for s in ("mismatch", "unverified", "improved", "equivalent"):
        if s in statuses:
            rep.status = s
            break
    rep.reason = "; ".join(f"{p.before}: {p.reason}" for p in parts if p.reason)
    if len(parts) == 1:
        rep.speedup, rep.timings = parts[0].speedup, parts[0].timings
    return rep


def verify_fix(
    old_source: str,
    new_source: str,
    inputs: Optional[Dict[str, Any]] = None,
    devices: Union[str, Sequence[str]] = ("cpu",),
    bench: bool = False,
    seed: int = 0,
    max_cases: Optional[int] = None,
) -> Report:
    """Verify every changed expression between two versions of a file."""
    try:
        pairs = changed_expressions(old_source, new_source)
    except SyntaxError as exc:
        return Report("<old source>", "<new source>", reason=f"cannot parse: {exc.msg}")
    except Unisolable as exc:
        return Report("<old source>", "<new source>", reason=f"cannot isolate an expression: {exc}")
    if not pairs:
        return Report("<old source>", "<new source>", status="equivalent",
                      reason="the two sources have the same syntax tree")
    env, consts = _module_env(old_source)
    env_new, _ = _module_env(new_source)
    env.update(env_new)
    specs = dict(consts)
    specs.update(inputs or {})
    parts = []
    for b, a in pairs:
        used = set(free_names(b, known=list(env))) | set(free_names(a, known=list(env)))
        part_inputs = {k: v for k, v in specs.items() if k in used}
        parts.append(verify_expressions(b, a, inputs=part_inputs, devices=devices, bench=bench,
                                        seed=seed, max_cases=max_cases, env=env))
    return parts[0] if len(parts) == 1 else _combine(parts)
