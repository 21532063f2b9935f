"""``torchcopy-fix``: apply the safe (and with ``--unsafe-fixes`` the unsafe) fixes
of flake8-torchcopy to files, directories, notebooks or stdin, and report what is left.

Run ``torchcopy-fix --help`` for the options and docs/cli.md for the whole story.
Exit status: 0 nothing left to do; 1 files were rewritten, findings are left or
``--diff`` has a diff; 2 a usage or configuration error, or a file that could
not be read or parsed (such a file is never written).
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import clifiles, cliconfig, noqa
from .cliconfig import ConfigError
from .clifiles import BadInput

PROG = "torchcopy-fix"
OUTPUT_FORMATS = ("text", "json", "sarif", "github")
INVALID_FIX = "internal error: fix produced invalid code (please report)"


# ------------------------------------------------------------------ results
@dataclass
class Record:
    """One finding, with positions resolved for output (``col`` 0-based)."""

    code: str
    message: str
    row: int
    col: int
    end_row: int
    end_col: int
    cell: Optional[int]
    url: str
    # (applicability, message, [(content, row, col, end_row, end_col)]) or None
    fix: Optional[Tuple[str, str, List[Tuple[str, int, int, int, int]]]] = None
    # --verify: {"status", "property", "case", "reason"} for a fix that was verified, else None
    verification: Optional[Dict[str, Optional[str]]] = None


@dataclass
class FileResult:
    """What processing one file gives back to the main process (kept small)."""

    path: str
    changed: bool = False
    fixed: int = 0
    applied: List[Tuple[str, str, int, int, Optional[int], str]] = field(default_factory=list)
    records: List[Record] = field(default_factory=list)
    diff: Optional[str] = None
    error: Optional[str] = None
    warnings: List[str] = field(default_factory=list)
    output: Optional[bytes] = None  # stdin mode: the bytes to write to stdout
    # --verify: fixes applied although unverified: (code, row, col, cell, reason)
    unverified_applied: List[Tuple[str, int, int, Optional[int], str]] = field(default_factory=list)


@dataclass(frozen=True)
class Settings:
    """Everything a worker needs; picklable (rules travel as codes)."""

    mode: str  # "fix", "check" or "diff"
    unsafe: bool
    rule_codes: Tuple[str, ...]
    trust_annotations: bool
    per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...]
    root: str
    show_fixes: bool = False
    verify: bool = False  # verify each fix on synthesized inputs before applying it (imports torch)
    require_verified: bool = False  # with verify: do not apply fixes that could not be verified


# ------------------------------------------------------------------ processing
def _rules(settings: Settings, path: str):
    from . import rules as rules_mod

    ignored = cliconfig.ignored_codes_for(path, dict(settings.per_file_ignores), settings.root)
    out = []
    for code in settings.rule_codes:
        if ignored and any(code.startswith(p) for p in ignored):
            continue
        out.append(rules_mod.RULES_BY_CODE[code])
    return tuple(out)


def _layered_rules(cfg, args) -> tuple:
    """Rule selection in two layers, as ruff does: the config file's, then the command line's.

    ``--select`` on the command line starts afresh (the file's select, ignore and
    extend-select no longer apply); otherwise ``--extend-select`` and ``--ignore`` are
    applied on top of the file's selection, the longer prefix winning between them.
    """
    from . import rules as rules_mod
    from .engine import prefix_len, select_rules

    if args.select is not None:
        return select_rules(args.select, args.ignore, args.extend_select)
    chosen = {r.code for r in select_rules(cfg.select, cfg.ignore, cfg.extend_select)}
    for rule in rules_mod.ALL_RULES:
        add, drop = prefix_len(rule.code, args.extend_select), prefix_len(rule.code, args.ignore)
        if add > drop:
            chosen.add(rule.code)
        elif drop > add:
            chosen.discard(rule.code)
    return tuple(r for r in rules_mod.ALL_RULES if r.code in chosen)


def _parse_or_raise(text: str, name: str):
    """Parse like Python does; BadInput with a one-line reason when it cannot."""
    import ast

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text, filename=name)
    except SyntaxError as exc:  # includes IndentationError and TabError
        where = f" (line {exc.lineno})" if exc.lineno else ""
        raise BadInput(f"cannot parse: {type(exc).__name__}: {exc.msg}{where}") from None
    except (ValueError, TypeError) as exc:
        raise BadInput(f"cannot parse: {exc}") from None
    except (RecursionError, MemoryError):
        raise BadInput("cannot parse: too deeply nested for the Python parser") from None


def _compiles(text: str, name: str) -> Optional[str]:
    """None when ``text`` compiles, else the reason."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(text, name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        where = f" (line {exc.lineno})" if exc.lineno else ""
        return f"{type(exc).__name__}: {exc.msg}{where}"
    except (ValueError, TypeError, RecursionError, MemoryError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def _fix_rounds(source: str, name: str, rules, options, unsafe: bool, keep, tree=None, vet=None):
    """``engine.fix_rounds`` with the CLI's bookkeeping: (new source, applied findings,
    findings left, verifications).  ``vet(source, findings) -> (findings whose fix may be
    applied, {finding: verification})`` (``--verify``) runs before each round's fixes are
    applied; the verifications returned are those of the applied findings and of the
    findings left.  ``tree`` is the parsed ``source``: a parse error after that comes from
    a fix, and is reported as one."""
    from .engine import fix_rounds

    notes: Dict[Any, Dict[str, Optional[str]]] = {}

    def allow(src, findings):
        allowed, round_notes = vet(src, findings)
        notes.update(round_notes)
        return allowed

    try:
        new, applied, left = fix_rounds(source, unsafe, rules=rules, options=options, path=name,
                                        tree=tree, keep=keep, allow=allow if vet is not None else None)
    except (SyntaxError, ValueError):
        if tree is None:
            raise
        raise BadInput(INVALID_FIX) from None
    unvetted = [f for f in left if f not in notes]
    if vet is not None and unvetted:  # left after the last round: not vetted yet
        notes.update(vet(new, unvetted)[1])
    return new, applied, left, notes


# ------------------------------------------------------------------ --verify
VERIFY_MAX_CASES = 64  # cases per rewrite (the full covering design has ~300); see docs/cli.md
VERIFY_INSTALL = "pip install 'flake8-torchcopy[verify]'"
_VERDICTS: Dict[Any, Dict[str, Optional[str]]] = {}  # per process, per run: rewrite -> verification


def _verification(rep) -> Dict[str, Optional[str]]:
    """The small dict the CLI keeps of a verifier ``Report``."""
    prop = case = None
    if rep.status == "mismatch":
        if rep.mismatches:
            prop, case = rep.mismatches[0].get("property"), rep.mismatches[0].get("case")
        elif rep.mismatch_properties:
            prop = next(iter(rep.mismatch_properties))
    reason = (rep.reason or None) if rep.status == "unverified" else None
    if rep.status == "unverified" and not reason:
        reason = "no case could be run"
    return {"status": rep.status, "property": prop, "case": case, "reason": reason}


def _rewrite_key(vmod, source: str, fixed: str, env, consts):
    """What a verdict depends on: the changed expressions and what their names are bound
    to by the module (imports, literal constants).  None when it cannot be isolated."""
    import ast

    try:
        pairs = tuple(vmod.changed_expressions(source, fixed))
    except Exception:  # noqa: BLE001 - Unisolable, SyntaxError: verify_fix says why
        return None
    names = set()
    for pair in pairs:
        for text in pair:
            for node in ast.walk(ast.parse(text, mode="eval")):
                if isinstance(node, ast.Name):
                    names.add(node.id)
    context = tuple(sorted(
        (n, consts.get(n), getattr(env[n], "__name__", type(env[n]).__name__) if n in env else None)
        for n in names))
    return pairs, context


def _vet(source: str, findings, unsafe: bool, require_verified: bool):
    """Verify the fix of each finding alone; keep those that verified (or, without
    ``require_verified``, could not be verified)."""
    from . import verify as vmod
    from .engine import apply_fixes

    allowed, notes = [], {}
    env = consts = None
    for f in findings:
        if f.fix is None or (not f.fix.safe and not unsafe):
            allowed.append(f)  # apply_fixes leaves it alone anyway
            continue
        fixed, _ = apply_fixes(source, [f], unsafe=True)
        if env is None:
            try:
                env, consts = vmod._module_env(source)
            except Exception:  # noqa: BLE001
                env, consts = {}, {}
        key = _rewrite_key(vmod, source, fixed, env, consts)
        v = _VERDICTS.get(key) if key is not None else None
        if v is None:
            try:
                rep = vmod.verify_fix(source, fixed, max_cases=VERIFY_MAX_CASES)
                v = _verification(rep)
            except Exception as exc:  # noqa: BLE001 - a verifier bug must not stop the fixer
                v = {"status": "unverified", "property": None, "case": None,
                     "reason": f"verifier error: {type(exc).__name__}: {exc}"}
            if key is not None:
                _VERDICTS[key] = v
        notes[f] = v
        if v["status"] in ("equivalent", "improved") or (v["status"] == "unverified" and not require_verified):
            allowed.append(f)
    return allowed, notes


class _Positions:
    """Maps character offsets of a source to (cell, row, col) for output."""

    def __init__(self, source: str, line_map=None) -> None:
        from .source import SourceIndex

        self.index = SourceIndex(source)
        self.line_map = line_map

    def row(self, line: int) -> Tuple[Optional[int], int]:
        if self.line_map is None:
            return None, line
        from .notebook import cell_position

        return cell_position(self.line_map, line)

    def offset(self, offset: int) -> Tuple[int, int]:
        line, col = self.index.line_col(offset)
        return self.row(line)[1], col


def _records(findings, pos: _Positions, notes=None) -> List[Record]:
    out = []
    for f in findings:
        cell, row = pos.row(f.line)
        _, end_row = pos.row(f.end_line)
        fix = None
        if f.fix is not None:
            edits = []
            for e in f.fix.edits:
                r1, c1 = pos.offset(e.start)
                r2, c2 = pos.offset(e.end)
                edits.append((e.content, r1, c1, r2, c2))
            fix = (f.fix.applicability, f.fix.message, edits)
        out.append(Record(f.code, f.message, row, f.col, end_row, f.end_col, cell, f.url, fix,
                          (notes or {}).get(f)))
    return out


def _unified_diff(path: str, old: str, new: str) -> str:
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    lines = []
    for line in difflib.unified_diff(a, b, fromfile=path, tofile=path):
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        lines.append(line)
    return "".join(lines)


def process_data(data: bytes, path: str, settings: Settings, explicit: bool = True,
                 stdin: bool = False) -> FileResult:
    """Lint/fix one file's bytes.  Writes nothing; ``result.output`` holds new bytes."""
    from .engine import Options

    result = FileResult(path)
    is_nb = path.endswith(".ipynb")
    if not explicit and not is_nb and clifiles.is_generated(data):
        if stdin:
            result.output = data
        return result
    options = Options(trust_annotations=settings.trust_annotations)
    rules = _rules(settings, path)
    line_map = None
    nb = None
    used = None
    if is_nb:
        from .notebook import Notebook, NotebookError

        if b"\0" in data:
            raise BadInput("binary content (NUL byte), skipped")
        try:
            raw = data.decode("utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8")
        except UnicodeDecodeError as exc:
            raise BadInput(f"cannot decode as utf-8 at byte {exc.start}: {exc.reason}") from None
        try:
            nb = Notebook(raw)
        except NotebookError as exc:
            raise BadInput(str(exc)) from None
        if not nb.python:
            if stdin:
                result.output = data
            return result
        text, line_map, used = nb.joined()
        result.warnings.extend(nb.warnings)
        encoding = "utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8"
        tree = _parse_or_raise(text, path) if text else None
    else:
        decoded = clifiles.decode_source(data)
        text, encoding = decoded.text, decoded.encoding
        tree = _parse_or_raise(text, path)

    if noqa.file_is_skipped(text) or not rules or not text:
        if stdin:
            result.output = data
        return result

    def keep(src, findings):
        return noqa.filter_findings(src, findings)

    from .engine import lint_source

    def verify_round(src, findings):
        return _vet(src, findings, settings.unsafe, settings.require_verified)

    vet = verify_round if settings.verify else None

    if settings.mode == "check":
        new, applied = text, []
        left = keep(text, lint_source(text, path, rules=rules, options=options, tree=tree))
        notes = vet(text, left)[1] if vet is not None else {}
    else:
        new, applied, left, notes = _fix_rounds(text, path, rules, options, settings.unsafe, keep, tree, vet)
    new_bytes = data
    if new != text:
        new = clifiles.keep_newlines(text, new)
        bad = _compiles(new, path)
        if bad is not None:
            if _compiles(text, path) is not None:
                raise BadInput(f"cannot compile: {_compiles(text, path)}")
            raise BadInput(INVALID_FIX)
        try:
            if nb is not None:
                from .notebook import NotebookError

                try:
                    new_doc = nb.rewrite(new, used)
                except NotebookError as exc:
                    raise BadInput(f"internal error: {exc} (please report)") from None
                new_bytes = new_doc.encode(encoding)
            else:
                new_bytes = clifiles.encode_source(new, encoding)
        except UnicodeEncodeError:
            raise BadInput(f"internal error: fixed code cannot be encoded as {encoding} (please report)") from None
    pos_old = _Positions(text, line_map)
    result.fixed = len(applied)
    if settings.show_fixes:
        for f in applied:
            cell, row = pos_old.row(f.line)
            result.applied.append((f.code, f.message, row, f.col, cell, f.fix.message if f.fix else ""))
    for f in applied:
        v = notes.get(f)
        if v is not None and v["status"] == "unverified":
            cell, row = pos_old.row(f.line)
            result.unverified_applied.append((f.code, row, f.col, cell, v["reason"] or ""))
    result.records = _records(left, _Positions(new, line_map), notes)
    result.changed = new_bytes != data
    if result.changed:
        if settings.mode == "diff":
            old_doc = data.decode(encoding) if nb is None else nb.raw
            new_doc = new_bytes.decode(encoding)
            result.diff = _unified_diff(path, old_doc, new_doc)
    result.output = new_bytes
    return result


def process_path(path: str, explicit: bool, settings: Settings) -> FileResult:
    """Read, lint/fix and (in fix mode) write one file.  Never raises."""
    try:
        data = clifiles.read_bytes(path)
        result = process_data(data, path, settings, explicit)
        if result.changed and settings.mode == "fix" and result.output is not None:
            try:
                clifiles.write_atomic(path, result.output)
            except OSError as exc:
                return FileResult(path, error=f"cannot write: {exc.strerror or exc}")
        result.output = None
        return result
    except BadInput as exc:
        return FileResult(path, error=str(exc))
    except (KeyboardInterrupt, SystemExit):
        raise
    except RecursionError:
        return FileResult(path, error="internal error: too deeply nested (please report)")
    except BaseException as exc:  # a bug in a rule: name it, go on with the others
        return FileResult(path, error=f"internal error: {type(exc).__name__}: {exc} (please report)")


# ------------------------------------------------------------------ workers
_WORKER_SETTINGS: Optional[Settings] = None


def _init_worker(settings: Settings) -> None:
    global _WORKER_SETTINGS
    _WORKER_SETTINGS = settings
    _VERDICTS.clear()
    if settings.verify:
        from . import verify  # noqa: F401 - import torch once per worker, not per file


def _work(item: Tuple[str, bool]) -> FileResult:
    assert _WORKER_SETTINGS is not None
    return process_path(item[0], item[1], _WORKER_SETTINGS)


class Progress:
    """A one-line progress bar on stderr, only on a terminal and only for long runs."""

    DELAY = 0.5

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled and total > 1
        self.start = time.monotonic()
        self.last = 0.0
        self.drawn = False

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.DELAY or (now - self.last < 0.1 and done < self.total):
            return
        self.last = now
        width = 30
        filled = int(width * done / self.total)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} files")
        sys.stderr.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


def _progress_wanted(quiet: bool) -> bool:
    try:
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):
        tty = False
    return tty and not quiet and not os.environ.get("CI") and os.environ.get("TERM") != "dumb"


def run_files(files: List[Tuple[str, bool]], settings: Settings, jobs: int, quiet: bool) -> List[FileResult]:
    """Process files, in ``jobs`` processes when there are several; results in input order."""
    progress = Progress(len(files), _progress_wanted(quiet))
    results: List[FileResult] = []
    try:
        if jobs > 1 and len(files) > 1:
            try:
                from concurrent.futures import ProcessPoolExecutor
                from concurrent.futures.process import BrokenProcessPool

                workers = min(jobs, len(files))
                chunk = max(1, min(32, len(files) // (workers * 4)))
                with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(settings,)) as pool:
                    for r in pool.map(_work, files, chunksize=chunk):
                        results.append(r)
                        progress.update(len(results))
                return results
            except (OSError, ImportError, NotImplementedError, BrokenProcessPool):
                # no usable process pool here (sandbox, a worker killed): go on serially
                done = {r.path for r in results}
                files = [f for f in files if f[0] not in done]
        for path, explicit in files:
            results.append(process_path(path, explicit, settings))
            progress.update(len(results))
        return results
    finally:
        progress.close()


# ------------------------------------------------------------------ output
def _esc_gh(value: str, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def _loc(path: str, r: Record) -> str:
    cell = f"cell {r.cell}:" if r.cell is not None else ""
    return f"{path}:{cell}{r.row}:{r.col + 1}"


def _verification_text(v: Dict[str, Optional[str]], check: bool) -> Optional[str]:
    """The --verify line of a finding left, or None when its fix verified."""
    not_applied = "fix would not be applied" if check else "fix not applied"
    if v["status"] == "mismatch":
        prop = v.get("property") or "a property"
        case = f" ({v['case']})" if v.get("case") else ""
        return f"{not_applied}: mismatch in {prop}{case}"
    if v["status"] == "unverified":
        return f"{not_applied}: unverified: {v.get('reason') or 'no case could be run'}"
    return None


def format_text(results: Sequence[FileResult], check: bool = False) -> str:
    lines = []
    for res in results:
        notes = []
        for r in res.records:
            lines.append(f"{_loc(res.path, r)}: {r.code} {r.message}")
            if r.verification is not None:
                note = _verification_text(r.verification, check)
                if note is not None:
                    notes.append(f"{_loc(res.path, r)}: {r.code} {note}")
        for code, row, col, cell, reason in res.unverified_applied:
            cellpart = f"cell {cell}:" if cell is not None else ""
            notes.append(f"{res.path}:{cellpart}{row}:{col + 1}: {code} fix unverified: {reason}")
        lines.extend(notes)
    return "".join(line + "\n" for line in lines)


def format_github(results: Sequence[FileResult]) -> str:
    lines = []
    for res in results:
        for r in res.records:
            lines.append(
                f"::warning file={_esc_gh(res.path, True)},line={r.row},col={r.col + 1},"
                f"endLine={r.end_row},endColumn={r.end_col + 1},title={r.code}::{_esc_gh(r.message)}"
            )
    return "".join(line + "\n" for line in lines)


def _json_records(results: Sequence[FileResult]) -> List[Dict[str, Any]]:
    out = []
    for res in results:
        for r in res.records:
            fix = None
            if r.fix is not None:
                applicability, message, edits = r.fix
                fix = {
                    "applicability": applicability,
                    "message": message,
                    "edits": [
                        {
                            "content": content,
                            "location": {"row": r1, "column": c1 + 1},
                            "end_location": {"row": r2, "column": c2 + 1},
                        }
                        for content, r1, c1, r2, c2 in edits
                    ],
                }
            item = {
                "code": r.code,
                "message": r.message,
                "filename": res.path,
                "location": {"row": r.row, "column": r.col + 1},
                "end_location": {"row": r.end_row, "column": r.end_col + 1},
                "fix": fix,
                "url": r.url,
                "verification": r.verification,
            }
            if r.cell is not None:
                item["cell"] = r.cell
            out.append(item)
    return out


def format_json(results: Sequence[FileResult]) -> str:
    return json.dumps(_json_records(results), indent=2, ensure_ascii=False) + "\n"


def format_sarif(results: Sequence[FileResult], rule_codes: Sequence[str]) -> str:
    from . import __version__
    from . import rules as rules_mod
    from .finding import DOCS_URL

    codes = sorted(set(rule_codes) | {r.code for res in results for r in res.records})
    sarif_rules = []
    for code in codes:
        rule = rules_mod.RULES_BY_CODE.get(code)
        entry: Dict[str, Any] = {"id": code, "helpUri": DOCS_URL.format(code=code)}
        if rule is not None:
            entry["name"] = getattr(rule, "name", code)
            entry["shortDescription"] = {"text": getattr(rule, "summary", code)}
        sarif_rules.append(entry)
    index = {code: i for i, code in enumerate(codes)}
    sarif_results = []
    for res in results:
        for r in res.records:
            region = {
                "startLine": r.row,
                "startColumn": r.col + 1,
                "endLine": r.end_row,
                "endColumn": r.end_col + 1,
            }
            sarif_results.append({
                "ruleId": r.code,
                "ruleIndex": index[r.code],
                "level": "warning",
                "message": {"text": r.message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": res.path.replace(os.sep, "/")},
                        "region": region,
                    }
                }],
            })
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": PROG,
                "version": __version__,
                "informationUri": "https://github.com/flake8-torchcopy/flake8-torchcopy",
                "rules": sarif_rules,
            }},
            "results": sarif_results,
        }],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ------------------------------------------------------------------ arguments
def _code_list(value: str) -> Tuple[str, ...]:
    try:
        return cliconfig.check_codes(value.split(","), "code list")
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
    from . import __version__

    p = argparse.ArgumentParser(
        prog=PROG,
        description="Fix PyTorch copy/view idioms found by flake8-torchcopy (TRC codes).",
        epilog="Exit status: 0 nothing left to do, 1 files rewritten or findings left "
        "(or --diff has a diff), 2 usage/config error or unreadable/unparsable file.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or directories; '-' reads stdin")
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
                   help="apply --exclude to files named on the command line too (useful for pre-commit)")
    p.add_argument("-j", "--jobs", type=_jobs, default=0, metavar="N",
                   help="number of processes (default: the CPU count)")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when files changed or findings are left")
    p.add_argument("--stdin-filename", metavar="NAME", help="the name of the file read from stdin ('-')")
    p.add_argument("--output-format", choices=OUTPUT_FORMATS, default="text", help="how findings are printed")
    p.add_argument("--show-fixes", action="store_true", help="list the fixes that were applied")
    p.add_argument("-q", "--quiet", action="store_true", help="print findings and errors only")
    p.add_argument("--trust-annotations", action=argparse.BooleanOptionalAction, default=None,
                   help="believe `x: torch.Tensor` annotations when deciding what is a tensor")
    p.add_argument("--verify", action="store_true",
                   help="verify each fix on synthesized inputs before applying it; fixes that "
                   "change behaviour are not applied (needs torch; slow)")
    p.add_argument("--require-verified", action="store_true",
                   help="with --verify: do not apply fixes that could not be verified either")
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    return p


# ------------------------------------------------------------------ main
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

    paths = list(args.paths)
    if not paths and args.stdin_filename:
        paths = ["-"]
    if not paths:
        parser.print_usage(sys.stderr)
        _err(f"{PROG}: error: no paths given (use '-' for stdin)")
        return 2
    use_stdin = "-" in paths
    if use_stdin and len(paths) > 1:
        _err(f"{PROG}: error: '-' (stdin) cannot be combined with other paths")
        return 2

    # configuration: nearest pyproject.toml with [tool.torchcopy]
    start = (args.stdin_filename or ".") if use_stdin else paths[0]
    try:
        cfg = cliconfig.discover_config(start)
    except ConfigError as exc:
        _err(f"{PROG}: config error: {exc}")
        return 2

    exclude = args.exclude if args.exclude is not None else (cfg.exclude or ())
    unsafe = args.unsafe_fixes if args.unsafe_fixes is not None else bool(cfg.unsafe_fixes)
    trust = args.trust_annotations if args.trust_annotations is not None else bool(cfg.trust_annotations)
    rules = _layered_rules(cfg, args)
    mode = "diff" if args.diff else "check" if args.check else "fix"
    if args.require_verified and not args.verify:
        _err(f"{PROG}: error: --require-verified needs --verify")
        return 2
    _VERDICTS.clear()
    if args.verify:
        try:
            from . import verify  # noqa: F401 - imports torch
        except ImportError as exc:
            _err(f"{PROG}: error: --verify needs torch ({exc}); {VERIFY_INSTALL}")
            return 2
    settings = Settings(
        mode=mode,
        unsafe=unsafe,
        rule_codes=tuple(r.code for r in rules),
        trust_annotations=trust,
        per_file_ignores=tuple(cfg.per_file_ignores.items()),
        root=cfg.root,
        show_fixes=args.show_fixes,
        verify=args.verify,
        require_verified=args.require_verified,
    )

    errors: List[Tuple[str, str]] = []
    if use_stdin:
        name = args.stdin_filename or "-"
        data = sys.stdin.buffer.read()
        try:
            res = process_data(data, name, settings, explicit=True, stdin=True)
        except BadInput as exc:
            res = FileResult(name, error=str(exc), output=data)
        except RecursionError:
            res = FileResult(name, error="internal error: too deeply nested (please report)", output=data)
        except Exception as exc:  # a bug in a rule
            res = FileResult(name, error=f"internal error: {type(exc).__name__}: {exc} (please report)", output=data)
        results = [res]
    else:
        root = cfg.root

        def excluded(p: str) -> bool:
            return cliconfig.glob_matches(p, exclude, root) or cliconfig.glob_matches(p, exclude, os.getcwd())

        files, errors = clifiles.collect(paths, excluded if exclude else None)
        if args.force_exclude and exclude:
            files = [(p, e) for p, e in files if not excluded(p)]
        jobs = args.jobs or os.cpu_count() or 1
        results = run_files(files, settings, jobs, args.quiet)

    return _report(results, errors, settings, args, use_stdin)


def _report(results: List[FileResult], errors: List[Tuple[str, str]], settings: Settings,
            args: argparse.Namespace, use_stdin: bool) -> int:
    out = sys.stdout
    # stdin in fix mode: stdout carries the code, so everything else goes to stderr
    report_stream = sys.stderr if (use_stdin and settings.mode == "fix") else sys.stdout
    n_errors = len(errors)
    for path, reason in errors:
        _err(f"{path}: {reason}")
    for res in results:
        for w in res.warnings:
            _err(f"{res.path}: {w}")
        if res.error:
            n_errors += 1
            _err(f"{res.path}: {res.error}")
        elif res.changed and settings.mode == "fix" and not use_stdin and not args.quiet:
            _err(f"Rewriting {res.path}")

    if use_stdin and settings.mode == "fix":
        res = results[0]
        if res.output is not None:
            out.flush()
            sys.stdout.buffer.write(res.output)
            sys.stdout.buffer.flush()
    if settings.mode == "diff":
        for res in results:
            if res.diff:
                out.write(res.diff)

    fmt = args.output_format
    if fmt == "text":
        text = format_text(results, check=settings.mode == "check")
    elif fmt == "json":
        text = format_json(results)
    elif fmt == "sarif":
        text = format_sarif(results, settings.rule_codes)
    else:
        text = format_github(results)
    if text:
        report_stream.write(text)
    report_stream.flush()

    if settings.show_fixes:
        lines = []
        for res in results:
            for code, message, row, col, cell, fixmsg in res.applied:
                cellpart = f"cell {cell}:" if cell is not None else ""
                lines.append(f"  {res.path}:{cellpart}{row}:{col + 1}: {code} {fixmsg or message}")
        if lines:
            _err("Applied fixes:" if settings.mode == "fix" else "Fixes that would be applied:")
            for line in lines:
                _err(line)

    fixed = sum(r.fixed for r in results)
    changed = sum(1 for r in results if r.changed)
    left = sum(len(r.records) for r in results)

    def has_fix(rec: Record) -> bool:  # a fix --verify did not reject
        v = rec.verification
        rejected = v is not None and (v["status"] == "mismatch"
                                      or (v["status"] == "unverified" and settings.require_verified))
        return rec.fix is not None and not rejected

    unsafe_fixable = sum(1 for r in results for rec in r.records if has_fix(rec) and rec.fix[0] != "safe")
    fixable = sum(1 for r in results for rec in r.records if has_fix(rec) and rec.fix[0] == "safe")
    files_left = sum(1 for r in results if r.records)
    if not args.quiet:
        if settings.mode == "fix":
            msg = f"Fixed {_plural(fixed, 'issue')} in {_plural(changed, 'file')}; {left} left"
            if not settings.unsafe:
                msg += f" ({unsafe_fixable} fixable with --unsafe-fixes)"
            _err(msg)
        elif settings.mode == "diff":
            msg = f"Would fix {_plural(fixed, 'issue')} in {_plural(changed, 'file')}; {left} left"
            if not settings.unsafe:
                msg += f" ({unsafe_fixable} fixable with --unsafe-fixes)"
            _err(msg)
        else:
            msg = f"Found {_plural(left, 'issue')} in {_plural(files_left, 'file')}"
            extra = []
            if fixable:
                extra.append(f"{fixable} fixable with {PROG}")
            if unsafe_fixable:
                extra.append(f"{unsafe_fixable} {'more ' if fixable else ''}fixable with --unsafe-fixes"
                             if not settings.unsafe else f"{unsafe_fixable} fixable with --unsafe-fixes")
            if extra:
                msg += " (" + ", ".join(extra) + ")"
            _err(msg)

    if n_errors:
        return 2
    if args.exit_zero:
        return 0
    if settings.mode == "fix" and changed:
        return 1
    if settings.mode == "diff" and any(r.diff for r in results):
        return 1
    return 1 if left else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
