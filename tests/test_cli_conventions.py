"""``torchcopy-fix`` behaves as ruff and pyupgrade users expect (issue 12): a typo never
turns CI green, a file's permission is respected, stdout stays parsable, notebook
positions survive every format, pre-commit honours excludes and .gitignore."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

EXAMPLE = "import torch\nx = torch.randn(3)\ny = x.clone().detach()\nz = torch.tensor(x)\n"
FIXED = "import torch\nx = torch.randn(3)\ny = x.detach().clone()\nz = x.detach().clone()\n"


def run(*args, cwd, stdin=None):
    env = dict(os.environ)
    env.pop("CI", None)
    proc = subprocess.run([sys.executable, "-m", "flake8_torchcopy", *map(str, args)], cwd=str(cwd),
                          input=stdin, capture_output=True, env=env, timeout=120)
    out, err = proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    return proc.returncode, out, err


# ---------------------------------------------------------------- item 2: selectors
@pytest.mark.parametrize("option", ["--select", "--ignore", "--extend-select"])
@pytest.mark.parametrize("selector", ["XYZ", "TRC999", "TRC3", "E", "T", "trc101"])
def test_unknown_selector_on_the_command_line_is_an_error(tmp_path, option, selector):
    (tmp_path / "a.py").write_text(EXAMPLE)
    rc, out, err = run("--check", option, f"TRC101,{selector}", "a.py", cwd=tmp_path)
    assert rc == 2
    assert f"unknown rule selector {selector!r}" in err and option in err
    assert out == ""


@pytest.mark.parametrize("key", ["select", "ignore", "extend-select"])
def test_unknown_selector_in_the_config_is_an_error(tmp_path, key):
    (tmp_path / "pyproject.toml").write_text(f'[tool.torchcopy]\n{key} = ["XYZ"]\n')
    (tmp_path / "a.py").write_text(EXAMPLE)
    rc, out, err = run("a.py", cwd=tmp_path)
    assert rc == 2
    assert "unknown rule selector 'XYZ'" in err and key in err and "pyproject.toml" in err
    assert (tmp_path / "a.py").read_text() == EXAMPLE


def test_unknown_selector_in_per_file_ignores_is_an_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.torchcopy.per-file-ignores]\n"a.py" = ["TRC9"]\n')
    (tmp_path / "a.py").write_text(EXAMPLE)
    rc, _, err = run("--check", "a.py", cwd=tmp_path)
    assert rc == 2 and "unknown rule selector 'TRC9'" in err and "per-file-ignores" in err


@pytest.mark.parametrize("body", ['select = "TRC101"\n', 'ignore = "TRC1,TRC2"\n', 'exclude = "build"\n',
                                  '[tool.torchcopy.per-file-ignores]\n"a.py" = "TRC101"\n'])
def test_a_string_where_a_list_is_wanted_is_an_error(tmp_path, body):
    (tmp_path / "pyproject.toml").write_text("[tool.torchcopy]\n" + body)
    (tmp_path / "a.py").write_text(EXAMPLE)
    rc, _, err = run("--check", "a.py", cwd=tmp_path)
    assert rc == 2 and "must be a list of strings, not str" in err


def test_all_selects_every_rule_and_prefixes_stay_valid(tmp_path):
    (tmp_path / "a.py").write_text(EXAMPLE)
    codes = lambda out: sorted(line.split()[1] for line in out.splitlines() if ": TRC" in line)  # noqa: E731
    assert codes(run("--check", "--select", "ALL", "a.py", cwd=tmp_path)[1]) == ["TRC101", "TRC103"]
    assert codes(run("--check", "--select", "TRC1", "a.py", cwd=tmp_path)[1]) == ["TRC101", "TRC103"]
    assert codes(run("--check", "--select", "ALL", "--ignore", "TRC103", "a.py", cwd=tmp_path)[1]) == ["TRC101"]
    rc, out, _ = run("--check", "--select", "ALL", "--ignore", "ALL", "a.py", cwd=tmp_path)
    assert rc == 0 and codes(out) == []


# ---------------------------------------------------------------- item 4: --diff keeps stdout a patch
@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_diff_stdout_is_the_diff_alone(tmp_path, fmt):
    """As ruff: with --diff stdout carries only the diff (whatever --output-format); the
    findings left go to stderr."""
    left = "w = torch.tensor([x, x])\n"  # TRC108: an unsafe fix, left without --unsafe-fixes
    (tmp_path / "a.py").write_text(EXAMPLE + left)
    rc, out, err = run("--diff", "-q", "--output-format", fmt, "a.py", cwd=tmp_path)
    assert rc == 1
    assert out.startswith("--- a.py\n+++ a.py\n")
    assert all(line[:1] in " +-@\\" for line in out.splitlines()), out
    assert "TRC108" in err and "TRC108" not in out
    if fmt == "json":
        assert [r["code"] for r in json.loads(err)] == ["TRC108"]
    patched = tmp_path / "patched"
    patched.mkdir()
    shutil.copy(tmp_path / "a.py", patched / "a.py")
    if shutil.which("patch"):
        subprocess.run(["patch", "-s", "-p0"], input=out.encode(), cwd=str(patched), check=True)
        assert (patched / "a.py").read_text() == FIXED + left


# ---------------------------------------------------------------- item 5: notebook cells everywhere
def _notebook(tmp_path):
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# title\n"]},
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
         "source": ["import torch\n", "x = torch.randn(3)\n"]},
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
         "source": ["y = 1\n", "z = \"é\"; w = x.clone().detach()"]},
    ]
    doc = {"cells": cells, "metadata": {"language_info": {"name": "python"}}, "nbformat": 4,
           "nbformat_minor": 5}
    text = json.dumps(doc, indent=1)
    (tmp_path / "n.ipynb").write_text(text)
    # where the finding lies in the JSON text: `x.clone()` in the last source line
    raw_line = next(i for i, line in enumerate(text.splitlines(), 1) if "x.clone()" in line)
    raw_col = text.splitlines()[raw_line - 1].index("x.clone()") + 1
    return raw_line, raw_col


def test_notebook_findings_keep_their_cell_in_github_output(tmp_path):
    raw_line, raw_col = _notebook(tmp_path)
    rc, out, _ = run("--check", "--output-format", "github", "n.ipynb", cwd=tmp_path)
    assert rc == 1
    [line] = out.splitlines()
    col = "z = \"é\"; w = ".__len__() + 1
    assert line.startswith(f"::warning file=n.ipynb,line={raw_line},col={raw_col},")
    assert f"title=TRC103::cell 3:2:{col}: " in line


def test_notebook_findings_keep_their_cell_in_sarif_output(tmp_path):
    raw_line, raw_col = _notebook(tmp_path)
    rc, out, _ = run("--check", "--output-format", "sarif", "n.ipynb", cwd=tmp_path)
    assert rc == 1
    [result] = json.loads(out)["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (raw_line, raw_col)
    assert region["endLine"] == raw_line and region["endColumn"] > raw_col
    assert result["properties"] == {"cell": 3, "cellRow": 2, "cellColumn": len("z = \"é\"; w = ") + 1}
    assert result["message"]["text"].startswith("cell 3:2:")


def test_notebook_positions_after_a_fix_are_those_of_the_written_file(tmp_path):
    cells = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
              "source": ["import torch\n", "x = torch.randn(3)\n", "y = torch.tensor(x); w = torch.tensor([x, x])\n"]}]
    doc = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "n.ipynb").write_text(json.dumps(doc, indent=1))
    rc, out, _ = run("--output-format", "github", "n.ipynb", cwd=tmp_path)
    assert rc == 1
    text = (tmp_path / "n.ipynb").read_text()
    assert "y = x.detach().clone(); w = torch.tensor([x, x])" in text  # TRC101 fixed, TRC108 left
    raw_line = next(i for i, line in enumerate(text.splitlines(), 1) if "w = torch" in line)
    raw_col = text.splitlines()[raw_line - 1].index("torch.tensor([") + 1
    [line] = out.splitlines()
    assert line.startswith(f"::warning file=n.ipynb,line={raw_line},col={raw_col},")
    assert "title=TRC108::cell 1:3:" in line
