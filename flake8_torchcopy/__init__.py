"""flake8-torchcopy: find and fix slow, misleading and crashing PyTorch copy and view idioms.

The linter never imports torch (nor LibCST, which applies fixes).  Public API::

    lint_source(source, path=None) -> list[Finding]
    fix_source(source, unsafe=False) -> str
"""
from .engine import Options, apply_fixes, fix_source, lint_source, select_rules
from .finding import Edit, Finding, Fix, FixRefused

__version__ = "0.1.0"

__all__ = [
    "Edit",
    "Finding",
    "Fix",
    "FixRefused",
    "Options",
    "apply_fixes",
    "fix_source",
    "lint_source",
    "select_rules",
    "__version__",
]
