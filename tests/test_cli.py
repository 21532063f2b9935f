"""End-to-end tests of ``torchcopy-fix``, run as a subprocess on temporary trees."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from flake8_torchcopy.rules import ALL_RULES

EXAMPLE = "import torch\nx = torch.randn(3)\ny = x.clone().detach()\nz = torch.tensor(x)\n"
FIXED = "import torch\nx = torch.randn(3)\ny = x.detach().clone()\nz = x.detach().clone()\n"
CLEAN = "import torch\nx = torch.randn(3)\ny = x + 1\n"


def run(*args, cwd, stdin=None, env=None):
    full_env = dict(os.environ)
    full_env.pop("CI", None)
    if env:
        full_env.update(env)
    proc = subprocess.run(
        [sys.executable, "-m", "flake8_torchcopy", *map(str, args)],
        cwd=str(cwd),
        input=stdin,
        capture_output=True,
        env=full_env,
        timeout=120,
    )
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    return proc.returncode, out, err


def col_of(source: str, line: int, needle: str) -> int:
    """1-based column of ``needle`` on 1-based ``line`` of ``source``."""
    return source.splitlines()[line - 1].index(needle) + 1


def finding_lines(out: str):
    return [l for l in out.splitlines() if ": TRC" in l]


def unsafe_example():
    for rule in ALL_RULES:
        for ex in getattr(rule, "INVALID", ()):
            if ex.unsafe and ex.fixed is not None:
                return rule.code, ex
    pytest.skip("no rule with an unsafe fix example")


# ---------------------------------------------------------------- modes
def test_check_reports_with_one_based_columns_and_writes_nothing(tmp_path):
    f = tmp_path / "a.py"
    f.write_text(EXAMPLE)
    rc, out, err = run("--check", "a.py", cwd=tmp_path)
    assert rc == 1
    assert f.read_text() == EXAMPLE
    lines = finding_lines(out)
    assert f"a.py:3:{col_of(EXAMPLE, 3, 'x.clone()')}: TRC103 " in out
    assert f"a.py:4:{col_of(EXAMPLE, 4, 'torch.tensor')}: TRC101 " in out
    assert len(lines) == 2
    assert "Found 2 issues" in err


def test_default_fixes_in_place_and_second_run_is_noop(tmp_path):
    f = tmp_path / "a.py"
    f.write_text(EXAMPLE)
    rc, out, err = run("a.py", cwd=tmp_path)
    assert rc == 1
    assert f.read_text() == FIXED
    assert "Rewriting a.py" in err
    assert "Fixed 2 issues in 1 file; 0 left" in err
    rc, out, err = run("a.py", cwd=tmp_path)
    assert rc == 0
    assert f.read_text() == FIXED
    assert "Rewriting" not in err
    assert out == ""


def test_clean_tree_exits_zero(tmp_path):
    (tmp_path / "a.py").write_text(CLEAN)
    for args in ([], ["--check"], ["--diff"]):
        rc, out, err = run(*args, ".", cwd=tmp_path)
        assert rc == 0, (args, out, err)
        assert out == ""


def test_diff_writes_nothing_and_shows_the_fix(tmp_path):
    f = tmp_path / "a.py"
    f.write_text(EXAMPLE)
    before = os.stat(f).st_mtime_ns
    rc, out, err = run("--diff", "a.py", cwd=tmp_path)
    assert rc == 1
    assert f.read_text() == EXAMPLE and os.stat(f).st_mtime_ns == before
    assert "-y = x.clone().detach()\n" in out
    assert "+y = x.detach().clone()\n" in out
    assert "+z = x.detach().clone()\n" in out
    assert out.startswith("--- a.py\n+++ a.py\n")
    # the diff really turns the file into the fixed one
    old = EXAMPLE.splitlines(keepends=True)
    new = [l[1:] for l in out.splitlines(keepends=True)[3:] if l[:1] in " +"]
    assert "".join(new) == FIXED and len(old) == len(FIXED.splitlines())


def test_unsafe_fixes_only_with_the_flag(tmp_path):
    code, ex = unsafe_example()
    f = tmp_path / "u.py"
    f.write_text(ex.code)
    rc, out, err = run("u.py", cwd=tmp_path)
    assert f.read_text() == ex.code  # an unsafe fix is not applied by default
    assert rc == 1 and code in out
    assert "fixable with --unsafe-fixes" in err and "(0 fixable" not in err
    rc, out, err = run("--unsafe-fixes", "u.py", cwd=tmp_path)
    assert rc == 1
    assert f.read_text() == ex.fixed
    assert code not in out


# ---------------------------------------------------------------- selection
def test_select_ignore_extend_select(tmp_path):
    (tmp_path / "a.py").write_text(EXAMPLE)
    rc, out, _ = run("--check", "--select", "TRC101", "a.py", cwd=tmp_path)
    assert [l.split()[1] for l in finding_lines(out)] == ["TRC101"]
    rc, out, _ = run("--check", "--ignore", "TRC1", "a.py", cwd=tmp_path)
    assert rc == 0 and finding_lines(out) == []
    rc, out, _ = run("--check", "--select", "TRC2", "--extend-select", "TRC103", "a.py", cwd=tmp_path)
    assert [l.split()[1] for l in finding_lines(out)] == ["TRC103"]
    # fixing honours the selection too
    rc, out, err = run("--select", "TRC103", "a.py", cwd=tmp_path)
    text = (tmp_path / "a.py").read_text()
    assert "x.detach().clone()" in text and "torch.tensor(x)" in text


def test_bad_code_is_a_usage_error(tmp_path):
    (tmp_path / "a.py").write_text(EXAMPLE)
    rc, out, err = run("--select", "not-a-code", "a.py", cwd=tmp_path)
    assert rc == 2 and "not-a-code" in err
    assert (tmp_path / "a.py").read_text() == EXAMPLE


def test_usage_errors_exit_2(tmp_path):
    assert run("--jobs", "x", ".", cwd=tmp_path)[0] == 2
    assert run("--check", "--diff", ".", cwd=tmp_path)[0] == 2
    rc, out, err = run("missing.py", cwd=tmp_path)  # as ruff: an E902 finding, exit 1
    assert rc == 1 and "missing.py:1:1: E902 No such file or directory" in out


def test_exclude_and_discovery(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(EXAMPLE)
    (tmp_path / "pkg" / "stub.pyi").write_text(EXAMPLE)
    (tmp_path / "pkg" / "notes.txt").write_text(EXAMPLE)
    (tmp_path / "gen.py").write_text("# @generated by a tool\n" + EXAMPLE)
    for skipped in ("build", "dist", "node_modules", ".tox", ".nox", ".venv", "__pycache__", ".git", ".hg"):
        (tmp_path / skipped).mkdir()
        (tmp_path / skipped / "s.py").write_text(EXAMPLE)
    (tmp_path / "env").mkdir()
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr\n")
    (tmp_path / "env" / "v.py").write_text(EXAMPLE)
    (tmp_path / "skipme").mkdir()
    (tmp_path / "skipme" / "x.py").write_text(EXAMPLE)
    os.symlink(tmp_path / "pkg", tmp_path / "linked", target_is_directory=True)

    rc, out, err = run("--check", "--exclude", "skipme", ".", cwd=tmp_path)
    files = sorted({l.split(":")[0] for l in finding_lines(out)})
    assert files == [os.path.join("pkg", "a.py"), os.path.join("pkg", "stub.pyi")]
    # a file named explicitly is always taken, even @generated or excluded
    rc, out, err = run("--check", "--exclude", "gen.py", "gen.py", cwd=tmp_path)
    assert rc == 1 and "gen.py:" in out
    # ... unless --force-exclude
    rc, out, err = run("--check", "--force-exclude", "--exclude", "gen.py", "gen.py", cwd=tmp_path)
    assert rc == 0 and out == ""


# ---------------------------------------------------------------- exit codes, jobs
def test_exit_zero(tmp_path):
    f = tmp_path / "a.py"
    f.write_text(EXAMPLE)
    assert run("--check", "--exit-zero", "a.py", cwd=tmp_path)[0] == 0
    rc, out, err = run("--exit-zero", "a.py", cwd=tmp_path)
    assert rc == 0 and f.read_text() == FIXED


def _tree(root: Path, n: int = 12):
    for i in range(n):
        sub = root / f"d{i % 3}"
        sub.mkdir(exist_ok=True)
        (sub / f"m{i}.py").write_text(EXAMPLE if i % 2 else CLEAN + "w = torch.tensor(x)\n")
    (root / "d0" / "bad.py").write_text("def (:\n")


def test_jobs_give_the_same_result(tmp_path):
    results = []
    for jobs in ("1", "2"):
        root = tmp_path / f"j{jobs}"
        root.mkdir()
        _tree(root)
        check = run("--check", "-j", jobs, ".", cwd=root)
        fix = run("-j", jobs, ".", cwd=root)
        contents = {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.py"))}
        results.append((check, fix, contents))
    assert results[0] == results[1]
    (rc, out, err), _, _ = results[0]
    assert rc == 2 and "bad.py" in err and len(finding_lines(out)) > 0


# ---------------------------------------------------------------- stdin
def test_stdin_fix_writes_source_to_stdout(tmp_path):
    rc, out, err = run("-", "--stdin-filename", "x.py", cwd=tmp_path, stdin=EXAMPLE.encode())
    assert out == FIXED
    assert rc == 1
    assert list(tmp_path.iterdir()) == []


def test_stdin_check(tmp_path):
    rc, out, err = run("--check", "--stdin-filename", "pkg/x.py", "-", cwd=tmp_path, stdin=EXAMPLE.encode())
    assert rc == 1
    assert f"pkg/x.py:3:{col_of(EXAMPLE, 3, 'x.clone()')}: TRC103" in out


def test_stdin_bad_source_is_echoed_and_exit_2(tmp_path):
    bad = b"def (:\n"
    rc, out, err = run("-", cwd=tmp_path, stdin=bad)
    assert rc == 2 and out.encode() == bad and "SyntaxError" in err


# ---------------------------------------------------------------- output formats
def test_json_output(tmp_path):
    (tmp_path / "a.py").write_text(EXAMPLE)
    rc, out, err = run("--check", "--output-format", "json", "a.py", cwd=tmp_path)
    data = json.loads(out)
    assert rc == 1 and {d["code"] for d in data} == {"TRC101", "TRC103"}
    d = next(d for d in data if d["code"] == "TRC103")
    assert d["filename"] == "a.py"
    assert d["location"] == {"row": 3, "column": col_of(EXAMPLE, 3, "x.clone()")}
    assert d["end_location"]["row"] == 3
    assert d["url"].endswith("TRC103.md")
    assert d["fix"]["applicability"] == "safe"
    edits = d["fix"]["edits"]
    assert edits and all(e["location"]["row"] == e["end_location"]["row"] == 3 for e in edits)
    line = EXAMPLE.splitlines()[2]
    for edit in sorted(edits, key=lambda e: e["location"]["column"], reverse=True):
        start, end = edit["location"]["column"] - 1, edit["end_location"]["column"] - 1
        line = line[:start] + edit["content"] + line[end:]
    assert line == FIXED.splitlines()[2]


def test_sarif_output(tmp_path):
    (tmp_path / "a.py").write_text(EXAMPLE)
    rc, out, err = run("--check", "--output-format", "sarif", "a.py", cwd=tmp_path)
    doc = json.loads(out)
    assert doc["version"] == "2.1.0"
    (r,) = doc["runs"]
    ids = [rule["id"] for rule in r["tool"]["driver"]["rules"]]
    assert len(ids) == len(set(ids)) and {"TRC101", "TRC103"} <= set(ids)
    assert {res["ruleId"] for res in r["results"]} == {"TRC101", "TRC103"}
    for res in r["results"]:
        assert ids[res["ruleIndex"]] == res["ruleId"]
        region = res["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] in (3, 4)


def test_github_output(tmp_path):
    (tmp_path / "a.py").write_text(EXAMPLE)
    rc, out, err = run("--check", "--output-format", "github", "a.py", cwd=tmp_path)
    lines = out.splitlines()
    assert len(lines) == 2
    col = col_of(EXAMPLE, 3, "x.clone()")
    assert any(l.startswith(f"::warning file=a.py,line=3,col={col},") and ",title=TRC103::" in l for l in lines)


def test_show_fixes_quiet_version(tmp_path):
    (tmp_path / "a.py").write_text(EXAMPLE)
    rc, out, err = run("--show-fixes", "--diff", "a.py", cwd=tmp_path)
    assert "a.py:3:" in err and "TRC103" in err
    rc, out, err = run("-q", "a.py", cwd=tmp_path)
    assert rc == 1 and err == "" and out == ""
    rc, out, err = run("--version", cwd=tmp_path)
    from flake8_torchcopy import __version__

    assert rc == 0 and __version__ in out


def test_trust_annotations_flag(tmp_path):
    src = "import torch\n\ndef f(t: torch.Tensor):\n    return torch.tensor(t)\n"
    (tmp_path / "a.py").write_text(src)
    rc0, out0, _ = run("--check", "a.py", cwd=tmp_path)
    rc1, out1, _ = run("--check", "--trust-annotations", "a.py", cwd=tmp_path)
    assert rc0 in (0, 1) and rc1 in (0, 1)
    assert set(finding_lines(out0)) <= set(finding_lines(out1))


# ---------------------------------------------------------------- configuration
def test_config_select_and_per_file_ignores(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.torchcopy]\nselect = ["TRC103"]\n'
        '[tool.torchcopy.per-file-ignores]\n"tests/*" = ["TRC1"]\n'
    )
    (tmp_path / "src").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "src" / "a.py").write_text(EXAMPLE)
    (tmp_path / "tests" / "t.py").write_text(EXAMPLE)
    rc, out, err = run("--check", "src", "tests", cwd=tmp_path)
    assert [l.split()[1] for l in finding_lines(out)] == ["TRC103"]
    assert all(l.startswith(os.path.join("src", "a.py")) for l in finding_lines(out))
    # the command line wins; config is found from a subdirectory too
    rc, out, err = run("--check", "--select", "TRC101", "a.py", cwd=tmp_path / "src")
    assert [l.split()[1] for l in finding_lines(out)] == ["TRC101"]


def test_config_unsafe_fixes_and_exclude(tmp_path):
    code, ex = unsafe_example()
    (tmp_path / "pyproject.toml").write_text('[tool.torchcopy]\nunsafe-fixes = true\nexclude = ["skip"]\n')
    (tmp_path / "u.py").write_text(ex.code)
    (tmp_path / "skip").mkdir()
    (tmp_path / "skip" / "s.py").write_text(ex.code)
    rc, out, err = run(".", cwd=tmp_path)
    assert (tmp_path / "u.py").read_text() == ex.fixed
    assert (tmp_path / "skip" / "s.py").read_text() == ex.code
    (tmp_path / "u.py").write_text(ex.code)
    run("--no-unsafe-fixes", ".", cwd=tmp_path)
    assert (tmp_path / "u.py").read_text() == ex.code


@pytest.mark.parametrize(
    "body, words",
    [
        ("selec = ['TRC']\n", ["selec"]),
        ("unsafe-fixes = 'yes'\n", ["unsafe-fixes"]),
        ("select = 3\n", ["select"]),
        ("per-file-ignores = ['x']\n", ["per-file-ignores"]),
        ("ignore = ['trc-1']\n", ["ignore"]),
    ],
)
def test_config_errors_name_key_and_file(tmp_path, body, words):
    (tmp_path / "pyproject.toml").write_text("[tool.torchcopy]\n" + body)
    (tmp_path / "a.py").write_text(EXAMPLE)
    rc, out, err = run("a.py", cwd=tmp_path)
    assert rc == 2
    assert "pyproject.toml" in err and all(w in err for w in words)
    assert (tmp_path / "a.py").read_text() == EXAMPLE


def test_invalid_toml_is_a_config_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.torchcopy\nselect = \n")
    (tmp_path / "a.py").write_text(EXAMPLE)
    rc, out, err = run("a.py", cwd=tmp_path)
    assert rc == 2 and "pyproject.toml" in err


# ---------------------------------------------------------------- noqa
def test_noqa_end_to_end(tmp_path):
    """flake8's noqa (tests/test_noqa_parity.py runs a whole matrix against flake8)."""
    src = (
        "import torch\nx = torch.randn(3)\n"
        "y = x.clone().detach()  # noqa: TRC103\n"
        "z = torch.tensor(\n    x\n)  # noqa\n"
        "w = x.clone().detach()  # noqa: TRC101\n"
        "s = '# noqa'; v = x.clone().detach()\n"
    )
    f = tmp_path / "a.py"
    f.write_text(src)
    rc, out, err = run("--check", "a.py", cwd=tmp_path)
    # the noqa on line 6 is not on the finding's line (4); "# noqa" in a string counts
    assert sorted(int(l.split(":")[1]) for l in finding_lines(out)) == [4, 7]
    rc, out, err = run("a.py", cwd=tmp_path)
    new = f.read_text().splitlines()
    assert new[2] == "y = x.clone().detach()  # noqa: TRC103"
    assert new[3] == "z = x.detach().clone()  # noqa"  # the comment stays after the call
    assert new[4] == "w = x.detach().clone()  # noqa: TRC101"
    assert new[5] == "s = '# noqa'; v = x.clone().detach()"
    f.write_text("# flake8: noqa\n" + EXAMPLE)
    assert run("a.py", cwd=tmp_path)[0] == 0 and f.read_text() == "# flake8: noqa\n" + EXAMPLE


# ---------------------------------------------------------------- notebooks
def _notebook(cells, indent=1):
    nb = {
        "cells": cells,
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(nb, indent=indent, ensure_ascii=False) + "\n"


def _code(source):
    return {"cell_type": "code", "execution_count": None, "id": "c", "metadata": {}, "outputs": [], "source": source}


def test_notebook_fix_keeps_other_bytes(tmp_path):
    cells = [
        {"cell_type": "markdown", "id": "m", "metadata": {}, "source": ["# Tïtle: `x.clone().detach()`\n"]},
        _code(["%matplotlib inline\n", "import torch\n", "x = torch.randn(3)\n", "!pip list"]),
        _code(["y = x.clone().detach()  # café\n", "z = torch.tensor(x)"]),
        _code("%%time\nq = x.clone().detach()\n"),
        _code(["a = x.clone().detach()  # noqa\n"]),
    ]
    text = _notebook(cells)
    f = tmp_path / "n.ipynb"
    f.write_text(text, encoding="utf-8")
    rc, out, err = run("--check", "n.ipynb", cwd=tmp_path)
    assert rc == 1
    assert sorted(finding_lines(out)) == sorted([
        f"n.ipynb:cell 3:1:{col_of('y = x.clone().detach()', 1, 'x.clone')}: TRC103 "
        + out.split("TRC103 ")[1].splitlines()[0],
        f"n.ipynb:cell 3:2:{col_of('z = torch.tensor(x)', 1, 'torch')}: TRC101 "
        + out.split("TRC101 ")[1].splitlines()[0],
    ])
    rc, out, err = run("n.ipynb", cwd=tmp_path)
    assert rc == 1 and "Rewriting n.ipynb" in err
    new = f.read_text(encoding="utf-8")
    cells[2]["source"] = ["y = x.detach().clone()  # café\n", "z = x.detach().clone()"]
    assert new == _notebook(cells)  # byte-identical apart from the fixed cell
    assert run("n.ipynb", cwd=tmp_path)[0] == 0


def test_notebook_keeps_unusual_formatting(tmp_path):
    # two-space indent, escaped non-ASCII and a string source: untouched bytes stay as they are
    cells = [_code(["import torch\n", "x = torch.randn(3)  # \u00e9\n", "y = x.clone().detach()\n"]), _code("b = 1")]
    nb = {"metadata": {}, "nbformat": 4, "nbformat_minor": 2, "cells": cells}
    text = json.dumps(nb, indent=2, ensure_ascii=True)
    f = tmp_path / "n.ipynb"
    f.write_bytes(text.encode())
    rc, out, err = run("n.ipynb", cwd=tmp_path)
    assert rc == 1
    cells[0]["source"][2] = "y = x.detach().clone()\n"
    assert f.read_bytes() == json.dumps(nb, indent=2, ensure_ascii=True).encode()


def test_notebook_diff_and_invalid_json(tmp_path):
    f = tmp_path / "n.ipynb"
    f.write_text(_notebook([_code(EXAMPLE)]))
    before = f.read_bytes()
    rc, out, err = run("--diff", "n.ipynb", cwd=tmp_path)
    assert rc == 1 and f.read_bytes() == before and "x.detach().clone()" in out
    g = tmp_path / "bad.ipynb"
    g.write_text('{"cells": [')
    rc, out, err = run("bad.ipynb", cwd=tmp_path)
    assert rc == 2 and "bad.ipynb" in err and g.read_text() == '{"cells": ['


def test_progress_bar_only_when_enabled(capsys, monkeypatch):
    from flake8_torchcopy.cli import runner

    monkeypatch.setattr(runner.Progress, "DELAY", 0.0)
    bar = runner.Progress(3, enabled=True)
    for i in range(1, 4):
        bar.update(i)
    bar.close()
    err = capsys.readouterr().err
    assert "3/3 files" in err and err.endswith("\r")
    quiet = runner.Progress(3, enabled=False)
    quiet.update(3)
    quiet.close()
    assert capsys.readouterr().err == ""
    # captured stderr is not a terminal: no bar in pipes or CI
    assert runner.progress_wanted(quiet=False) is False


def test_no_progress_bar_in_pipes(tmp_path):
    _tree(tmp_path, 40)
    rc, out, err = run("--check", "-j", "2", ".", cwd=tmp_path)
    assert "\r" not in err and "[#" not in err


def test_command_line_selection_is_a_layer_over_the_config(tmp_path):
    """As in ruff: --select starts afresh; --extend-select/--ignore adjust the file's selection."""
    (tmp_path / "pyproject.toml").write_text('[tool.torchcopy]\nignore = ["TRC103"]\n')
    src = "import torch\nx = torch.randn(3)\ny = x.clone().detach()\nz = torch.tensor(x)\n"
    (tmp_path / "m.py").write_text(src)

    def codes(*flags):
        proc = subprocess.run([sys.executable, "-m", "flake8_torchcopy", "--check", *flags, "m.py"],
                              capture_output=True, text=True, cwd=tmp_path)
        return sorted({line.split()[1] for line in proc.stdout.splitlines() if " TRC" in line})

    assert codes() == ["TRC101"]
    assert codes("--select", "TRC") == ["TRC101", "TRC103"]
    assert codes("--select", "TRC103") == ["TRC103"]
    assert codes("--extend-select", "TRC103") == ["TRC101", "TRC103"]
    assert codes("--ignore", "TRC101") == []
