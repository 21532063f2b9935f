"""``torchcopy-fix``: apply the safe (and with ``--unsafe-fixes`` the unsafe) fixes of
flake8-torchcopy to files, directories, notebooks or stdin, and report what is left.

Run ``torchcopy-fix --help`` for the options and docs/cli.md for the whole story.
Exit status: 0 nothing left to do; 1 files were rewritten, findings are left or
``--diff`` has a diff; 2 a usage or configuration error, or a file that could
not be read, parsed or written (such a file is left as it was).
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Sequence, Tuple

from . import config, discovery, report, vetting
from .config import ConfigError
from .fixer import process_stdin
from .results import FileResult
from .runner import run_files
from .settings import PROG, Settings


def _code_list(value: str) -> Tuple[str, ...]:
    try:
        return config.check_codes(value.split(","))
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _glob_list(value: str) -> Tuple[str, ...]:
    return tuple(g.strip() for g in value.split(",") if g.strip())


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

    p = argparse.ArgumentParser(
        prog=PROG,
        description="Fix PyTorch copy/view idioms found by flake8-torchcopy (TRC codes).",
        epilog="Exit status: 0 nothing left to do, 1 files rewritten or findings left "
        "(or --diff has a diff), 2 usage/config error or a file that could not be read, parsed "
        "or written.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="files or directories (default: the current directory); '-' reads stdin")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--diff", action="store_true", help="write nothing, print a unified diff of the fixes")
    mode.add_argument("--check", action="store_true", help="write nothing, report the findings")
    p.add_argument("--unsafe-fixes", action=argparse.BooleanOptionalAction, default=None,
                   help="also apply the fixes that may change behaviour")
    p.add_argument("--select", type=_code_list, metavar="CODES", help="comma separated code prefixes to check")
    p.add_argument("--ignore", type=_code_list, metavar="CODES", help="comma separated code prefixes to skip")
    p.add_argument("--extend-select", type=_code_list, metavar="CODES", help="code prefixes to add to the selection")
    p.add_argument("--exclude", type=_glob_list, metavar="GLOBS",
                   help="comma separated globs of files/directories to skip (replaces the configured ones)")
    p.add_argument("--force-exclude", action="store_true",
                   help="apply the excludes to files named on the command line too (for pre-commit)")
    p.add_argument("--respect-gitignore", action=argparse.BooleanOptionalAction, default=None,
                   help="skip the files git ignores in directory walks (default: on)")
    p.add_argument("-j", "--jobs", type=_jobs, default=0, metavar="N",
                   help="number of processes (default: the CPU count)")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when files changed or findings are left")
    p.add_argument("--stdin-filename", metavar="NAME", help="the name of the file read from stdin ('-')")
    p.add_argument("--output-format", choices=report.OUTPUT_FORMATS, default="text",
                   help="how findings are printed")
    p.add_argument("--show-fixes", action="store_true", help="list the fixes that were applied")
    p.add_argument("-q", "--quiet", action="store_true", help="print findings and errors only")
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
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # usage error (2), --help / --version (0)
        return int(exc.code) if isinstance(exc.code, int) else 2

    paths = list(args.paths) or (["-"] if args.stdin_filename else ["."])  # ruff lints "." too
    use_stdin = "-" in paths
    if use_stdin and len(paths) > 1:
        _err(f"{PROG}: error: '-' (stdin) cannot be combined with other paths")
        return 2

    # configuration: nearest pyproject.toml with [tool.torchcopy]
    start = (args.stdin_filename or ".") if use_stdin else paths[0]
    try:
        cfg = config.discover_config(start)
    except ConfigError as exc:
        _err(f"{PROG}: config error: {exc}")
        return 2
    settings = Settings.from_run(args, cfg)
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
    exclude = settings.excluded if settings.exclude else None
    if use_stdin:
        name, data = args.stdin_filename or "-", sys.stdin.buffer.read()
        if args.stdin_filename and settings.force_exclude and discovery.force_excluded(name, exclude):
            results = [FileResult(name, output=data)]  # passed through, as ruff does
        else:
            results = [process_stdin(data, name, settings)]
    else:
        found, errors = discovery.collect(paths, exclude, settings.respect_gitignore, settings.force_exclude)
        results = run_files(found, settings)
    return _report(results, errors, settings, use_stdin)


def _report(results: List[FileResult], errors: List[Tuple[str, str]], settings: Settings,
            use_stdin: bool) -> int:
    """Print what the run found (stderr: errors, progress notes, summary) and return the exit status."""
    # when stdout carries code (the fixed stdin, or a diff: ruff prints nothing else with
    # --diff), the findings go to stderr so that stdout stays a file or a patch
    fixing_stdin = use_stdin and settings.mode == "fix"
    report_stream = sys.stderr if fixing_stdin or settings.mode == "diff" else sys.stdout
    n_errors = len(errors)
    for path, reason in errors:
        _err(f"{path}: {reason}")
    for res in results:
        for w in res.warnings:
            _err(f"{res.path}: {w}")
        if res.error:
            n_errors += 1
            _err(f"{res.path}: {res.error}")
        elif res.changed and settings.mode == "fix" and not use_stdin and not settings.quiet:
            _err(f"Rewriting {res.path}")

    if fixing_stdin and results[0].output is not None:
        sys.stdout.flush()
        sys.stdout.buffer.write(results[0].output)
        sys.stdout.buffer.flush()
    if settings.mode == "diff":
        for res in results:
            if res.diff:
                sys.stdout.write(res.diff)

    text = report.format_findings(results, settings)
    if text:
        report_stream.write(text)
    report_stream.flush()
    for line in report.applied_fixes(results, settings) if settings.show_fixes else ():
        _err(line)
    if not settings.quiet:
        _err(report.summary(results, settings, n_errors))

    if n_errors:
        return 2
    if settings.exit_zero:
        return 0
    if settings.mode == "fix" and any(r.changed for r in results):
        return 1
    if settings.mode == "diff" and any(r.diff for r in results):
        return 1
    return 1 if any(r.records for r in results) else 0
