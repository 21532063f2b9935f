"""``torchcopy-fix --verify``: each fix is verified alone, as applied (the enclosing
expression before and after, names bound as the analysis knows them: see
``flake8_torchcopy.verify.prepare_fix``), on the verifier's full matrix of inputs unless
``--verify-max-cases`` samples it, before it is applied; a fix that changes behaviour
(or, with ``--require-verified``, one that could not be verified) is not applied.
Imports torch, through the verifier, when used.

Verdicts are cached per process for a run: the same rewrite in the same context (what
its names are bound to) is verified once.
"""
from __future__ import annotations

from typing import Any, Dict, Hashable, List, Optional

from ..engine import apply_fixes
from ..finding import Finding
from .results import Verification

VERIFY_INSTALL = ("install torch first, the CPU build unless you need CUDA (pip install torch "
                  "--index-url https://download.pytorch.org/whl/cpu), then pip install "
                  "'flake8-torchcopy[verify]' (before the first release: "
                  "'flake8-torchcopy[verify] @ git+https://github.com/flake8-torchcopy/flake8-torchcopy')")
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


def _run_verifier(vmod: Any, source: str, fixed: str, max_cases: Optional[int]) -> Verification:
    """The verdict on one rewrite as applied, from the cache when the same rewrite with the
    same bindings was verified before in this run."""
    try:
        check = vmod.prepare_fix(source, fixed)
        key = check.key
        if key is not None and key in _VERDICTS:
            return _VERDICTS[key]
        verdict = _verification(vmod.verify_fix(source, fixed, max_cases=max_cases, check=check))
    except Exception as exc:  # noqa: BLE001 - a verifier bug must not stop the fixer
        return Verification("unverified", reason=f"verifier error: {type(exc).__name__}: {exc}")
    if key is not None:
        _VERDICTS[key] = verdict
    return verdict


class Vetter:
    """Decides, round by round, which fixes may be applied (``engine.fix_rounds``' ``allow``),
    and keeps the verdict on each finding's fix in ``verdicts``."""

    def __init__(self, unsafe: bool, require_verified: bool, max_cases: Optional[int] = None) -> None:
        self.unsafe = unsafe
        self.require_verified = require_verified
        self.max_cases = max_cases  # None: the verifier's full matrix
        self.verdicts: Dict[Finding, Verification] = {}

    def allow(self, source: str, findings: List[Finding]) -> List[Finding]:
        """The findings whose fix may be applied to ``source``: each is verified alone."""
        from .. import verify as vmod

        allowed = []
        for f in findings:
            if f.fix is None or (not f.fix.safe and not self.unsafe):
                allowed.append(f)  # apply_fixes leaves it alone anyway
                continue
            fixed, _ = apply_fixes(source, [f], unsafe=True)
            verdict = _run_verifier(vmod, source, fixed, self.max_cases)
            self.verdicts[f] = verdict
            if verdict.accepted(self.require_verified):
                allowed.append(f)
        return allowed

    def finish(self, source: str, left: List[Finding]) -> None:
        """Give a verdict on the fixes of the findings left that have none yet."""
        unvetted = [f for f in left if f not in self.verdicts]
        if unvetted:
            self.allow(source, unvetted)
