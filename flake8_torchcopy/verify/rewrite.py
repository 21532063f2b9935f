"""Verify a rewrite of a module: find what changed between two sources and verify it."""
from __future__ import annotations

import ast
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple, Union

from .bindings import analysed_specs, analysed_values, input_name, known_names
from .expressions import free_names, verify_expressions
from .report import Report


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


def _check_isolable(na: ast.AST, nb: ast.AST) -> None:
    if not (isinstance(na, ast.expr) and isinstance(nb, ast.expr)):
        raise Unisolable(f"the change is in a {type(na).__name__}, not inside an expression")
    if isinstance(getattr(na, "ctx", None), (ast.Store, ast.Del)):
        raise Unisolable("the change is an assignment target")
    for n in ast.walk(na):
        if isinstance(n, (ast.Await, ast.Yield, ast.YieldFrom)):
            raise Unisolable("the changed expression awaits or yields")


def _widen(pa: List[ast.AST], pb: List[ast.AST], i: int, bound: Set[str]) -> int:
    """Climb from depth ``i`` to the outermost enclosing expression of the statement whose
    free names are all ``bound``: the rewrite as the program runs it, as far as inputs for
    it can be synthesized (an unknown callable or name stops the climb)."""
    while i > 0 and isinstance(pa[i - 1], ast.expr) and isinstance(pb[i - 1], ast.expr):
        names = set(free_names(pa[i - 1])) | set(free_names(pb[i - 1]))
        if not names <= bound or isinstance(getattr(pa[i - 1], "ctx", None), (ast.Store, ast.Del)):
            break
        i -= 1
    return i


def _changed_paths(old_source: str, new_source: str) -> List[Tuple[List[ast.AST], List[ast.AST], int]]:
    """(ancestor path in old, in new, depth of the smallest changed expression) per change."""
    old, new = ast.parse(old_source), ast.parse(new_source)
    pairs: list = []
    _diff(old, new, [], [], pairs)
    out = []
    for pa, pb in pairs:
        # Both paths share the ancestors; climb to the same depth on both sides.
        i = min(_climb(pa), _climb(pb))
        _check_isolable(pa[i], pb[i])
        out.append((pa, pb, i))
    return out


def _statement_lines(paths) -> Tuple[int, int]:
    """First and last line of the statements that hold the changes."""
    stmts = [next(n for n in reversed(pa[:i + 1]) if isinstance(n, ast.stmt)) for pa, _, i in paths]
    return min(s.lineno for s in stmts), max(s.end_lineno or s.lineno for s in stmts)


def _pairs(paths, bound: Optional[Sequence[str]]) -> List[Tuple[str, str]]:
    out: List[Tuple[str, str]] = []
    for pa, pb, i in paths:
        if bound is not None:
            own = set(free_names(pa[i])) | set(free_names(pb[i]))
            i = _widen(pa, pb, i, own | set(bound))
        pair = (ast.unparse(pa[i]), ast.unparse(pb[i]))
        if pair not in out:
            out.append(pair)
    return out


def changed_expressions(old_source: str, new_source: str,
                        bound: Optional[Sequence[str]] = None) -> List[Tuple[str, str]]:
    """The differing expression pairs between two versions of a module: the smallest ones,
    or with ``bound`` (names whose values are known: imports, constants, declared inputs)
    each widened to the outermost enclosing expression that uses no other free name than
    those and the smallest pair's own inputs."""
    return _pairs(_changed_paths(old_source, new_source), bound)


_IMPORTABLE = ("torch", "numpy", "copy", "math")


def module_env(source: str) -> Tuple[Dict[str, Any], Dict[str, str]]:
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
        for k, v in p.both_raised.items():
            rep.both_raised[k] = rep.both_raised.get(k, 0) + v
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
    """Verify a rewrite of a module as it is applied: each changed expression widened to its
    enclosing expression (see :func:`changed_expressions`), its names bound as the static
    analysis knows them (tensors of known sizes, sizes; see :mod:`.bindings`), the module's
    imports and literal constants, and ``inputs`` (NAME -> SPEC) first."""
    try:
        env, consts = module_env(old_source)
        env_new, _ = module_env(new_source)
        env.update(env_new)
        paths = _changed_paths(old_source, new_source)
        if not paths:
            return Report("<old source>", "<new source>", status="equivalent",
                          reason="the two sources have the same syntax tree")
        values = analysed_values(old_source, *_statement_lines(paths))
        analysed = analysed_specs(values, list(values))
        specs = {**analysed, **consts, **(inputs or {})}
        pairs = _pairs(paths, bound=list(env) + list(specs) + list(known_names(values)))
    except SyntaxError as exc:
        return Report("<old source>", "<new source>", reason=f"cannot parse: {exc.msg}")
    except Unisolable as exc:
        return Report("<old source>", "<new source>", reason=f"cannot isolate an expression: {exc}")
    parts = []
    for b, a in pairs:
        used = set(free_names(b, known=list(env))) | set(free_names(a, known=list(env)))
        used |= {input_name(n) for n in _dotted_inputs(b) | _dotted_inputs(a)}
        part_inputs = {k: v for k, v in specs.items() if k in used or not str(v).startswith("tensor")}
        parts.append(verify_expressions(b, a, inputs=part_inputs, devices=devices, bench=bench,
                                        seed=seed, max_cases=max_cases, env=env))
    return parts[0] if len(parts) == 1 else _combine(parts)


def _dotted_inputs(expr: str) -> Set[str]:
    """Attribute chains in an expression (``self.w``), which may be inputs of their own."""
    return {ast.unparse(n) for n in ast.walk(ast.parse(expr, mode="eval")) if isinstance(n, ast.Attribute)}
