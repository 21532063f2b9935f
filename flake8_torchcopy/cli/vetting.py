"""``torchcopy-fix --verify``: each fix is verified alone, on synthesized inputs, before it
is applied; a fix that changes behaviour (or, with ``--require-verified``, one that could
not be verified) is not applied.  Imports torch, through the verifier, when used.

Verdicts are cached per process for a run: the same rewrite in the same context (what
its names are bound to) is verified once.
"""
from __future__ import annotations

import ast
from typing import Any, Dict, Hashable, List, Optional

from ..engine import apply_fixes
from ..finding import Finding
from .results import Verification

VERIFY_MAX_CASES = 64  # cases per rewrite (the full covering design has ~300); see docs/cli.md
VERIFY_INSTALL = "pip install 'flake8-torchcopy[verify]'"
_VERDICTS: Dict[Hashable, Verification] = {}  # per process, per run: rewrite -> verdict


def start_run() -> None:
    """Forget the verdicts of an earlier run in this process."""
    _VERDICTS.clear()


def import_verifier() -> None:
    """Import the verifier (and torch) now; ImportError when they are missing."""
    from .. import verify  # noqa: F401


def _verification(rep: Any) -> Verification:
    """What the CLI keeps of a verifier ``Report``."""
    prop = case = None
    if rep.status == "mismatch":
        if rep.mismatches:
            prop, case = rep.mismatches[0].get("property"), rep.mismatches[0].get("case")
        elif rep.mismatch_properties:
            prop = next(iter(rep.mismatch_properties))
    reason = None
    if rep.status == "unverified":
        reason = rep.reason or "no case could be run"
    return Verification(rep.status, prop, case, reason)


def _rewrite_key(vmod: Any, source: str, fixed: str, bindings) -> Optional[Hashable]:
    """What a verdict depends on: the changed expressions and what their names are bound
    to by the module (imports, literal constants).  None when it cannot be isolated."""
    env, consts = bindings
    try:
        pairs = tuple(vmod.changed_expressions(source, fixed))
    except Exception:  # noqa: BLE001 - Unisolable, SyntaxError: verify_fix says why
        return None
    names = set()
    for pair in pairs:
        for text in pair:
            for node in ast.walk(ast.parse(text, mode="eval")):
                if isinstance(node, ast.Name):
                    names.add(node.id)
    context = tuple(sorted(
        (n, consts.get(n), getattr(env[n], "__name__", type(env[n]).__name__) if n in env else None)
        for n in names))
    return pairs, context


def _verify(vmod: Any, source: str, fixed: str) -> Verification:
    try:
        return _verification(vmod.verify_fix(source, fixed, max_cases=VERIFY_MAX_CASES))
    except Exception as exc:  # noqa: BLE001 - a verifier bug must not stop the fixer
        return Verification("unverified", reason=f"verifier error: {type(exc).__name__}: {exc}")


class Vetter:
    """Decides, round by round, which fixes may be applied (``engine.fix_rounds``' ``allow``),
    and keeps the verdict on each finding's fix in ``verdicts``."""

    def __init__(self, unsafe: bool, require_verified: bool) -> None:
        self.unsafe = unsafe
        self.require_verified = require_verified
        self.verdicts: Dict[Finding, Verification] = {}

    def allow(self, source: str, findings: List[Finding]) -> List[Finding]:
        """The findings whose fix may be applied to ``source``: each is verified alone."""
        from .. import verify as vmod

        allowed = []
        bindings = None
        for f in findings:
            if f.fix is None or (not f.fix.safe and not self.unsafe):
                allowed.append(f)  # apply_fixes leaves it alone anyway
                continue
            fixed, _ = apply_fixes(source, [f], unsafe=True)
            if bindings is None:
                try:
                    bindings = vmod.module_env(source)
                except Exception:  # noqa: BLE001
                    bindings = ({}, {})
            key = _rewrite_key(vmod, source, fixed, bindings)
            verdict = _VERDICTS.get(key) if key is not None else None
            if verdict is None:
                verdict = _verify(vmod, source, fixed)
                if key is not None:
                    _VERDICTS[key] = verdict
            self.verdicts[f] = verdict
            if verdict.accepted(self.require_verified):
                allowed.append(f)
        return allowed

    def finish(self, source: str, left: List[Finding]) -> None:
        """Give a verdict on the fixes of the findings left that have none yet."""
        unvetted = [f for f in left if f not in self.verdicts]
        if unvetted:
            self.allow(source, unvetted)
