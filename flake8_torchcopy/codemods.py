"""The fixes as LibCST codemod commands, for LibCST's own runner and pipelines.

    python -m libcst.tool codemod --no-format -x flake8_torchcopy.codemods.TorchCopyCommand src/
    python -m libcst.tool codemod --no-format -x flake8_torchcopy.codemods.TRC103Command src/

:class:`TorchCopyCommand` rewrites a module exactly as ``torchcopy-fix`` does
(same fix rounds through :func:`flake8_torchcopy.engine.fix_rounds`, same
``# noqa`` handling, same bytes); one subclass per rule with a fix
(``TRC101Command``…) is generated from the rule registry.  Commands keep no
state but their arguments, so LibCST's parallel runner can pickle them.
"""
from __future__ import annotations

import argparse
from typing import ClassVar, Optional, Sequence, Tuple

import libcst as cst
from libcst.codemod import CodemodCommand, CodemodContext

from . import rewrite
from .cli import noqa
from .cli.config import ConfigError, check_codes
from .engine import Options, fix_rounds, select_rules
from .rules import ALL_RULES, Rule


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
        rewrite.remember(tree, source)  # the fix rounds start from the runner's parse
        new, _, _ = fix_rounds(source, self.unsafe_fixes, rules=self.rules(),
                               options=Options(trust_annotations=self.trust_annotations,
                                               public_helpers=self.public_helpers),
                               path=self.context.filename, keep=noqa.filter_findings)
        if new == source:
            return tree
        return rewrite.parse(new).with_changes(encoding=tree.encoding)


def _codes(text: str) -> Tuple[str, ...]:
    """Comma-separated selectors, checked as ``torchcopy-fix`` checks them (a typo is an error)."""
    try:
        return check_codes(text.split(","))
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _rule_command(rule: Rule) -> type:
    """``TRC103Command``: :class:`TorchCopyCommand` limited to one rule."""
    name = f"{rule.code}Command"
    return type(name, (TorchCopyCommand,), {
        "__module__": __name__,
        "__qualname__": name,
        "__doc__": f"Apply the fix of {rule.code} ({rule.name}) only.",
        "DESCRIPTION": f"Apply flake8-torchcopy's {rule.code} fix: {rule.summary}",
        "CODES": (rule.code,),
    })


FIXING_RULES: Tuple[Rule, ...] = tuple(r for r in ALL_RULES if any(ex.fixed for ex in r.INVALID))
RULE_COMMANDS = {r.code: _rule_command(r) for r in FIXING_RULES}
globals().update({cls.__name__: cls for cls in RULE_COMMANDS.values()})

__all__ = ["TorchCopyCommand", "RULE_COMMANDS", *(cls.__name__ for cls in RULE_COMMANDS.values())]
