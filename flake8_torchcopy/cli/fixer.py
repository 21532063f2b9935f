"""One file through ``torchcopy-fix``: read it, lint it, fix it through ``engine.fix_rounds``
(with ``--verify``, vetting each fix first), check the result compiles, and (in fix
mode) write it back.  Nothing here prints; a :class:`~.results.FileResult` says it all.
"""
from __future__ import annotations

import dataclasses
import difflib
import warnings
from contextlib import contextmanager
from typing import Dict, Iterator, List, Optional, Tuple

from ..engine import TooDeep, fewer_collections, fix_rounds, lint_source
from ..finding import Finding, FixRefused
from ..source import compile_python, split_after_lf
from . import files, noqa
from .files import BadInput
from .results import (AppliedFix, EditRecord, FileResult, FixRecord, Record, UnverifiedFix,
                      Verification)
from .settings import Settings
from .sourcefile import Positions, SourceFile, read_source
from .vetting import Vetter

INVALID_FIX = "internal error: fix produced invalid code (please report)"


@contextmanager
def _quiet_compiler() -> Iterator[None]:
    """Hide what Python's compiler says of the user's code (``"\\d"``, an invalid escape
    sequence: a DeprecationWarning before 3.12, a SyntaxWarning since) each time a fix round
    parses the fixed text again: the tool's output is its findings.  Warnings of anything
    else (the verifier's runs) are left as they are."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.filterwarnings("ignore", "invalid escape sequence", DeprecationWarning)
        yield


def compile_error(text: str, name: str) -> Optional[str]:
    """None when ``text`` compiles, else the reason."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile_python(text, name)
    except SyntaxError as exc:
        where = f" (line {exc.lineno})" if exc.lineno else ""
        return f"{type(exc).__name__}: {exc.msg}{where}"
    except (ValueError, TypeError, RecursionError, MemoryError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def unified_diff(path: str, old: str, new: str) -> str:
    lines = []
    for line in difflib.unified_diff(split_after_lf(old), split_after_lf(new), fromfile=path, tofile=path):
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        lines.append(line)
    return "".join(lines)


def record(f: Finding, pos: Positions, verification: Optional[Verification]) -> Record:
    """A finding left, positioned in the file for output."""
    cell, row = pos.row(f.line)
    _, end_row = pos.row(f.end_line)
    fix = None
    if f.fix is not None:
        edits = [EditRecord(e.content, *pos.point(e.start), *pos.point(e.end)) for e in f.fix.edits]
        fix = FixRecord(f.fix.applicability, f.fix.message, edits)
    return Record(f.code, f.message, row, f.col, end_row, f.end_col, cell, f.url, fix, verification,
                  pos.file_span(f.line, f.col, f.end_line, f.end_col))


def _lint_and_fix(src: SourceFile, rules, settings: Settings,
                  vetter: Optional[Vetter]) -> Tuple[str, List[Finding], List[Finding]]:
    """(new text, applied findings, findings left) of ``src`` in the settings' mode."""
    try:
        with _quiet_compiler():
            if settings.mode in ("check", "add-noqa"):
                found = lint_source(src.text, src.path, rules=rules, options=settings.options, tree=src.tree)
                applied: List[Finding] = []
                new, left = src.text, noqa.filter_findings(src.text, found)
            else:
                new, applied, left = fix_rounds(
                    src.text, settings.unsafe, rules=rules, options=settings.options, path=src.path,
                    tree=src.tree, keep=noqa.filter_findings, allow=vetter.allow if vetter else None)
    except FixRefused as exc:
        raise BadInput(str(exc)) from None
    except (SyntaxError, ValueError):
        if src.tree is None:
            raise
        raise BadInput(INVALID_FIX) from None  # the source parsed: a fix broke it
    except RecursionError as exc:  # Python compiles it, but it is nested too deeply for us
        verb = "check" if settings.mode == "check" else "fix"
        raise BadInput(f"cannot {verb}: {exc}" if isinstance(exc, TooDeep) else
                       f"cannot {verb}: the code is nested too deeply") from None
    if vetter is not None:
        vetter.finish(new, left)
    return new, applied, left


def process_data(data: bytes, path: str, settings: Settings, explicit: bool = True) -> FileResult:
    """Lint/fix one file's bytes.  Writes nothing; ``result.output`` holds the new bytes
    (the same bytes when nothing changed)."""
    result = FileResult(path, output=data)
    src = read_source(data, path, explicit)
    if src is None:
        return result
    result.warnings.extend(src.warnings)
    rules = settings.rules_for(path)
    if noqa.file_is_skipped(src.text) or not rules or not src.text:
        return result

    vetter = None
    if settings.verify:
        vetter = Vetter(settings.unsafe, settings.require_verified, settings.verify_max_cases)
    new, applied, left = _lint_and_fix(src, rules, settings, vetter)
    if settings.mode == "add-noqa" and left:
        new, silenced = noqa.add_noqa(src.text, left)
        result.added_noqa = len({f.line for f in silenced})
        left = [f for f in left if f not in silenced]
    fixed_src = src
    verdicts: Dict[Finding, Verification] = vetter.verdicts if vetter else {}
    if new != src.text:
        new = files.keep_newlines(src.text, new)
        broken = compile_error(new, path)
        if broken is not None:
            broken_before = compile_error(src.text, path)
            if broken_before:
                raise BadInput(f"cannot compile: {broken_before}")
            if broken.startswith("RecursionError"):
                raise BadInput("cannot fix: the fixed code would be nested too deeply for Python to compile")
            raise BadInput(INVALID_FIX)
        document = src.render(new)
        result.output = src.encode(document)
        fixed_src = src.fixed(document)
        result.changed = result.output != data
        if result.changed and settings.mode == "diff":
            result.diff = unified_diff(path, src.document, document)

    before = src.positions(src.text)
    result.fixed = len(applied)
    for f in applied:
        cell, row = before.row(f.line)
        if settings.show_fixes:
            result.applied.append(AppliedFix(f.code, f.message, row, f.col, cell,
                                             f.fix.message if f.fix else ""))
        verdict = verdicts.get(f)
        if verdict is not None and verdict.status == "unverified":
            result.unverified_applied.append(UnverifiedFix(f.code, row, f.col, cell, verdict.reason or ""))
    after = fixed_src.positions(new)
    result.records = [record(f, after, verdicts.get(f)) for f in left]
    return result


def _internal_error(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "internal error: too deeply nested (please report)"
    return f"internal error: {type(exc).__name__}: {exc} (please report)"


def process_stdin(data: bytes, name: str, settings: Settings) -> FileResult:
    """Lint/fix the bytes read from stdin; ``output`` is what goes to stdout.  Never raises."""
    try:
        return process_data(data, name, settings, explicit=True)
    except BadInput as exc:
        return FileResult(name, error=str(exc), output=data)
    except Exception as exc:  # a bug in a rule
        return FileResult(name, error=_internal_error(exc), output=data)


def _unwritten(path: str, data: bytes, settings: Settings, error: str) -> FileResult:
    """A file whose fixes could not be written: its findings are all left."""
    result = process_data(data, path, dataclasses.replace(settings, mode="check"))
    result.error, result.output = error, None
    return result


def process_path(path: str, explicit: bool, settings: Settings) -> FileResult:
    """Read, lint/fix and (in fix mode) write one file.  Never raises."""
    try:
        data = files.read_bytes(path)
        with fewer_collections():  # the parse too, not only the analysis (engine)
            result = process_data(data, path, settings, explicit)
        if result.changed and result.output is not None and settings.mode in ("fix", "add-noqa"):
            try:
                files.write_file(path, result.output, data)
            except OSError as exc:
                return _unwritten(path, data, settings, f"cannot write: {exc.strerror or exc}")
        result.output = None
        return result
    except BadInput as exc:
        return FileResult(path, error=str(exc))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # a bug in a rule: name it, go on with the others
        return FileResult(path, error=_internal_error(exc))
