"""Verifier: does a rewrite of a PyTorch expression keep its behaviour?

    verify_expressions(before, after, inputs=None, devices="cpu", bench=False, seed=0) -> Report
    verify_fix(old_source, new_source) -> Report  (each change as applied, in its enclosing expression)

Free names in the expressions are inputs (tensors unless ``inputs`` says
otherwise); each is run on a covering set of dtypes, ranks, layouts and
autograd states, and every observable property is compared (see
:mod:`.compare`).  torch is imported only inside this package.
"""
from __future__ import annotations

from .expressions import free_names, resolve_devices, verify_expressions
from .report import STATUSES, Report
from .rewrite import Unisolable, changed_expressions, module_env, verify_fix

__all__ = ["Report", "STATUSES", "Unisolable", "changed_expressions", "free_names", "module_env",
           "resolve_devices", "verify_expressions", "verify_fix"]
