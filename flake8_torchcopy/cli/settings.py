"""The settings of one ``torchcopy-fix`` run: one object, built once from the command line
layered over ``[tool.torchcopy]``, and handed as it is to every worker process (it is
picklable: rules travel as codes)."""
from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from typing import Optional, Tuple

from ..engine import Options, prefix_len, select_rules
from ..rules import ALL_RULES, RULES_BY_CODE, Rule
from .config import Config, glob_matches, ignored_codes_for

PROG = "torchcopy-fix"


def layered_rules(cfg: Config, args: argparse.Namespace) -> Tuple[Rule, ...]:
    """Rule selection in two layers, as ruff does: the config file's, then the command line's.

    ``--select`` on the command line starts afresh (the file's select, ignore and
    extend-select no longer apply); otherwise ``--extend-select`` and ``--ignore`` are
    applied on top of the file's selection, the longer prefix winning between them.
    """
    ignore = tuple(args.ignore or ()) + tuple(getattr(args, "extend_ignore", None) or ())
    if args.select is not None:
        return select_rules(args.select, ignore, args.extend_select)
    chosen = {r.code for r in select_rules(cfg.select, cfg.ignore, cfg.extend_select)}
    for rule in ALL_RULES:
        add, drop = prefix_len(rule.code, args.extend_select), prefix_len(rule.code, ignore)
        if add > drop:
            chosen.add(rule.code)
        elif drop > add:
            chosen.discard(rule.code)
    return tuple(r for r in ALL_RULES if r.code in chosen)


@dataclass(frozen=True)
class Settings:
    """Everything a run decides once: what to do, to which rules, how to report it."""

    mode: str = "fix"  # "fix", "check", "diff" or "add-noqa"
    unsafe: bool = False
    rule_codes: Tuple[str, ...] = tuple(r.code for r in ALL_RULES)
    trust_annotations: bool = False
    public_helpers: bool = False
    per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    root: str = "."  # the directory config globs are relative to
    #: --per-file-ignores / --extend-per-file-ignores: globs relative to the current directory
    cli_per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    cwd: str = "."
    config_path: Optional[str] = None  # the config file these settings came from
    exclude: Tuple[str, ...] = ()
    force_exclude: bool = False
    respect_gitignore: bool = True
    verify: bool = False  # verify each fix on synthesized inputs before applying it (imports torch)
    require_verified: bool = False  # with verify: do not apply fixes that could not be verified
    verify_max_cases: Optional[int] = None  # with verify: a sample of the input matrix (None: all)
    output_format: str = "text"
    output_file: Optional[str] = None
    show_fixes: bool = False
    quiet: bool = False
    silent: bool = False
    statistics: bool = False
    exit_zero: bool = False
    exit_non_zero_on_fix: bool = False
    jobs: int = 1

    @classmethod
    def from_run(cls, args: argparse.Namespace, cfg: Config) -> "Settings":
        """The command line's choices over the configuration file's."""
        def pick(flag, configured):
            return flag if flag is not None else bool(configured)

        return cls(
            mode="diff" if args.diff else "check" if args.check else
            "add-noqa" if getattr(args, "add_noqa", False) else "fix",
            unsafe=pick(args.unsafe_fixes, cfg.unsafe_fixes),
            rule_codes=tuple(r.code for r in layered_rules(cfg, args)),
            trust_annotations=pick(args.trust_annotations, cfg.trust_annotations),
            public_helpers=pick(args.public_helpers, cfg.public_helpers),
            per_file_ignores=() if getattr(args, "per_file_ignores", None) is not None
            else tuple(cfg.per_file_ignores.items()),
            root=cfg.root,
            cli_per_file_ignores=(tuple(getattr(args, "per_file_ignores", None) or ())
                                  or tuple(cfg.cwd_per_file_ignores.items()))
            + tuple(getattr(args, "extend_per_file_ignores", None) or ()),
            cwd=os.getcwd(),
            config_path=cfg.path,
            exclude=(args.exclude if args.exclude is not None else (cfg.exclude or ()))
            + tuple(getattr(args, "extend_exclude", None) or ()),
            force_exclude=args.force_exclude,
            respect_gitignore=args.respect_gitignore if args.respect_gitignore is not None
            else cfg.respect_gitignore is not False,
            verify=args.verify,
            require_verified=args.require_verified,
            verify_max_cases=args.verify_max_cases,
            output_format=args.output_format,
            output_file=getattr(args, "output_file", None),
            show_fixes=args.show_fixes,
            quiet=args.quiet or bool(getattr(args, "silent", False)),
            silent=bool(getattr(args, "silent", False)),
            statistics=bool(getattr(args, "statistics", False)),
            exit_zero=args.exit_zero,
            exit_non_zero_on_fix=bool(getattr(args, "exit_non_zero_on_fix", False)),
            jobs=args.jobs or os.cpu_count() or 1,
        )

    @property
    def options(self) -> Options:
        """The analysis options, as the engine takes them."""
        return Options(trust_annotations=self.trust_annotations, public_helpers=self.public_helpers)

    def rules_for(self, path: str) -> Tuple[Rule, ...]:
        """The selected rules less those per-file-ignores switches off for ``path``."""
        ignored = ignored_codes_for(path, dict(self.per_file_ignores), self.root) + \
            ignored_codes_for(path, dict(self.cli_per_file_ignores), self.cwd)
        return tuple(RULES_BY_CODE[code] for code in self.rule_codes
                     if not any(code.startswith(p) for p in ignored))

    def excluded(self, path: str) -> bool:
        """Does an exclude glob match ``path`` (relative to the config's directory or the cwd)?"""
        return glob_matches(path, self.exclude, self.root) or glob_matches(path, self.exclude, os.getcwd())
