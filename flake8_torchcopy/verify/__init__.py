"""Verifier: does a rewrite of a PyTorch expression keep its behaviour?

    verify_expressions(before, after, inputs=None, devices="cpu", bench=False, seed=0, rule=None) -> Report
    verify_fix(old_source, new_source, rule=None) -> Report  (each change as applied, in its enclosing expression)
    prepare_fix(old_source, new_source, rule=None) -> FixCheck  (what verify_fix runs; its key for caching)
    rule_of_fix(old_source, new_source) -> the code of the rule whose fixes give new_source, or None

Free names in the expressions are inputs (tensors unless ``inputs`` says
otherwise); each is run on a covering set of dtypes, ranks, layouts and
autograd states, and every observable property is compared, the global state
after each side included (see :mod:`.compare`, :mod:`.state`); an error of the
original turned into a value is an improvement only when the rewrite's rule exists
to remove it (see :mod:`.rescues`).  torch is imported only inside this package.
"""
from __future__ import annotations

from .expressions import free_names, resolve_devices, verify_expressions
from .fix_check import FixCheck, Unisolable, changed_expressions, module_env, prepare_fix, rule_of_fix, verify_fix
from .outcome import STATUSES, Report

__all__ = ["FixCheck", "Report", "STATUSES", "Unisolable", "changed_expressions", "free_names", "module_env",
           "prepare_fix", "resolve_devices", "rule_of_fix", "verify_expressions", "verify_fix"]
