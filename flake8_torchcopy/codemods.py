"""The fixes as LibCST codemod commands, for LibCST's own runner and pipelines.

    python -m libcst.tool codemod --no-format -x flake8_torchcopy.codemods.TorchCopyCommand src/
    python -m libcst.tool codemod --no-format -x flake8_torchcopy.codemods.TRC103Command src/

:class:`TorchCopyCommand` rewrites a module exactly as ``torchcopy-fix`` does
(same fix rounds through :func:`flake8_torchcopy.engine.fix_rounds`, same
``# noqa`` handling, same bytes); :class:`RuleCommand` limits it to one rule, and
``TRC101Command``… (one per rule with a fix, below) name it for each.  Commands keep no
state but their arguments, so LibCST's parallel runner can pickle them.
"""
from __future__ import annotations

import argparse
from typing import ClassVar, Dict, Optional, Sequence, Tuple, Type

import libcst as cst
from libcst.codemod import CodemodCommand, CodemodContext

from . import libcst_edits
from .cli import noqa
from .cli.config import ConfigError, check_codes
from .engine import Options, fix_rounds, select_rules
from .rules import ALL_RULES, RULES_BY_CODE, Rule


class TorchCopyCommand(CodemodCommand):
    """Apply flake8-torchcopy's fixes (safe ones; unsafe ones with ``--unsafe-fixes``)."""

    DESCRIPTION: str = "Apply flake8-torchcopy's fixes to PyTorch copy and view idioms."
    #: The rules a per-rule command is limited to (empty: all, narrowed by --select/--ignore).
    CODES: ClassVar[Tuple[str, ...]] = ()

    def __init__(self, context: CodemodContext, unsafe_fixes: bool = False,
                 select: Optional[Sequence[str]] = None, ignore: Optional[Sequence[str]] = None,
                 trust_annotations: bool = False, public_helpers: bool = False) -> None:
        super().__init__(context)
        self.unsafe_fixes = unsafe_fixes
        self.select = tuple(self.CODES or select or ())
        self.ignore = tuple(ignore or ())
        self.trust_annotations = trust_annotations
        self.public_helpers = public_helpers

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument("--unsafe-fixes", action="store_true",
                                help="also apply the fixes marked unsafe")
        arg_parser.add_argument("--select", type=_codes, default=None, metavar="CODES",
                                help="comma-separated code prefixes to fix (default: TRC)")
        arg_parser.add_argument("--ignore", type=_codes, default=None, metavar="CODES",
                                help="comma-separated code prefixes not to fix")
        arg_parser.add_argument("--trust-annotations", action="store_true",
                                help="count parameters annotated torch.Tensor as tensors (fixes unsafe)")
        arg_parser.add_argument("--public-helpers", action="store_true",
                                help="a public module-level function is called only from its module "
                                "(fixes resting on it unsafe)")

    def rules(self) -> Tuple[Rule, ...]:
        return select_rules(self.select or None, self.ignore)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        source = tree.code
        libcst_edits.remember(tree, source)  # the fix rounds start from the runner's parse
        new, _, _ = fix_rounds(source, self.unsafe_fixes, rules=self.rules(),
                               options=Options(trust_annotations=self.trust_annotations,
                                               public_helpers=self.public_helpers),
                               path=self.context.filename, keep=noqa.filter_findings)
        if new == source:
            return tree
        return libcst_edits.parse(new).with_changes(encoding=tree.encoding)


def _codes(text: str) -> Tuple[str, ...]:
    """Comma-separated selectors, checked as ``torchcopy-fix`` checks them (a typo is an error)."""
    try:
        return check_codes(text.split(","))
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class RuleCommand(TorchCopyCommand):
    """:class:`TorchCopyCommand` limited to the one rule in ``CODES``; its description is the
    rule's summary.  One subclass per rule with a fix follows (``tools/new_rule.py`` adds one)."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        rule = RULES_BY_CODE[cls.CODES[0]]
        cls.DESCRIPTION = f"Apply flake8-torchcopy's {rule.code} fix: {rule.summary}"


class TRC101Command(RuleCommand):
    """Apply the fix of TRC101 (torch-tensor-copy) only."""

    CODES = ("TRC101",)


class TRC102Command(RuleCommand):
    """Apply the fix of TRC102 (new-tensor-copy) only."""

    CODES = ("TRC102",)


class TRC103Command(RuleCommand):
    """Apply the fix of TRC103 (clone-then-detach) only."""

    CODES = ("TRC103",)


class TRC104Command(RuleCommand):
    """Apply the fix of TRC104 (empty-like-copy) only."""

    CODES = ("TRC104",)


class TRC107Command(RuleCommand):
    """Apply the fix of TRC107 (round-trip-copy) only."""

    CODES = ("TRC107",)


class TRC108Command(RuleCommand):
    """Apply the fix of TRC108 (tensor-of-tensors) only."""

    CODES = ("TRC108",)


class TRC109Command(RuleCommand):
    """Apply the fix of TRC109 (tensor-of-ndarrays) only."""

    CODES = ("TRC109",)


class TRC110Command(RuleCommand):
    """Apply the fix of TRC110 (transfer-then-detach) only."""

    CODES = ("TRC110",)


class TRC111Command(RuleCommand):
    """Apply the fix of TRC111 (leaf-lost-to-transfer) only."""

    CODES = ("TRC111",)


class TRC112Command(RuleCommand):
    """Apply the fix of TRC112 (factory-then-transfer) only."""

    CODES = ("TRC112",)


class TRC201Command(RuleCommand):
    """Apply the fix of TRC201 (view-after-permute) only."""

    CODES = ("TRC201",)


FIXING_RULES: Tuple[Rule, ...] = tuple(r for r in ALL_RULES if any(ex.fixed for ex in r.INVALID))
RULE_COMMANDS: Dict[str, Type[RuleCommand]] = {cls.CODES[0]: cls for cls in RuleCommand.__subclasses__()}

__all__ = ["RULE_COMMANDS", "RuleCommand", "TorchCopyCommand", *(f"{code}Command" for code in RULE_COMMANDS)]
