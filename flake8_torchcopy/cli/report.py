"""How ``torchcopy-fix`` prints what it found: the output formats (text, concise, json,
sarif, github, gitlab, junit), ``--statistics``, the ``--show-fixes`` list and the
summary line."""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict
from typing import Any, Dict, List, Optional, Sequence
from xml.sax.saxutils import escape, quoteattr

from .results import FileResult, Record, Verification, location
from .settings import PROG, Settings

OUTPUT_FORMATS = ("text", "concise", "json", "sarif", "github", "gitlab", "junit")


def verification_text(v: Verification, require_verified: bool) -> Optional[str]:
    """The --verify line of a fix, or None when it verified: one text per state, the same
    in --check, --diff and write mode (a rejected fix is never applied; an unverified one
    is applied unless --require-verified)."""
    if v.status == "mismatch":
        case = f" ({v.case})" if v.case else ""
        return f"fix not applied: mismatch in {v.property or 'a property'}{case}"
    if v.status == "unverified":
        reason = v.reason or "no case could be run"
        return f"fix not applied: unverified: {reason}" if require_verified else f"fix unverified: {reason}"
    return None


def _loc(path: str, r: Record) -> str:
    return location(path, r.cell, r.row, r.col)


def format_text(results: Sequence[FileResult], require_verified: bool = False,
                concise: bool = False) -> str:
    """One line per finding (``concise``: ruff's concise format, ``[*]`` marking the
    findings with a safe fix)."""
    lines = []
    for res in results:
        notes = []
        for r in res.records:
            mark = "[*] " if concise and r.safely_fixable(require_verified) else ""
            lines.append(f"{_loc(res.path, r)}: {r.code} {mark}{r.message}")
            if r.verification is not None:
                note = verification_text(r.verification, require_verified)
                if note is not None:
                    notes.append(f"{_loc(res.path, r)}: {r.code} {note}")
        for u in res.unverified_applied:
            notes.append(f"{location(res.path, u.cell, u.row, u.col)}: {u.code} fix unverified: {u.reason}")
        lines.extend(notes)
    return "".join(line + "\n" for line in lines)


def _esc_gh(value: str, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def _message_with_cell(r: Record) -> str:
    """The message, led by the cell position in a notebook (formats that know no cells
    locate a finding in the notebook's JSON text)."""
    if r.cell is None:
        return r.message
    return f"cell {r.cell}:{r.row}:{r.col + 1}: {r.message}"


def format_github(results: Sequence[FileResult]) -> str:
    lines = []
    for res in results:
        for r in res.records:
            span = r.file_span()
            lines.append(
                f"::warning file={_esc_gh(res.path, True)},line={span.row},col={span.col + 1},"
                f"endLine={span.end_row},endColumn={span.end_col + 1},title={r.code}::"
                f"{_esc_gh(_message_with_cell(r))}"
            )
    return "".join(line + "\n" for line in lines)


def _json_fix(r: Record) -> Optional[Dict[str, Any]]:
    if r.fix is None:
        return None
    return {
        "applicability": r.fix.applicability,
        "message": r.fix.message,
        "edits": [
            {
                "content": e.content,
                "location": {"row": e.row, "column": e.col + 1},
                "end_location": {"row": e.end_row, "column": e.end_col + 1},
            }
            for e in r.fix.edits
        ],
    }


def _json_records(results: Sequence[FileResult]) -> List[Dict[str, Any]]:
    out = []
    for res in results:
        for r in res.records:
            item: Dict[str, Any] = {
                "code": r.code,
                "message": r.message,
                "filename": res.path,
                "location": {"row": r.row, "column": r.col + 1},
                "end_location": {"row": r.end_row, "column": r.end_col + 1},
                "fix": _json_fix(r),
                "url": r.url,
                "verification": asdict(r.verification) if r.verification is not None else None,
            }
            if r.cell is not None:
                item["cell"] = r.cell
            out.append(item)
    return out


def format_json(results: Sequence[FileResult]) -> str:
    return json.dumps(_json_records(results), indent=2, ensure_ascii=False) + "\n"


def format_sarif(results: Sequence[FileResult], rule_codes: Sequence[str]) -> str:
    from .. import __version__
    from ..finding import DOCS_URL
    from ..rules import RULES_BY_CODE

    codes = sorted(set(rule_codes) | {r.code for res in results for r in res.records})
    sarif_rules = []
    for code in codes:
        rule = RULES_BY_CODE.get(code)
        entry: Dict[str, Any] = {"id": code, "helpUri": DOCS_URL.format(code=code)}
        if rule is not None:
            entry["name"] = getattr(rule, "name", code)
            entry["shortDescription"] = {"text": getattr(rule, "summary", code)}
        sarif_rules.append(entry)
    index = {code: i for i, code in enumerate(codes)}
    sarif_results = []
    for res in results:
        for r in res.records:
            span = r.file_span()
            region = {
                "startLine": span.row,
                "startColumn": span.col + 1,
                "endLine": span.end_row,
                "endColumn": span.end_col + 1,
            }
            result: Dict[str, Any] = {
                "ruleId": r.code,
                "ruleIndex": index[r.code],
                "level": "warning",
                "message": {"text": _message_with_cell(r)},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": res.path.replace(os.sep, "/")},
                        "region": region,
                    }
                }],
            }
            if r.cell is not None:
                result["properties"] = {"cell": r.cell, "cellRow": r.row, "cellColumn": r.col + 1}
            sarif_results.append(result)
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


def format_gitlab(results: Sequence[FileResult]) -> str:
    """GitLab Code Quality (a JSON list; ``CI_PROJECT_DIR`` makes paths relative to it)."""
    base = os.environ.get("CI_PROJECT_DIR")
    out, seen = [], set()
    for res in results:
        path = os.path.relpath(os.path.abspath(res.path), base) if base else res.path
        path = path.replace(os.sep, "/")
        for r in res.records:
            span = r.file_span()
            key = f"{r.code}\0{path}\0{r.message}"
            n = 0
            while True:  # the same message twice in a file still gets two fingerprints
                fingerprint = hashlib.sha256(f"{key}\0{n}".encode()).hexdigest()[:16]
                if fingerprint not in seen:
                    break
                n += 1
            seen.add(fingerprint)
            out.append({
                "check_name": r.code,
                "description": f"{r.code}: {_message_with_cell(r)}",
                "severity": "major",
                "fingerprint": fingerprint,
                "location": {"path": path, "positions": {
                    "begin": {"line": span.row, "column": span.col + 1},
                    "end": {"line": span.end_row, "column": span.end_col + 1}}},
            })
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


def format_junit(results: Sequence[FileResult]) -> str:
    """JUnit XML: a test suite per file with findings, a failing test case per finding
    (ruff's layout); one passing case when there is nothing to report."""
    total = sum(len(res.records) for res in results)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<testsuites name="{PROG}" tests="{max(total, 1)}" failures="{total}" errors="0">']
    if not total:
        lines += [f'  <testsuite name="{PROG}" tests="1" disabled="0" errors="0" failures="0" time="0">',
                  '    <testcase name="No errors found" classname="torchcopy" time="0"/>',
                  "  </testsuite>"]
    for res in results:
        if not res.records:
            continue
        n = len(res.records)
        lines.append(f'  <testsuite name={quoteattr(res.path)} tests="{n}" disabled="0" errors="0" '
                     f'failures="{n}" time="0">')
        for r in res.records:
            where = f"cell {r.cell}, " if r.cell is not None else ""
            lines.append(f'    <testcase name={quoteattr("org.torchcopy." + r.code)} '
                         f'classname={quoteattr(os.path.splitext(res.path)[0].replace(os.sep, "."))} '
                         f'line="{r.row}" column="{r.col + 1}" time="0">')
            lines.append(f'      <failure message={quoteattr(r.message)}>{escape(where)}line {r.row}, '
                         f'col {r.col + 1}, {escape(r.message)}</failure>')
            lines.append("    </testcase>")
        lines.append("  </testsuite>")
    lines.append("</testsuites>")
    return "\n".join(lines) + "\n"


def statistics(results: Sequence[FileResult], settings: Settings) -> str:
    """``--statistics``: one line per code, most frequent first: count, code, ``[*]`` when a
    finding of it has a safe fix, the rule's name (ruff's layout)."""
    from ..rules import RULES_BY_CODE

    counts: Dict[str, int] = {}
    fixable = set()
    for res in results:
        for r in res.records:
            counts[r.code] = counts.get(r.code, 0) + 1
            if r.safely_fixable(settings.require_verified):
                fixable.add(r.code)
    if not counts:
        return ""
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    width = max(len(str(n)) for _, n in rows)
    code_width = max(len(code) for code, _ in rows)
    out = []
    for code, n in rows:
        rule = RULES_BY_CODE.get(code)
        name = rule.name if rule is not None else "io-error" if code == "E902" else ""
        mark = "[*]" if code in fixable else "   "
        out.append(f"{n:>{width}}\t{code:<{code_width}}\t{mark} {name}".rstrip())
    if fixable:
        out.append(f"[*] fixable with {PROG}")
    return "\n".join(out) + "\n"


def format_findings(results: Sequence[FileResult], settings: Settings) -> str:
    """The findings left, in the settings' output format."""
    fmt = settings.output_format
    if fmt == "concise":
        return format_text(results, require_verified=settings.require_verified, concise=True)
    if fmt == "gitlab":
        return format_gitlab(results)
    if fmt == "junit":
        return format_junit(results)
    if fmt == "json":
        return format_json(results)
    if fmt == "sarif":
        return format_sarif(results, settings.rule_codes)
    if fmt == "github":
        return format_github(results)
    return format_text(results, require_verified=settings.require_verified)


def applied_fixes(results: Sequence[FileResult], settings: Settings) -> List[str]:
    """The ``--show-fixes`` lines: a heading and one line per fix (empty: none)."""
    lines = [f"  {location(res.path, a.cell, a.row, a.col)}: {a.code} {a.fix_message or a.message}"
             for res in results for a in res.applied]
    if not lines:
        return []
    return ["Applied fixes:" if settings.mode == "fix" else "Fixes that would be applied:"] + lines


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(results: Sequence[FileResult], settings: Settings, errors: Optional[int] = None) -> str:
    """The last line: what was fixed and what is left, and how many errors there were
    (``errors``: all of them, the paths that could not be found included; default:
    the files with an error)."""
    if errors is None:
        errors = sum(1 for r in results if r.error)
    if settings.mode == "add-noqa":
        added = sum(r.added_noqa for r in results)
        msg = f"Added {added} noqa directive{'' if added == 1 else 's'}."
        return msg + (f"; {_plural(errors, 'error')}" if errors else "")
    if not errors and settings.mode in ("check", "fix") and not any(r.records or r.fixed for r in results):
        return "All checks passed!"
    return _counts(results, settings) + (f"; {_plural(errors, 'error')}" if errors else "")


def _counts(results: Sequence[FileResult], settings: Settings) -> str:
    fixed = sum(r.fixed for r in results)
    changed = sum(1 for r in results if r.changed)
    left = sum(len(r.records) for r in results)
    fixable = [rec for r in results for rec in r.records if rec.fixable(settings.require_verified)]
    safe = sum(1 for rec in fixable if rec.safely_fixable(settings.require_verified))
    unsafe = len(fixable) - safe
    if settings.mode in ("fix", "diff"):
        verb = "Fixed" if settings.mode == "fix" else "Would fix"
        msg = f"{verb} {_plural(fixed, 'issue')} in {_plural(changed, 'file')}; {left} left"
        if not settings.unsafe:
            msg += f" ({unsafe} fixable with --unsafe-fixes)"
        return msg
    files_left = sum(1 for r in results if r.records)
    msg = f"Found {_plural(left, 'issue')} in {_plural(files_left, 'file')}"
    extra = []
    if safe:
        extra.append(f"{safe} fixable with {PROG}")
    if unsafe:
        more = "more " if safe and not settings.unsafe else ""
        extra.append(f"{unsafe} {more}fixable with --unsafe-fixes")
    if extra:
        msg += " (" + ", ".join(extra) + ")"
    return msg
