"""Verify a rewrite of a module: find what changed between two sources and verify it."""
from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass, field
from typing import Any, Dict, Hashable, List, Optional, Sequence, Set, Tuple, Union, cast

from .bindings import analysed_specs, analysed_values, input_name, known_names
from .expressions import free_names, verify_expressions
from .outcome import Report


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
    if isinstance(parent, ast.keyword):
        return node is not parent.value  # a keyword's value is an expression of its own
    if isinstance(parent, (ast.comprehension, ast.arguments)):
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
    while i > 0:
        up = i - 2 if isinstance(pa[i - 1], (ast.keyword, ast.Starred)) and i > 1 else i - 1
        if not (isinstance(pa[up], ast.expr) and isinstance(pb[up], ast.expr)):
            break
        names = set(free_names(pa[up])) | set(free_names(pb[up]))
        if not names <= bound or isinstance(getattr(pa[up], "ctx", None), (ast.Store, ast.Del)):
            break
        i = up
    return i


def _is_dotted_name(node: ast.AST) -> bool:
    """``x`` or ``self.w``: already an input of its own."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


class _Operands(ast.NodeTransformer):
    """Replaces each compound sub-expression that occurs once on both sides, unchanged, and
    uses a name nothing binds, by an input ``_operandK``: the rewrite is then verified for any
    tensor there (``f(a)[:k].clone().detach()`` -> ``_operand0.clone().detach()``)."""

    def __init__(self, once_in_both: Dict[str, str], unknown: Set[str]) -> None:
        self.once_in_both = once_in_both  # ast.dump -> operand name
        self.unknown = unknown

    def visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.expr) and not _is_dotted_name(node) \
                and not isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del)):
            name = self.once_in_both.get(ast.dump(node))
            if name is not None and self.unknown & set(free_names(node)):
                return ast.copy_location(ast.Name(id=name, ctx=ast.Load()), node)
        if isinstance(node, ast.Call):  # keep an unknown callable: calling a tensor is no test
            if isinstance(node.func, ast.Attribute):  # but a method's receiver may go
                node.func.value = cast(ast.expr, self.visit(node.func.value))
            # visit() is typed to return any AST; this transformer maps an expression to one
            node.args = [cast(ast.expr, self.visit(a)) for a in node.args]
            node.keywords = [cast(ast.keyword, self.visit(k)) for k in node.keywords]
            return node
        return self.generic_visit(node)


def _abstract_operands(a: ast.expr, b: ast.expr, bound: Set[str]) -> Tuple[ast.expr, ast.expr, List[str]]:
    """``a`` and ``b`` with their common unknown operands replaced (see :class:`_Operands`)."""
    unknown = (set(free_names(a)) | set(free_names(b))) - bound
    if not unknown:
        return a, b, []

    def counts(tree: ast.AST) -> Dict[str, int]:
        out: Dict[str, int] = {}
        for n in ast.walk(tree):
            if isinstance(n, ast.expr) and n is not tree:
                out[ast.dump(n)] = out.get(ast.dump(n), 0) + 1
        return out

    ca, cb = counts(a), counts(b)
    common = [d for d in ca if ca[d] == 1 and cb.get(d) == 1]
    names = {d: f"_operand{k}" for k, d in enumerate(common)}
    a = cast(ast.expr, _Operands(names, unknown).visit(copy.deepcopy(a)))
    b = cast(ast.expr, _Operands(names, unknown).visit(copy.deepcopy(b)))
    used = sorted(set(free_names(a)) & set(names.values()))
    return a, b, used


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
        na, nb = pa[i], pb[i]
        if bound is not None:
            own = set(free_names(na)) | set(free_names(nb))
            i = _widen(pa, pb, i, own | set(bound))
            na, nb, _ = _abstract_operands(pa[i], pb[i], set(bound))
        pair = (ast.unparse(na), ast.unparse(nb))
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
        rep.notes += [f"{p.before}: {n}" for n in p.notes]
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


@dataclass
class FixCheck:
    """What :func:`verify_fix` will run for a rewrite: the expression pairs as applied, the
    inputs of each, and the module's import bindings.  ``key`` is what the verdict depends
    on (equal keys, equal verdicts), or None when the rewrite cannot be verified (``report``
    then says why)."""

    parts: List[Tuple[str, str, Dict[str, Any]]] = field(default_factory=list)
    env: Dict[str, Any] = field(default_factory=dict)
    report: Optional[Report] = None  # the verdict when nothing needs to run
    rule: Optional[str] = None  # the rule the rewrite comes from, None when not known

    @property
    def key(self) -> Optional[Hashable]:
        if self.report is not None:
            return None
        bound = tuple(sorted((n, getattr(v, "__name__", type(v).__name__)) for n, v in self.env.items()))
        return tuple((b, a, tuple(sorted(inp.items()))) for b, a, inp in self.parts), bound, self.rule


_FINDINGS: Dict[str, list] = {}  # source -> its findings (the last few sources)


def _findings(source: str) -> list:
    if source not in _FINDINGS:
        from ..engine import lint_source

        if len(_FINDINGS) >= 8:
            _FINDINGS.pop(next(iter(_FINDINGS)))
        _FINDINGS[source] = lint_source(source)
    return _FINDINGS[source]


def rule_of_fix(old_source: str, new_source: str) -> Optional[str]:
    """The code of the rule whose fix turns ``old_source`` into ``new_source``: the fix of
    one finding, or the fixes of several findings of one rule, applied as the engine applies
    them.  None when no rule's fixes give exactly ``new_source`` (a rewrite by hand)."""
    from ..engine import apply_fixes

    try:
        findings = [f for f in _findings(old_source) if f.fix is not None]
    except Exception:  # noqa: BLE001 - a source the linter cannot read, or a linter bug: no rule
        return None
    if not findings or old_source == new_source:
        return None
    # The changed span of the old text; a fix whose edits lie apart from it is not the one.
    p = 0
    while p < min(len(old_source), len(new_source)) and old_source[p] == new_source[p]:
        p += 1
    q = 0
    while q < min(len(old_source), len(new_source)) - p and old_source[-1 - q] == new_source[-1 - q]:
        q += 1
    lo, hi = p, len(old_source) - q

    def touches(f) -> bool:
        return any(e.start <= hi and lo <= e.end for e in f.fix.edits)

    near = [f for f in findings if touches(f)]
    tries = [[f] for f in near]
    codes = {f.code for f in near}
    if len(codes) == 1 and len(near) > 1:
        tries.append(near)
    for chosen in tries:
        try:
            fixed, applied = apply_fixes(old_source, chosen, unsafe=True)
        except Exception:  # noqa: BLE001 - a fix the engine refuses is not this rewrite
            continue
        if fixed == new_source and len(applied) == len(chosen):
            return chosen[0].code
    return None


def prepare_fix(old_source: str, new_source: str, inputs: Optional[Dict[str, Any]] = None,
                rule: Optional[str] = None) -> FixCheck:
    """The rewrite as applied: each changed expression widened to its enclosing expression
    (see :func:`changed_expressions`), its names bound as the static analysis knows them
    (tensors of known sizes, sizes; see :mod:`.bindings`), the module's imports and literal
    constants, and ``inputs`` (NAME -> SPEC) over all of those.  ``rule``: the code of the
    rule the rewrite comes from; when None, the rule whose fixes give ``new_source``
    (:func:`rule_of_fix`), if any.  Runs no torch code."""
    try:
        env, consts = module_env(old_source)
        env_new, _ = module_env(new_source)
        env.update(env_new)
        paths = _changed_paths(old_source, new_source)
        if not paths:
            return FixCheck(report=Report("<old source>", "<new source>", status="equivalent",
                                          reason="the two sources have the same syntax tree"))
        values = analysed_values(old_source, *_statement_lines(paths))
        specs = {**analysed_specs(values, list(values)), **consts, **(inputs or {})}
        pairs = _pairs(paths, bound=list(env) + list(specs) + list(known_names(values)))
    except SyntaxError as exc:
        return FixCheck(report=Report("<old source>", "<new source>", reason=f"cannot parse: {exc.msg}"))
    except Unisolable as exc:
        return FixCheck(report=Report("<old source>", "<new source>",
                                      reason=f"cannot isolate an expression: {exc}"))
    check = FixCheck(env=env, rule=rule if rule is not None else rule_of_fix(old_source, new_source))
    for b, a in pairs:
        used = set(free_names(b, known=list(env))) | set(free_names(a, known=list(env)))
        used |= {input_name(n) for n in _dotted_inputs(b) | _dotted_inputs(a)}
        part_inputs = _needed_inputs(specs, used)
        check.parts.append((b, a, part_inputs))
    return check


def verify_fix(
    old_source: str,
    new_source: str,
    inputs: Optional[Dict[str, Any]] = None,
    devices: Union[str, Sequence[str]] = ("cpu",),
    bench: bool = False,
    seed: int = 0,
    max_cases: Optional[int] = None,
    check: Optional[FixCheck] = None,
    rule: Optional[str] = None,
) -> Report:
    """Verify a rewrite of a module as it is applied (see :func:`prepare_fix`; pass its
    ``check`` to skip preparing again).  ``rule``: the rule the rewrite comes from (None:
    the one whose fixes give ``new_source``, if any; see :mod:`.rescues`)."""
    check = check or prepare_fix(old_source, new_source, inputs, rule=rule)
    if check.report is not None:
        return check.report
    parts = [verify_expressions(b, a, inputs=inp, devices=devices, bench=bench, seed=seed,
                                max_cases=max_cases, env=check.env, rule=check.rule)
             for b, a, inp in check.parts]
    return parts[0] if len(parts) == 1 else _combine(parts)


def _needed_inputs(specs: Dict[str, Any], used: Set[str]) -> Dict[str, Any]:
    """The specs of the names used, and of the names their specs refer to (sizes)."""
    need, todo = set(), [n for n in used if n in specs]
    while todo:
        name = todo.pop()
        if name not in need:
            need.add(name)
            todo += [w for w in re.findall(r"[A-Za-z_]\w*", str(specs[name])) if w in specs]
    return {k: v for k, v in specs.items() if k in need}


def _dotted_inputs(expr: str) -> Set[str]:
    """Attribute chains in an expression (``self.w``), which may be inputs of their own."""
    return {ast.unparse(n) for n in ast.walk(ast.parse(expr, mode="eval")) if isinstance(n, ast.Attribute)}
