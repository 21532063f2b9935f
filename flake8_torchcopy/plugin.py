"""The flake8 plugin (entry point ``TRC``): reports findings on the ``ast`` tree flake8 hands over.

Costs a few substring searches on files that mention none of the rules' trigger
words; never imports torch or LibCST.  flake8 applies ``# noqa`` itself.
"""
from __future__ import annotations

import ast
from typing import Any, Generator, List, Tuple, Type

from . import __version__
from .engine import Options, lint_source


class TorchCopyPlugin:
    name = "flake8-torchcopy"
    version = __version__
    options = Options()

    def __init__(self, tree: ast.AST, lines: List[str], filename: str = "") -> None:
        self.tree = tree
        self.lines = lines
        self.filename = filename

    @classmethod
    def add_options(cls, option_manager: Any) -> None:
        option_manager.add_option(
            "--torchcopy-trust-annotations",
            action="store_true",
            default=False,
            parse_from_config=True,
            help="flake8-torchcopy: count parameters annotated torch.Tensor as tensors "
            "(their fixes are then unsafe). Default: off.",
        )

        option_manager.add_option(
            "--torchcopy-public-helpers",
            action="store_true",
            default=False,
            parse_from_config=True,
            help="flake8-torchcopy: a public module-level function is called only from its own "
            "module, so its parameters hold what those calls pass (fixes that rest on it are "
            "unsafe). For applications and scripts, not libraries. Default: off.",
        )

    @classmethod
    def parse_options(cls, options: Any) -> None:
        cls.options = Options(trust_annotations=bool(getattr(options, "torchcopy_trust_annotations", False)),
                              public_helpers=bool(getattr(options, "torchcopy_public_helpers", False)))

    def run(self) -> Generator[Tuple[int, int, str, Type[Any]], None, None]:
        source = "".join(self.lines)
        try:
            findings = lint_source(source, self.filename, options=self.options, tree=self.tree)
        except (SyntaxError, ValueError, RecursionError):
            return
        for f in findings:
            yield f.line, f.col, f"{f.code} {f.message}", type(self)
