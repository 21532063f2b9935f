"""Hostile line structure: lone ``\\r``, ``\\r``-only files, mixed endings, form feeds, tabs,
BOM + CRLF, notebooks with CRLF sources.

Python ends a line at ``\\r\\n``, ``\\r`` or ``\\n`` and at nothing else (``\\f``, ``\\v``,
``\\x1c``, ``\\x85``, ``\\u2028`` are not line breaks, though ``str.splitlines`` splits at
them).  Each file holds the idiom ``t.clone().detach()`` once; through ``lint_source``,
``torchcopy-fix --check``, ``torchcopy-fix`` and flake8 with the plugin, it must be
reported where Python's lines put it, and fixing must change those bytes and no others.
"""
from __future__ import annotations

import ast
import json
from bisect import bisect_right
import os
import shutil
import subprocess
import sys

import pytest

from flake8_torchcopy import fix_source, lint_source
from flake8_torchcopy.engine import apply_fixes
from flake8_torchcopy.plugin import TorchCopyPlugin
from flake8_torchcopy.rules import ALL_RULES

IDIOM, FIXED_IDIOM = "t.clone().detach()", "t.detach().clone()"
HEAD = "import torch\nt = torch.ones(2)\n"

SOURCES = {
    # name: source text (str, as decoded); each holds IDIOM exactly once
    "lone_cr.py": HEAD + "x = 1\ry = " + IDIOM + "\n",
    "cr_only.py": (HEAD + "x = 1\ny = " + IDIOM + "\nz = 2\n").replace("\n", "\r"),
    "cr_only_no_eol.py": (HEAD + "y = " + IDIOM).replace("\n", "\r"),
    "mixed.py": "import torch\r\nt = torch.ones(2)\rx = 1\n\r\ny = " + IDIOM + "\r\nz = 2\r",
    "cr_in_string.py": HEAD + "s = '''a\rb\r\nc'''\ny = " + IDIOM + "\n",
    "cr_continuation.py": HEAD + "x = 1 + \\\r    2\ry = " + IDIOM + "\r",
    "non_ascii_cr.py": "# é\rimport torch\rt = torch.ones(2)\rs = 'ü€'; y = " + IDIOM + "\r",
    "form_feeds.py": "\fimport torch\n# page\fbreak\nt = torch.ones(2)\n\f\nx = 1;\fy = " + IDIOM + "\n",
    "not_breaks.py": HEAD + "# \v \x1c \x1d \x1e \x85 \u2028 \u2029\ns = '\v\x1c\x85\u2028'; y = " + IDIOM + "\n",
    "tabs.py": HEAD + "if True:\n\tx = 1;\ty = " + IDIOM + "\n",
    "bom_crlf.py": (HEAD + "# ü\nif True:\n    y = " + IDIOM + "\n").replace("\n", "\r\n"),
}
BOM = {"bom_crlf.py"}


def encoded(name: str) -> bytes:
    data = SOURCES[name].encode("utf-8")
    return b"\xef\xbb\xbf" + data if name in BOM else data


def line_starts(text: str):
    """Offsets where Python's lines start (the oracle, one character at a time)."""
    starts, i = [0], 0
    while i < len(text):
        i += 2 if text.startswith("\r\n", i) else 1
        if text[i - 1] in "\r\n":
            starts.append(i)
    return starts


def apply_json_edits(text: str, edits) -> str:
    """Apply ``--output-format json`` edits (1-based row and column) to ``text``."""
    starts = line_starts(text)

    def offset(loc):
        return starts[loc["row"] - 1] + loc["column"] - 1

    for e in sorted(edits, key=lambda e: offset(e["location"]), reverse=True):
        text = text[:offset(e["location"])] + e["content"] + text[offset(e["end_location"]):]
    return text


def where(text: str, needle: str = IDIOM):
    """(1-based line, 0-based character column) of ``needle``, as Python counts lines."""
    offset, starts = text.index(needle), line_starts(text)
    line = bisect_right(starts, offset)
    return line, offset - starts[line - 1]


def test_python_agrees_with_the_oracle():
    """The oracle is Python's own notion of lines: the ``y`` target sits where ``ast`` says."""
    for name, src in SOURCES.items():
        target = next(n for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Name) and n.id == "y")
        line, col = where(src, "y = " + IDIOM)
        assert target.lineno == line, name
        line_text = src[line_starts(src)[line - 1]:]
        assert len(line_text.encode()[:target.col_offset].decode()) == col, name


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_lint_source_positions(name):
    src = SOURCES[name]
    (finding,) = lint_source(src)
    assert finding.code == "TRC103"
    assert (finding.line, finding.col) == where(src)
    assert (finding.end_line, finding.end_col) == (finding.line, finding.col + len(IDIOM))
    assert FIXED_IDIOM in finding.message and IDIOM in finding.message
    assert apply_fixes(src, [finding])[0] == src.replace(IDIOM, FIXED_IDIOM)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_plugin_on_lines_as_given(name):
    """The plugin gets lines from flake8; given them raw (``\\r`` kept), it still reports right."""
    src = SOURCES[name]
    plugin = TorchCopyPlugin(ast.parse(src), [src], "mod.py")
    assert [(line, col) for line, col, _, _ in plugin.run()] == [where(src)]


def torchcopy_fix(*args, cwd):
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    proc = subprocess.run([sys.executable, "-m", "flake8_torchcopy", *args], cwd=str(cwd),
                          capture_output=True, text=True, env=env, timeout=300)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    return proc


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    for name in SOURCES:
        (root / name).write_bytes(encoded(name))
    return root


def test_check_json_positions(tree):
    proc = torchcopy_fix("--check", "--output-format", "json", *sorted(SOURCES), cwd=tree)
    assert proc.returncode == 1
    records = {r["filename"]: r for r in json.loads(proc.stdout)}
    assert sorted(records) == sorted(SOURCES)
    for name, src in SOURCES.items():
        r = records[name]
        line, col = where(src)
        assert r["code"] == "TRC103", name
        assert (r["location"], r["end_location"]) == (
            {"row": line, "column": col + 1}, {"row": line, "column": col + 1 + len(IDIOM)}), name
        assert apply_json_edits(src, r["fix"]["edits"]) == src.replace(IDIOM, FIXED_IDIOM), name
    for name in SOURCES:
        assert (tree / name).read_bytes() == encoded(name)  # --check writes nothing


def test_flake8_positions(tree):
    proc = subprocess.run([sys.executable, "-m", "flake8", "--select", "TRC", *sorted(SOURCES)],
                          cwd=str(tree), capture_output=True, text=True, timeout=300)
    assert proc.stderr == ""
    got = sorted(line.split(" ", 2)[:2] for line in proc.stdout.splitlines())
    want = sorted([f"{name}:{where(src)[0]}:{where(src)[1] + 1}:", "TRC103"] for name, src in SOURCES.items())
    assert got == want


def test_fix_changes_only_the_fixed_span(tmp_path):
    for name in SOURCES:
        (tmp_path / name).write_bytes(encoded(name))
    proc = torchcopy_fix(*sorted(SOURCES), cwd=tmp_path)
    assert proc.returncode == 1 and f"Fixed {len(SOURCES)} issues" in proc.stderr, proc.stderr
    for name in SOURCES:
        want = encoded(name).replace(IDIOM.encode(), FIXED_IDIOM.encode())
        assert (tmp_path / name).read_bytes() == want, name


def test_noqa_after_a_lone_cr_is_honoured(tmp_path):
    src = HEAD + "x = 1\ry = " + IDIOM + "  # noqa: TRC103\n"
    (tmp_path / "noqa.py").write_bytes(src.encode())
    proc = torchcopy_fix("noqa.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "noqa.py").read_bytes() == src.encode()


def _code_cell(source):
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}


NOTEBOOK_CELLS = [
    {"cell_type": "markdown", "metadata": {}, "source": ["# Title\r\n"]},
    _code_cell(["import torch\r\n", "t = torch.ones(2)\r\n"]),
    # a lone \r inside a line of the list, an IPython magic after it, CRLF elsewhere
    _code_cell(["x = 1\r%matplotlib inline\r\n", "\r\n", "y = " + IDIOM + "  # é\r\n", "z = 2\r\n"]),
    _code_cell("w = 1\rv = " + IDIOM + "\rq = 2\r"),
    _code_cell(["u = " + IDIOM]),
]


def test_notebook_with_crlf_sources(tmp_path):
    raw = json.dumps({"cells": NOTEBOOK_CELLS, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)
    path = tmp_path / "n.ipynb"
    path.write_text(raw, newline="")
    proc = torchcopy_fix("--check", "--output-format", "json", "n.ipynb", cwd=tmp_path)
    got = [(r.get("cell"), r["location"]["row"], r["location"]["column"]) for r in json.loads(proc.stdout)]
    want = []
    for number, cell in enumerate(NOTEBOOK_CELLS, 1):
        text = "".join(cell["source"])
        if cell["cell_type"] == "code" and IDIOM in text:
            line, col = where(text)
            want.append((number, line, col + 1))
    assert got == want and len(want) == 3
    assert "skipped" not in proc.stderr, proc.stderr  # the magic after a lone \r is recognised
    proc = torchcopy_fix("n.ipynb", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert path.read_bytes().decode() == raw.replace(IDIOM, FIXED_IDIOM)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git to apply the diff")
@pytest.mark.parametrize("name", ["lone_cr.py", "mixed.py", "form_feeds.py", "not_breaks.py"])
def test_diff_applies_with_git_apply(tmp_path, name):
    """``--diff`` splits lines at ``\\n`` only, as ``diff`` and ``patch`` do, so it applies."""
    (tmp_path / name).write_bytes(encoded(name))
    proc = subprocess.run([sys.executable, "-m", "flake8_torchcopy", "--diff", name], cwd=str(tmp_path),
                          capture_output=True, timeout=300)  # bytes: text mode would turn \r into \n
    assert proc.returncode == 1, proc.stderr
    (tmp_path / "fix.diff").write_bytes(proc.stdout)
    applied = subprocess.run(["git", "apply", "fix.diff"], cwd=str(tmp_path),
                             capture_output=True, text=True)
    assert applied.returncode == 0, applied.stderr
    assert (tmp_path / name).read_bytes() == encoded(name).replace(IDIOM.encode(), FIXED_IDIOM.encode())


EXAMPLES = [(r.code, i, ex) for r in ALL_RULES for i, ex in enumerate(r.INVALID) if ex.fixed is not None]


@pytest.mark.parametrize("newline", ["\r", "\r\n"], ids=["cr", "crlf"])
def test_every_fix_example_keeps_other_line_endings(newline):
    """Each rule's fixed examples, written with ``\\r`` or ``\\r\\n``: the same fix, the same endings."""
    for code, i, ex in EXAMPLES:
        src = ex.code.replace("\n", newline)
        found = [(f.code, f.line, f.col) for f in lint_source(src)]
        assert found == [(f.code, f.line, f.col) for f in lint_source(ex.code)], (code, i)
        assert fix_source(src, unsafe=ex.unsafe) == ex.fixed.replace("\n", newline), (code, i)
