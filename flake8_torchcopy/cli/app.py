"""``torchcopy-fix``: apply the safe (and with ``--unsafe-fixes`` the unsafe) fixes of
flake8-torchcopy to files, directories, notebooks or stdin, and report what is left.

Run ``torchcopy-fix --help`` for the options, ``torchcopy-fix rule TRC101`` for a rule's
page, and docs/cli.md for the whole story.
Exit status: 0 nothing left to do; 1 files were rewritten, findings are left,
``--diff`` has a diff, or a path does not exist (reported as ``E902``); 2 a usage or
configuration error, or a file that could not be read, parsed or written (such a
file is left as it was).
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Sequence, Tuple

from . import config, discovery, report, rulepage, vetting
from .config import ConfigError, Resolver
from .fixer import process_stdin
from .results import FileResult, Record
from .runner import run_files
from .settings import PROG, Settings


def _code_list(value: str) -> Tuple[str, ...]:
    try:
        return config.check_codes(value.split(","))
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _glob_list(value: str) -> Tuple[str, ...]:
    return tuple(g.strip() for g in value.split(",") if g.strip())


def _per_file_ignores(value: str) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
    """flake8's ``--per-file-ignores`` syntax: ``GLOB:CODES`` entries separated by spaces or
    commas, ``CODES`` comma separated (``'tests/*:TRC101,TRC103 docs/*.py:TRC1'``)."""
    pairs: List[Tuple[str, List[str]]] = []
    for token in value.replace(",", " ").split():
        if ":" in token:
            glob, _, code = token.rpartition(":")
            if not glob:
                raise argparse.ArgumentTypeError(f"no file pattern before {token!r}")
            pairs.append((glob, [code] if code else []))
        elif pairs:
            pairs[-1][1].append(token)
        else:
            raise argparse.ArgumentTypeError(f"expected GLOB:CODES, got {token!r}")
    out = []
    for glob, codes in pairs:
        if not codes:
            raise argparse.ArgumentTypeError(f"no codes for {glob!r} (expected GLOB:CODES)")
        try:
            out.append((glob, config.check_codes(codes)))
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return tuple(out)


def _jobs(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid number of jobs: {value!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError("the number of jobs must be 0 (auto) or more")
    return n


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    p = _Parser(
        prog=PROG,
        description="Fix PyTorch copy/view idioms found by flake8-torchcopy (TRC codes).",
        epilog="Subcommand: 'torchcopy-fix rule TRC101' (or --explain TRC101) prints a rule's page; "
        "'torchcopy-fix rule --all' lists the rules. "
        "Exit status: 0 nothing left to do, 1 files rewritten or findings left "
        "(or --diff has a diff, or a path does not exist: E902), 2 usage/config error or a file "
        "that could not be read, parsed or written.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="files or directories (default: the current directory); '-' reads stdin")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--diff", action="store_true", help="write nothing, print a unified diff of the fixes")
    mode.add_argument("--check", action="store_true", help="write nothing, report the findings")
    mode.add_argument("--fix", action="store_true",
                      help="apply the fixes and write the files (the default; the explicit form)")
    mode.add_argument("--add-noqa", action="store_true",
                      help="add '# noqa: CODE' to each line with a finding instead of fixing it")
    mode.add_argument("--explain", metavar="CODE", help="print the page of rule CODE (as 'rule CODE')")
    p.add_argument("--unsafe-fixes", action=argparse.BooleanOptionalAction, default=None,
                   help="also apply the fixes that may change behaviour")
    p.add_argument("--select", type=_code_list, metavar="CODES", help="comma separated code prefixes to check")
    p.add_argument("--ignore", type=_code_list, metavar="CODES", help="comma separated code prefixes to skip")
    p.add_argument("--extend-select", type=_code_list, metavar="CODES", help="code prefixes to add to the selection")
    p.add_argument("--extend-ignore", type=_code_list, metavar="CODES",
                   help="code prefixes to skip, on top of --ignore and the configured ones")
    p.add_argument("--per-file-ignores", type=_per_file_ignores, action="append", metavar="GLOB:CODES",
                   help="'tests/*:TRC101,TRC103 other/*.py:TRC1' (globs relative to the current "
                   "directory; replaces the configured per-file-ignores; repeatable)")
    p.add_argument("--extend-per-file-ignores", type=_per_file_ignores, action="append",
                   metavar="GLOB:CODES", help="like --per-file-ignores, on top of the configured ones")
    p.add_argument("--exclude", type=_glob_list, metavar="GLOBS",
                   help="comma separated globs of files/directories to skip (replaces the configured ones)")
    p.add_argument("--extend-exclude", type=_glob_list, metavar="GLOBS",
                   help="comma separated globs to skip, on top of the configured excludes")
    p.add_argument("--force-exclude", action="store_true",
                   help="apply the excludes to files named on the command line too (for pre-commit)")
    p.add_argument("--respect-gitignore", action=argparse.BooleanOptionalAction, default=None,
                   help="skip the files git ignores in directory walks (default: on)")
    p.add_argument("-j", "--jobs", type=_jobs, default=0, metavar="N",
                   help="number of processes (default: the CPU count)")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when files changed or findings are left")
    p.add_argument("--exit-non-zero-on-fix", action="store_true",
                   help="exit 1 when a file was rewritten, even with no finding left (already the "
                   "default of torchcopy-fix; accepted for ruff users)")
    p.add_argument("--config", metavar="PATH|KEY=VALUE", action="append",
                   help="a pyproject.toml whose [tool.torchcopy] is used for every file (no discovery), "
                   "or a TOML 'KEY = VALUE' of [tool.torchcopy] over every file's configuration "
                   "(--config 'unsafe-fixes = true'); repeatable")
    p.add_argument("--isolated", action="store_true", help="ignore all configuration files")
    p.add_argument("--stdin-filename", metavar="NAME", help="the name of the file read from stdin ('-')")
    p.add_argument("--output-format", choices=report.OUTPUT_FORMATS, default="text",
                   help="how findings are printed")
    p.add_argument("-o", "--output-file", metavar="FILE", help="write the findings to FILE, not stdout")
    p.add_argument("--statistics", action="store_true",
                   help="print the number of findings per rule instead of the findings")
    p.add_argument("--show-fixes", action="store_true", help="list the fixes that were applied")
    p.add_argument("-q", "--quiet", action="store_true", help="print findings and errors only")
    p.add_argument("-s", "--silent", action="store_true",
                   help="print nothing, not even findings (the exit status still tells)")
    p.add_argument("--trust-annotations", action=argparse.BooleanOptionalAction, default=None,
                   help="believe `x: torch.Tensor` annotations when deciding what is a tensor")
    p.add_argument("--public-helpers", action=argparse.BooleanOptionalAction, default=None,
                   help="a public module-level function is called only from its own module "
                   "(applications, not libraries): its parameters hold what those calls pass")
    p.add_argument("--verify", action="store_true",
                   help="verify each fix on synthesized inputs before applying it; fixes that "
                   "change behaviour are not applied (needs torch; slow)")
    p.add_argument("--require-verified", action="store_true",
                   help="with --verify: do not apply fixes that could not be verified either")
    p.add_argument("--verify-max-cases", type=int, default=None, metavar="N",
                   help="with --verify: verify each fix on a seeded sample of N input cases "
                   "(default: the verifier's full matrix, about 500 per tensor input)")
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    return p


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        """A usage error: one line, exit status 2 (argparse adds the whole usage)."""
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _err(msg: str) -> None:
    sys.stderr.write(msg + "\n")


def _safe_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            pass


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The console script.  Returns the exit status."""
    _safe_streams()
    try:
        return _main(argv)
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")  # no second error on interpreter exit
        except OSError:
            pass
        return 1


def _main(argv: Optional[Sequence[str]]) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["rule"]:
        return rulepage.main(argv[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # usage error (2), --help / --version (0)
        return int(exc.code) if isinstance(exc.code, int) else 2
    if args.explain is not None:
        return rulepage.main([args.explain])
    for name in ("per_file_ignores", "extend_per_file_ignores"):
        value = getattr(args, name)
        if value is not None:
            setattr(args, name, tuple(pair for group in value for pair in group))

    paths = list(args.paths) or (["-"] if args.stdin_filename else ["."])  # ruff lints "." too
    use_stdin = "-" in paths
    if use_stdin and len(paths) > 1:
        _err(f"{PROG}: error: '-' (stdin) cannot be combined with other paths")
        return 2
    if use_stdin and args.add_noqa:
        _err(f"{PROG}: error: --add-noqa edits files; it cannot read stdin ('-')")
        return 2

    # configuration: for each file the nearest pyproject.toml with [tool.torchcopy] (ruff's
    # hierarchical configuration), or --config's, or none (--isolated); the settings of the
    # run as a whole (output, mode) come from the current directory's (stdin: the file name's)
    try:
        resolver = Resolver.for_run(args.config, args.isolated)
        start = (args.stdin_filename or ".") if use_stdin else "."
        settings = Settings.from_run(args, resolver.config_for(start, is_dir=os.path.isdir(start)))
    except ConfigError as exc:
        _err(f"{PROG}: config error: {exc}")
        return 2
    if settings.require_verified and not settings.verify:
        _err(f"{PROG}: error: --require-verified needs --verify")
        return 2
    if settings.verify_max_cases is not None and (not settings.verify or settings.verify_max_cases < 1):
        _err(f"{PROG}: error: --verify-max-cases needs --verify and a number of at least 1")
        return 2
    vetting.start_run()
    if settings.verify:
        try:
            vetting.import_verifier()
        except ImportError as exc:
            _err(f"{PROG}: error: --verify needs torch ({exc}); {vetting.VERIFY_INSTALL}")
            return 2

    errors: List[Tuple[str, str]] = []
    by_config = {}

    def settings_for(path: str, is_dir: bool = False) -> Settings:
        cfg = resolver.config_for(path, is_dir)
        if cfg.path == settings.config_path:
            return settings
        if cfg.path not in by_config:
            by_config[cfg.path] = Settings.from_run(args, cfg)
        return by_config[cfg.path]

    def exclude(path: str) -> bool:
        # a path is excluded by the configuration of the directory holding it
        return settings_for(os.path.dirname(os.path.abspath(path)), is_dir=True).excluded(path)

    try:
        if use_stdin:
            name, data = args.stdin_filename or "-", sys.stdin.buffer.read()
            if args.stdin_filename and settings.force_exclude and discovery.force_excluded(name, exclude):
                results = [FileResult(name, output=data)]  # passed through, as ruff does
            else:
                results = [process_stdin(data, name, settings)]
        else:
            found, errors = discovery.collect(paths, exclude, settings.respect_gitignore,
                                              settings.force_exclude)
            results = run_files(found, settings, [settings_for(path) for path, _ in found])
    except ConfigError as exc:
        _err(f"{PROG}: config error: {exc}")
        return 2
    if not use_stdin and not results and not errors:
        if not settings.silent:  # as ruff: a warning, exit 0
            _err("warning: No Python files found under the given path(s)")
        return 0
    return _report(results, errors, settings, use_stdin)


def _missing(path: str, reason: str) -> FileResult:
    """A path that does not exist, as ruff reports it: an ``E902`` finding at 1:1."""
    return FileResult(path, records=[Record("E902", f"{reason} (os error 2)", 1, 0, 1, 0, None, "")])


def _report(results: List[FileResult], errors: List[Tuple[str, str]], settings: Settings,
            use_stdin: bool) -> int:
    """Print what the run found (stderr: errors, progress notes, summary) and return the exit status."""
    # when stdout carries code (the fixed stdin, or a diff: ruff prints nothing else with
    # --diff), the findings go to stderr so that stdout stays a file or a patch
    fixing_stdin = use_stdin and settings.mode == "fix"
    report_stream = sys.stderr if fixing_stdin or settings.mode == "diff" else sys.stdout
    missing = [_missing(path, reason) for path, reason in errors if reason == discovery.MISSING]
    n_errors = len(errors) - len(missing)
    for path, reason in errors:
        if reason != discovery.MISSING:
            _err(f"{path}: {reason}")
    for res in results:
        for w in res.warnings:
            if not settings.silent:
                _err(f"{res.path}: {w}")
        if res.error:
            n_errors += 1
            _err(f"{res.path}: {res.error}")
        elif res.changed and settings.mode == "fix" and not use_stdin and not settings.quiet:
            _err(f"Rewriting {res.path}")
    results = missing + results

    if fixing_stdin and results[-1].output is not None:
        sys.stdout.flush()
        sys.stdout.buffer.write(results[-1].output)
        sys.stdout.buffer.flush()
    if settings.mode == "diff":
        for res in results:
            if res.diff:
                sys.stdout.write(res.diff)

    if settings.statistics:
        text = report.statistics(results, settings)
    else:
        text = report.format_findings(results, settings)
    if settings.output_file:
        try:
            with open(settings.output_file, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        except OSError as exc:
            _err(f"{PROG}: error: cannot write {settings.output_file}: {exc.strerror or exc}")
            return 2
    elif text and not settings.silent:
        report_stream.write(text)
    report_stream.flush()
    for line in report.applied_fixes(results, settings) if settings.show_fixes and not settings.silent else ():
        _err(line)
    if not settings.quiet:
        _err(report.summary(results, settings, n_errors))

    if n_errors:
        return 2
    if settings.exit_zero or settings.mode == "add-noqa":
        return 0
    if settings.mode == "fix" and any(r.changed for r in results):
        return 1
    if settings.mode == "diff" and any(r.diff for r in results):
        return 1
    return 1 if any(r.records for r in results) else 0
