"""Inputs that used to crash the tool: a module nested thousands of levels deep (a long
sum), form feeds in the indentation, notebooks whose cell sources are not text.  Each
gives a correct result or one line naming the file (counted as an error), and the other
files of the run are still checked."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys

import pytest

from flake8_torchcopy import cli, engine, fix_source, libcst_edits, lint_source
from flake8_torchcopy.plugin import TorchCopyPlugin
from flake8_torchcopy.source import nesting_depth

EXAMPLE = "import torch\nx = torch.randn(3)\ny = x.clone().detach()\nz = torch.tensor(x)\n"
FIXED = "import torch\nx = torch.randn(3)\ny = x.detach().clone()\nz = x.detach().clone()\n"


def deep(expr: str) -> str:
    """A module whose line 3 is ``expr`` and line 4 a TRC101 finding."""
    return f"import torch\nt = torch.randn(3)\ny = {expr}\nz = torch.tensor(t)\n"


def deep_fixed(expr: str) -> str:
    return deep(expr).replace("z = torch.tensor(t)", "z = t.detach().clone()")


def total(n: int) -> str:
    return " + ".join(["t"] * n)


def python_compiles(source: str) -> bool:
    """Does a fresh ``python`` compile it (as it would to run it)?"""
    proc = subprocess.run([sys.executable, "-c", "import sys; compile(sys.stdin.read(), 'f.py', 'exec')"],
                          input=source, text=True, capture_output=True, timeout=120)
    return proc.returncode == 0


def main(capsys, *args):
    rc = cli.main(["-j", "1", *map(str, args)])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return rc, out, err


def summary_line(err: str) -> str:
    return err.strip().splitlines()[-1]


def write(path, text: str):
    path.write_bytes(text.encode())
    return path


# ---------------------------------------------------------------- deeply nested code


@pytest.mark.parametrize("n", [500, 2000])
def test_long_sum_is_checked(tmp_path, capsys, n):
    f = write(tmp_path / "sum.py", deep(total(n)))
    other = write(tmp_path / "other.py", EXAMPLE)
    rc, out, err = main(capsys, "--check", f, other)
    assert rc == 1
    assert f"{f}:4:5: TRC101 " in out
    assert f"{other}:3:5: TRC103 " in out and f"{other}:4:5: TRC101 " in out
    assert summary_line(err) == "Found 3 issues in 2 files (3 fixable with torchcopy-fix)"


@pytest.mark.parametrize("n", [500, 2000])
def test_long_sum_is_fixed(tmp_path, capsys, n):
    f = write(tmp_path / "sum.py", deep(total(n)))
    other = write(tmp_path / "other.py", EXAMPLE)
    rc, out, err = main(capsys, "--diff", f, other)
    assert rc == 1
    assert "-z = torch.tensor(t)\n+z = t.detach().clone()\n" in out
    assert summary_line(err) == "Would fix 3 issues in 2 files; 0 left (0 fixable with --unsafe-fixes)"
    assert f.read_text() == deep(total(n))

    rc, out, err = main(capsys, f, other)
    assert rc == 1
    assert f.read_text() == deep_fixed(total(n))
    assert other.read_text() == FIXED
    assert summary_line(err) == "Fixed 3 issues in 2 files; 0 left (0 fixable with --unsafe-fixes)"


@pytest.mark.parametrize("expr", [
    "(" * 190 + "t" + ")" * 190,                 # as many parentheses as Python allows
    "torch.neg(" * 150 + "t" + ")" * 150,        # nested calls (torch's: an unknown f(t) may retype t)
    "[" * 150 + "t" + "]" * 150,
    "t" + ".abs()" * 800,                        # a long method chain
    "-" * 1500 + "t",
    " and ".join(["t"] * 1000),                  # flat in ast, nested in LibCST
    "t if t else " * 1000 + "t",
    "lambda: " * 1000 + "t",
    " - ".join(["torch.tensor(t)"] * 300),       # 300 findings inside the deep sum
], ids=["parens", "calls", "lists", "chain", "unary", "and", "ifexp", "lambda", "findings"])
def test_deep_expressions_are_fixed(tmp_path, capsys, expr):
    source = deep(expr)
    assert python_compiles(source)
    f = write(tmp_path / "deep.py", source)
    rc, out, err = main(capsys, "--check", f)
    assert rc == 1 and f"{f}:4:5: TRC101 " in out
    rc, out, err = main(capsys, f)
    assert rc == 1
    assert f.read_text() == deep_fixed(expr).replace("torch.tensor(t)", "t.detach().clone()")
    assert "0 left" in summary_line(err) and "error" not in summary_line(err)


@pytest.mark.parametrize("n", [5000, 20000])
def test_sum_python_cannot_compile_is_a_parse_error(tmp_path, capsys, n):
    """Too deep for Python itself: the usual 'cannot parse' line, counted as an error;
    what Python compiles is checked (the limit depends on the Python version)."""
    source = deep(total(n))
    f = write(tmp_path / "sum.py", source)
    other = write(tmp_path / "other.py", EXAMPLE)
    rc, out, err = main(capsys, f, other)
    assert rc == 2 if not python_compiles(source) else rc in (1, 2)
    assert other.read_text() == FIXED  # the other file is still fixed
    if not python_compiles(source):
        assert f"{f}: cannot parse: too deeply nested for the Python parser\n" in err
        assert f.read_text() == source
        assert summary_line(err) == "Fixed 2 issues in 1 file; 0 left (0 fixable with --unsafe-fixes); 1 error"


def test_too_many_parentheses_is_the_syntax_error_line(tmp_path, capsys):
    source = deep("(" * 300 + "t" + ")" * 300)
    f = write(tmp_path / "parens.py", source)
    other = write(tmp_path / "other.py", EXAMPLE)
    rc, out, err = main(capsys, "--check", f, other)
    assert rc == 2
    assert f"{f}: cannot parse with Python {sys.version_info[0]}.{sys.version_info[1]}: SyntaxError: " \
        "too many nested parentheses (line 3)\n" in err
    assert f"{other}:4:5: TRC101 " in out
    assert summary_line(err) == "Found 2 issues in 1 file (2 fixable with torchcopy-fix); 1 error"


def test_too_deep_for_the_analysis_is_one_line(tmp_path, capsys, monkeypatch):
    """Beyond the analysis's bound (20000 levels; lowered here): one line, an error, not
    '0 left'; the other files are still checked."""
    monkeypatch.setattr(engine, "MAX_LEVELS", 300)
    f = write(tmp_path / "sum.py", deep(total(500)))
    other = write(tmp_path / "other.py", EXAMPLE)
    for mode in ("--check", "--diff"):
        rc, out, err = main(capsys, mode, f, other)
        assert rc == 2
        verb = "check" if mode == "--check" else "fix"
        assert (f"{f}: cannot {verb}: the code is nested 503 levels deep, more than the analysis "
                "handles (300)\n") in err
        assert f"{other}:" in out if mode == "--check" else f"+++ {other}" in out
        assert summary_line(err).endswith("; 1 error")
    assert f.read_text() == deep(total(500))


def test_too_deep_for_libcst_is_one_line(tmp_path, capsys, monkeypatch):
    """Findings are still reported in --check; the fix is refused, naming the file."""
    monkeypatch.setattr(libcst_edits, "MAX_FIX_LEVELS", 300)
    f = write(tmp_path / "sum.py", deep(total(500)))
    other = write(tmp_path / "other.py", EXAMPLE)
    rc, out, err = main(capsys, "--check", f, other)
    assert rc == 1 and f"{f}:4:5: TRC101 " in out
    rc, out, err = main(capsys, f, other)
    assert rc == 2
    assert f"{f}: cannot fix: the code is nested 503 levels deep, more than LibCST handles (300)\n" in err
    assert f.read_text() == deep(total(500))
    assert other.read_text() == FIXED
    assert summary_line(err) == "Fixed 2 issues in 1 file; 0 left (0 fixable with --unsafe-fixes); 1 error"


def test_long_sum_through_the_api_restores_the_recursion_limit():
    limit = sys.getrecursionlimit()
    source = deep(total(2000))
    assert [f.code for f in lint_source(source)] == ["TRC101"]
    assert fix_source(source) == deep_fixed(total(2000))
    assert sys.getrecursionlimit() == limit


def test_nesting_depth_counts_boolop_as_libcst_nests_it():
    assert nesting_depth(ast.parse("a + b + c")) == 6  # Module, Expr, BinOp, BinOp, Name, Load
    assert nesting_depth(ast.parse(" and ".join("x" * 10))) == 14  # the BoolOp counts 10


def test_plugin_reports_in_long_sum():
    source = deep(total(2000))
    found = list(TorchCopyPlugin(ast.parse(source), source.splitlines(True), "sum.py").run())
    assert [(line, col, text.split()[0]) for line, col, text, _ in found] == [(4, 4, "TRC101")]


def test_flake8_reports_in_long_sum(tmp_path):
    """Through flake8 itself.  pyflakes (F) overflows the recursion limit on this file and
    flake8 then stops with its own message: it is left out here."""
    f = write(tmp_path / "sum.py", deep(total(500)))
    code = ("import sys, flake8.plugins.pyflakes as pf\n"
            "pf.FlakesChecker.__init__ = lambda self, tree, filename: None\n"
            "pf.FlakesChecker.run = lambda self: iter(())\n"
            "from flake8.main.cli import main\n"
            "raise SystemExit(main(sys.argv[1:]))\n")
    proc = subprocess.run([sys.executable, "-c", code, "--select", "TRC", str(f)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == f"{f}:4:5: TRC101 use t.detach().clone() instead of torch.tensor(t): " \
                          "copy-constructing from a tensor is slower and warns\n"
    assert "Traceback" not in proc.stderr


# ---------------------------------------------------------------- form feeds

FORM_FEEDS = {
    "body_first_line": "import torch\ndef f():\n\x0c    t = torch.randn(3)\n    return torch.tensor(t)\n",
    "file_start": "\x0cimport torch\nt = torch.randn(3)\nu = torch.tensor(t)\n",
    "between_statements": "import torch\n\x0c\nt = torch.randn(3)\n\x0cu = torch.tensor(t)\n\x0c",
    "class_body": ("import torch\nclass A:\n\x0c    def f(self):\n\x0c        t = torch.randn(3)\n"
                   "        if t.any():\n            u = t.clone().detach()\n        return torch.tensor(t)\n"
                   "\x0c    x = 1\n"),
    "nested_block": ("import torch\ndef f():\n    t = torch.randn(3)\n    if t.any():\n"
                     "\x0c        u = t.clone().detach()\n        v = 1\n    return torch.tensor(t)\n"),
    "after_spaces": "import torch\ndef f():\n    t = torch.randn(3)\n  \x0c    return torch.tensor(t)\n",
    "crlf": "import torch\r\ndef f():\r\n\x0c    t = torch.randn(3)\r\n    return torch.tensor(t)\r\n",
    "tabs": "import torch\ndef f():\n\t\x0c\tt = torch.randn(3)\n\treturn torch.tensor(t)\n",
    "comment_line": "import torch\ndef f():\n\x0c    # c\n\x0c    t = torch.randn(3)\n    return torch.tensor(t)\n",
    "in_string": ('import torch\ndef f():\n\x0c    s = """\n\x0c  x"""\n    t = torch.randn(3)\n'
                  "    return torch.tensor(t)\n"),
    "continuation": ("import torch\ndef f():\n\x0c    a = (1,\n\x0c    2)\n    b = 1 + \\\n\x0c  2\n"
                     "    t = torch.randn(3)\n    return torch.tensor(t)\n"),
    "in_the_fixed_call": ("import torch\ndef f():\n\x0c    t = torch.randn(3)\n"
                          "    return torch.tensor(\n\x0c        t)\n"),
}


def ff_fixed(source: str) -> str:
    return (source.replace("torch.tensor(t)", "t.detach().clone()")
            .replace("torch.tensor(\n\x0c        t)", "t.detach().clone()")
            .replace("t.clone().detach()", "t.detach().clone()"))


@pytest.mark.parametrize("name", sorted(FORM_FEEDS))
def test_form_feed_fixed_keeping_every_other_byte(name):
    source = FORM_FEEDS[name]
    assert python_compiles(source)
    assert fix_source(source) == ff_fixed(source)


def test_form_feed_files_through_the_cli(tmp_path, capsys):
    files = {name: tmp_path / f"{name}.py" for name in FORM_FEEDS}
    for name, path in files.items():
        path.write_bytes(FORM_FEEDS[name].encode())
    rc, out, err = main(capsys, "--check", tmp_path)
    assert rc == 1 and out.count("TRC10") == 14
    rc, out, err = main(capsys, "--diff", tmp_path)
    assert rc == 1 and "error" not in err and "refused" not in err and "LibCST" not in err
    rc, out, err = main(capsys, tmp_path)
    assert rc == 1 and "error" not in err
    assert summary_line(err) == "Fixed 14 issues in 12 files; 0 left (0 fixable with --unsafe-fixes)"
    for name, path in files.items():
        assert path.read_bytes() == ff_fixed(FORM_FEEDS[name]).encode(), name
        assert python_compiles(path.read_text())


def test_form_feed_in_a_notebook_cell(tmp_path, capsys):
    doc = notebook([code(["import torch\n", "def f():\n", "\x0c    t = torch.randn(3)\n",
                          "    return torch.tensor(t)\n"])])
    nb = tmp_path / "nb.ipynb"
    nb.write_text(doc)
    rc, out, err = main(capsys, nb)
    assert rc == 1 and "error" not in err
    assert nb.read_text() == doc.replace("torch.tensor(t)", "t.detach().clone()")


def test_form_feed_through_stdin(tmp_path):
    source = FORM_FEEDS["body_first_line"]
    proc = subprocess.run([sys.executable, "-m", "flake8_torchcopy", "-"], input=source.encode(),
                          capture_output=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout == ff_fixed(source).encode()


def test_indent_form_feeds_only_cut_statement_indentation():
    source = FORM_FEEDS["continuation"]
    cuts = libcst_edits.indent_form_feeds(source)
    assert [source[a:b] for a, b in cuts] == ["\x0c"]
    assert cuts[0][0] == source.index("\x0c    a = (")
    assert libcst_edits.indent_form_feeds(FORM_FEEDS["in_string"]) == [(22, 23)]
    assert FORM_FEEDS["in_string"][22:27] == "\x0c    "
    spaces = FORM_FEEDS["after_spaces"]
    assert [spaces[a:b] for a, b in libcst_edits.indent_form_feeds(spaces)] == ["  \x0c"]


# ---------------------------------------------------------------- malformed notebooks


def code(source):
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}


def notebook(cells, metadata=None) -> str:
    doc = {"cells": cells, "metadata": {"kernelspec": {"language": "python", "name": "python3"}}
           if metadata is None else metadata, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(doc, indent=1)


GOOD_CELL = code(["import torch\n", "x = torch.randn(3)\n", "y = x.clone().detach()\n"])
MD = {"cell_type": "markdown", "metadata": {}, "source": ["# title\n"]}

BAD_NOTEBOOKS = {
    # name: (document, the reason)
    "int_in_source": (notebook([GOOD_CELL, MD, code(["x = 1\n", 3])]),
                      "not a valid notebook: cell 3 source is not text"),
    "null_in_source": (notebook([code([None]), GOOD_CELL]), "not a valid notebook: cell 1 source is not text"),
    "list_in_source": (notebook([GOOD_CELL, code([["x = 1\n"]])]), "not a valid notebook: cell 2 source is not text"),
    "source_number": (notebook([GOOD_CELL, MD, code(5)]), "not a valid notebook: cell 3 source is not text"),
    "source_null": (notebook([GOOD_CELL, code(None)]), "not a valid notebook: cell 2 source is not text"),
    "source_object": (notebook([GOOD_CELL, code({"a": "b"})]), "not a valid notebook: cell 2 source is not text"),
    "no_source": (notebook([GOOD_CELL, {"cell_type": "code", "metadata": {}}]),
                  "not a valid notebook: code cell 2 has no source"),
    "cell_not_object": (notebook([GOOD_CELL, 3]), "not a valid notebook: cell 2 is not a JSON object"),
    "cells_not_list": (json.dumps({"cells": {"a": GOOD_CELL}, "metadata": {}, "nbformat": 4}),
                       "not an nbformat 4 notebook (no 'cells' list)"),
    "no_cells": (json.dumps({"metadata": {}, "nbformat": 4}), "not an nbformat 4 notebook (no 'cells' list)"),
    "not_an_object": ("[1, 2]", "invalid notebook JSON: not one JSON object"),
    "not_json": ('{"cells": [', "invalid notebook JSON: "),
}


@pytest.mark.parametrize("mode", ["--check", "--diff", None])
@pytest.mark.parametrize("name", sorted(BAD_NOTEBOOKS))
def test_malformed_notebook_is_one_line(tmp_path, capsys, name, mode):
    doc, reason = BAD_NOTEBOOKS[name]
    nb = tmp_path / f"{name}.ipynb"
    nb.write_text(doc)
    other = write(tmp_path / "other.py", EXAMPLE)
    rc, out, err = main(capsys, *([mode] if mode else []), nb, other)
    assert rc == 2
    lines = [line for line in err.splitlines() if line.startswith(str(nb))]
    assert len(lines) == 1 and lines[0].startswith(f"{nb}: {reason}"), err
    assert nb.read_text() == doc
    assert summary_line(err).endswith("; 1 error")
    if mode == "--check":
        assert f"{other}:3:5: TRC103" in out
        assert summary_line(err) == "Found 2 issues in 1 file (2 fixable with torchcopy-fix); 1 error"
    elif mode == "--diff":
        assert f"+++ {other}" in out
    else:
        assert other.read_text() == FIXED


def test_malformed_notebook_through_stdin(tmp_path):
    doc = BAD_NOTEBOOKS["int_in_source"][0]
    proc = subprocess.run([sys.executable, "-m", "flake8_torchcopy", "--stdin-filename", "nb.ipynb", "-"],
                          input=doc.encode(), capture_output=True, timeout=120, cwd=tmp_path)
    err = proc.stderr.decode()
    assert proc.returncode == 2
    assert "nb.ipynb: not a valid notebook: cell 3 source is not text\n" in err
    assert "Traceback" not in err and "internal error" not in err
    assert proc.stdout == doc.encode()  # passed through unchanged


def test_notebook_in_another_language_is_skipped(tmp_path, capsys):
    doc = notebook([GOOD_CELL], metadata={"kernelspec": {"language": "R", "name": "ir"}})
    nb = tmp_path / "r.ipynb"
    nb.write_text(doc)
    rc, out, err = main(capsys, nb)
    assert rc == 0 and out == ""
    assert nb.read_text() == doc
    assert summary_line(err) == "All checks passed!"


@pytest.mark.parametrize("metadata", [[1, 2], {"kernelspec": {"language": 3}}, {"language_info": 5}])
def test_odd_notebook_metadata_is_python(tmp_path, capsys, metadata):
    nb = tmp_path / "nb.ipynb"
    nb.write_text(notebook([MD, GOOD_CELL], metadata=metadata))
    rc, out, err = main(capsys, "--check", nb)
    assert rc == 1 and f"{nb}:cell 2:3:5: TRC103 " in out


def test_markdown_cell_sources_are_not_read(tmp_path, capsys):
    """Only code cells are linted: a markdown cell with an odd source is left alone."""
    nb = tmp_path / "nb.ipynb"
    doc = notebook([{"cell_type": "markdown", "metadata": {}, "source": [1, None]}, GOOD_CELL])
    nb.write_text(doc)
    rc, out, err = main(capsys, nb)
    assert rc == 1
    assert nb.read_text() == doc.replace("x.clone().detach()", "x.detach().clone()")


def test_errors_in_the_summary_line_of_a_subprocess_run(tmp_path):
    """End to end: a bad notebook, a deep sum and a good file in one run (several workers)."""
    write(tmp_path / "bad.ipynb", BAD_NOTEBOOKS["source_number"][0])
    write(tmp_path / "sum.py", deep(total(500)))
    write(tmp_path / "ff.py", FORM_FEEDS["body_first_line"])
    write(tmp_path / "good.py", EXAMPLE)
    env = dict(os.environ)
    env.pop("CI", None)
    proc = subprocess.run([sys.executable, "-m", "flake8_torchcopy", "-j", "2", "."], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 5  # bad.ipynb's line, three "Rewriting", the summary
    assert "bad.ipynb: not a valid notebook: cell 3 source is not text\n" in proc.stderr
    assert summary_line(proc.stderr) == "Fixed 4 issues in 3 files; 0 left (0 fixable with --unsafe-fixes); 1 error"
    assert (tmp_path / "sum.py").read_text() == deep_fixed(total(500))
    assert (tmp_path / "ff.py").read_text() == ff_fixed(FORM_FEEDS["body_first_line"])
    assert (tmp_path / "good.py").read_text() == FIXED
