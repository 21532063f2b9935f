"""ruff's habits in ``torchcopy-fix``, each through the real console script: hierarchical
configuration (``--config``, ``--isolated``), selector errors, ``--fix``,
``--exit-non-zero-on-fix``, ``--statistics``, ``--add-noqa``, ``rule``/``--explain``,
``-s``, ``--extend-ignore``/``--extend-exclude``, ``--per-file-ignores``, no files,
``E902``, "All checks passed!", the concise/gitlab/junit formats and ``-o``."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
SRC = "import torch\nt = torch.zeros(3)\na = torch.tensor(t)\nb = t.clone().detach()\n"
SUB_CONFIG = '[tool.torchcopy]\nignore = ["TRC101"]\n'


def fix(*args, cwd, stdin=None):
    exe = BIN / "torchcopy-fix"
    cmd = [str(exe)] if exe.exists() else [shutil.which("torchcopy-fix") or "torchcopy-fix"]
    env = dict(os.environ)
    env.pop("CI", None)
    env.pop("CI_PROJECT_DIR", None)
    proc = subprocess.run([*cmd, *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          input=stdin, env=env, timeout=300)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


def found(out: str):
    """{(path, code)} of text/concise output."""
    return {(line.split(":")[0].replace(os.sep, "/"), line.split(": ")[1].split()[0])
            for line in out.splitlines() if ": TRC" in line or ": E902" in line}


@pytest.fixture
def layout(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "top.py").write_text(SRC)
    (tmp_path / "sub" / "inner.py").write_text(SRC)
    (tmp_path / "sub" / "pyproject.toml").write_text(SUB_CONFIG)
    return tmp_path


# ------------------------------------------------------------ hierarchical configuration
EXPECTED = {("top.py", "TRC101"), ("top.py", "TRC103"), ("sub/inner.py", "TRC103")}


@pytest.mark.parametrize("order", [("sub/inner.py", "top.py"), ("top.py", "sub/inner.py")])
def test_each_file_gets_its_nearest_config_whatever_the_order(layout, order):
    rc, out, err = fix("--check", *order, cwd=layout)
    assert rc == 1 and found(out) == EXPECTED, (out, err)


def test_nearest_config_per_file_in_a_walk_and_in_worker_processes(layout):
    (layout / "pyproject.toml").write_text('[tool.torchcopy]\nignore = ["TRC103"]\n')
    for jobs in ("1", "2"):
        rc, out, _ = fix("--check", "-j", jobs, ".", cwd=layout)
        # top.py: the root's config (no TRC103); sub/inner.py: sub's only (no TRC101, TRC103 back)
        assert found(out) == {("top.py", "TRC101"), ("sub/inner.py", "TRC103")}, jobs


def test_pre_commit_hook_order_does_not_matter(layout):
    entry = ["--check", "--force-exclude"]  # the torchcopy-check hook
    a = found(fix(*entry, "sub/inner.py", "top.py", cwd=layout)[1])
    b = found(fix(*entry, "top.py", "sub/inner.py", cwd=layout)[1])
    assert a == b == EXPECTED


def test_a_nested_config_excludes_below_it_only(layout):
    (layout / "sub" / "pyproject.toml").write_text('[tool.torchcopy]\nexclude = ["inner.py"]\n')
    (layout / "other").mkdir()
    (layout / "other" / "inner.py").write_text(SRC)
    rc, out, _ = fix("--check", ".", cwd=layout)
    assert {p for p, _ in found(out)} == {"top.py", "other/inner.py"}


def test_config_and_isolated_override_discovery(layout):
    rc, out, _ = fix("--check", "--isolated", "sub/inner.py", "top.py", cwd=layout)
    assert found(out) == {(p, c) for p in ("top.py", "sub/inner.py") for c in ("TRC101", "TRC103")}
    rc, out, _ = fix("--check", "--config", "sub/pyproject.toml", "top.py", "sub/inner.py", cwd=layout)
    assert found(out) == {("top.py", "TRC103"), ("sub/inner.py", "TRC103")}
    rc, out, err = fix("--check", "--config", "nope.toml", "top.py", cwd=layout)
    assert rc == 2 and "nope.toml" in err and not out


def test_a_broken_nested_config_is_a_config_error(layout):
    (layout / "sub" / "pyproject.toml").write_text("[tool.torchcopy]\nselec = 1\n")
    rc, out, err = fix("--check", "top.py", "sub/inner.py", cwd=layout)
    assert rc == 2 and "sub" in err and "selec" in err


# ------------------------------------------------------------ selectors
SELECTOR_FLAGS = ["--select", "--ignore", "--extend-select", "--extend-ignore"]


@pytest.mark.parametrize("flag", SELECTOR_FLAGS)
@pytest.mark.parametrize("value", ["TRC999", "FOO", "trc101"])
def test_unknown_selectors_exit_2_with_one_line(tmp_path, flag, value):
    (tmp_path / "a.py").write_text(SRC)
    rc, out, err = fix("--check", flag, value, "a.py", cwd=tmp_path)
    assert rc == 2 and not out
    assert len(err.strip().splitlines()) == 1 and value in err and flag in err, err


@pytest.mark.parametrize("flag", ["--per-file-ignores", "--extend-per-file-ignores"])
def test_unknown_selectors_in_per_file_ignores_exit_2(tmp_path, flag):
    (tmp_path / "a.py").write_text(SRC)
    for value in ("a.py:TRC999", "a.py:FOO", "TRC101"):
        rc, out, err = fix("--check", flag, value, "a.py", cwd=tmp_path)
        assert rc == 2 and len(err.strip().splitlines()) == 1 and flag in err, (value, err)


def test_unknown_rule_for_rule_and_explain_exits_2(tmp_path):
    for args in (["rule", "TRC999"], ["--explain", "FOO"]):
        rc, out, err = fix(*args, cwd=tmp_path)
        assert rc == 2 and not out and len(err.strip().splitlines()) == 1, args


# ------------------------------------------------------------ flags
def test_fix_is_the_explicit_write_mode(tmp_path):
    (tmp_path / "a.py").write_text(SRC)
    (tmp_path / "b.py").write_text(SRC)
    implicit = fix("a.py", cwd=tmp_path)
    explicit = fix("--fix", "b.py", cwd=tmp_path)
    assert implicit[0] == explicit[0] == 1
    assert (tmp_path / "a.py").read_text() == (tmp_path / "b.py").read_text() != SRC
    assert fix("--fix", "--check", "a.py", cwd=tmp_path)[0] == 2


def test_exit_non_zero_on_fix(tmp_path):
    (tmp_path / "a.py").write_text(SRC)
    rc, _, err = fix("--exit-non-zero-on-fix", "a.py", cwd=tmp_path)
    assert rc == 1 and "Rewriting a.py" in err  # everything fixed, still 1
    assert fix("--exit-non-zero-on-fix", "a.py", cwd=tmp_path)[0] == 0  # nothing to fix now
    (tmp_path / "a.py").write_text(SRC)
    assert fix("--exit-non-zero-on-fix", "--exit-zero", "a.py", cwd=tmp_path)[0] == 0  # as ruff


def test_statistics(tmp_path):
    (tmp_path / "a.py").write_text(SRC + "c = t.clone().detach()\n")
    rc, out, _ = fix("--check", "--statistics", "a.py", cwd=tmp_path)
    rows = [line.split("\t") for line in out.splitlines()]
    assert rc == 1
    assert rows[0] == ["2", "TRC103", "[*] clone-then-detach"]
    assert rows[1] == ["1", "TRC101", "[*] torch-tensor-copy"]
    assert rows[2] == ["[*] fixable with torchcopy-fix"]


def test_add_noqa_silences_for_flake8_too(tmp_path):
    f = tmp_path / "a.py"
    f.write_text(SRC.replace("b = t.clone().detach()", "b = t.clone().detach()  # noqa: E501"))
    rc, out, err = fix("--add-noqa", "a.py", cwd=tmp_path)
    assert rc == 0 and "Added 2 noqa directives." in err
    lines = f.read_text().splitlines()
    assert lines[2] == "a = torch.tensor(t)  # noqa: TRC101"
    assert lines[3] == "b = t.clone().detach()  # noqa: E501, TRC103"
    assert fix("--check", "a.py", cwd=tmp_path)[0] == 0
    flake8 = subprocess.run([sys.executable, "-m", "flake8", "--select", "TRC", "a.py"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert flake8.returncode == 0 and not flake8.stdout
    rc, out, err = fix("--add-noqa", "-", cwd=tmp_path, stdin=SRC)
    assert rc == 2 and "stdin" in err and not out


def test_add_noqa_where_flake8_looks_for_it(tmp_path):
    f = tmp_path / "a.py"
    f.write_text('import torch\nt = torch.zeros(3)\na = torch.tensor(\n    t)\n'
                 's = torch.tensor(t).sum() + len("""\nx\n""")\n')
    rc, _, err = fix("--add-noqa", "a.py", cwd=tmp_path)
    assert rc == 0 and "Added 2 noqa directives." in err
    assert f.read_text().splitlines()[2] == "a = torch.tensor(  # noqa: TRC101"
    assert f.read_text().splitlines()[6] == '""")  # noqa: TRC101'
    flake8 = subprocess.run([sys.executable, "-m", "flake8", "--select", "TRC", "a.py"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert flake8.returncode == 0 and not flake8.stdout


def test_rule_and_explain_print_the_rule_page(tmp_path):
    rc, out, _ = fix("rule", "TRC101", cwd=tmp_path)
    assert rc == 0 and out.startswith("# torch-tensor-copy (TRC101)")
    assert "## When the fix is safe" in out and "TRC101.md" in out
    assert fix("--explain", "trc101", cwd=tmp_path)[1] == out
    rc, out, _ = fix("rule", "--all", "--output-format", "json", cwd=tmp_path)
    codes = [r["code"] for r in json.loads(out)]
    assert rc == 0 and "TRC101" in codes and "TRC201" in codes


def test_silent_prints_nothing_but_keeps_the_status(tmp_path):
    (tmp_path / "a.py").write_text(SRC)
    assert fix("--check", "-s", "a.py", cwd=tmp_path) == (1, "", "")
    assert fix("--check", "--silent", "a.py", cwd=tmp_path) == (1, "", "")
    assert fix("-s", "a.py", cwd=tmp_path) == (1, "", "")
    assert fix("--check", "-s", "a.py", cwd=tmp_path) == (0, "", "")


def test_extend_ignore_and_extend_exclude_add_to_the_config(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.torchcopy]\nignore = ["TRC101"]\nexclude = ["skip.py"]\n')
    for name in ("a.py", "skip.py", "also.py"):
        (tmp_path / name).write_text(SRC)
    rc, out, _ = fix("--check", ".", cwd=tmp_path)
    assert found(out) == {("a.py", "TRC103"), ("also.py", "TRC103")}
    rc, out, _ = fix("--check", "--extend-ignore", "TRC103", "--extend-exclude", "also.py", ".", cwd=tmp_path)
    assert rc == 0 and found(out) == set()
    rc, out, _ = fix("--check", "--extend-exclude", "also.py", ".", cwd=tmp_path)
    assert found(out) == {("a.py", "TRC103")}  # the configured exclude still applies


def test_per_file_ignores_on_the_command_line(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.py").write_text(SRC)
    (tmp_path / "a.py").write_text(SRC)
    rc, out, _ = fix("--check", "--per-file-ignores", "tests/*:TRC101", ".", cwd=tmp_path)
    assert found(out) == {("a.py", "TRC101"), ("a.py", "TRC103"), ("tests/t.py", "TRC103")}
    rc, out, _ = fix("--check", "--per-file-ignores", "tests/*:TRC101,TRC103 a.py:TRC1", ".", cwd=tmp_path)
    assert rc == 0 and found(out) == set()
    # --per-file-ignores replaces the configured ones, --extend-per-file-ignores adds to them
    (tmp_path / "pyproject.toml").write_text('[tool.torchcopy.per-file-ignores]\n"a.py" = ["TRC103"]\n')
    rc, out, _ = fix("--check", "--per-file-ignores", "tests/*:TRC1", ".", cwd=tmp_path)
    assert found(out) == {("a.py", "TRC101"), ("a.py", "TRC103")}
    rc, out, _ = fix("--check", "--extend-per-file-ignores", "tests/*:TRC1", ".", cwd=tmp_path)
    assert found(out) == {("a.py", "TRC101")}


def test_no_python_file_is_a_warning_and_exit_0(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text(SRC)
    for args in (["--check", "empty"], ["empty"]):
        rc, out, err = fix(*args, cwd=tmp_path)
        assert rc == 0 and not out and err == "warning: No Python files found under the given path(s)\n"


def test_a_missing_path_is_e902_in_every_format(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    rc, out, err = fix("--check", "missing.py", "a.py", cwd=tmp_path)
    assert rc == 1 and out == "missing.py:1:1: E902 No such file or directory (os error 2)\n"
    rc, out, _ = fix("--check", "--output-format", "json", "missing.py", cwd=tmp_path)
    assert rc == 1 and [(r["filename"], r["code"]) for r in json.loads(out)] == [("missing.py", "E902")]
    assert fix("--check", "--exit-zero", "missing.py", cwd=tmp_path)[0] == 0


def test_all_checks_passed(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    for args in (["--check", "a.py"], ["a.py"]):
        rc, out, err = fix(*args, cwd=tmp_path)
        assert rc == 0 and not out and err == "All checks passed!\n"
    (tmp_path / "b.py").write_text(SRC)
    rc, out, err = fix("--check", "b.py", cwd=tmp_path)
    assert "All checks passed!" not in err


# ------------------------------------------------------------ output formats and -o
def test_concise_marks_the_fixable(tmp_path):
    (tmp_path / "a.py").write_text(SRC)
    rc, out, _ = fix("--check", "--output-format", "concise", "a.py", cwd=tmp_path)
    assert rc == 1 and out.splitlines()[0].startswith("a.py:3:5: TRC101 [*] use t.detach().clone()")


def test_gitlab_code_quality(tmp_path):
    (tmp_path / "a.py").write_text(SRC + "c = t.clone().detach()\n")
    rc, out, _ = fix("--check", "--output-format", "gitlab", "a.py", cwd=tmp_path)
    issues = json.loads(out)
    assert rc == 1 and [i["check_name"] for i in issues] == ["TRC101", "TRC103", "TRC103"]
    assert issues[0]["location"] == {"path": "a.py", "positions": {"begin": {"line": 3, "column": 5},
                                                                   "end": {"line": 3, "column": 20}}}
    assert issues[0]["description"].startswith("TRC101: use t.detach().clone()")
    assert len({i["fingerprint"] for i in issues}) == 3  # the same message twice: two fingerprints


def test_junit(tmp_path):
    (tmp_path / "a.py").write_text(SRC)
    (tmp_path / "ok.py").write_text("x = 1\n")
    rc, out, _ = fix("--check", "--output-format", "junit", "a.py", "ok.py", cwd=tmp_path)
    root = ET.fromstring(out)
    assert rc == 1 and root.tag == "testsuites" and root.get("failures") == "2"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["a.py"]
    cases = suites[0].findall("testcase")
    assert [c.get("name") for c in cases] == ["org.torchcopy.TRC101", "org.torchcopy.TRC103"]
    assert cases[0].find("failure").text.startswith("line 3, col 5, use")
    rc, out, _ = fix("--check", "--output-format", "junit", "ok.py", cwd=tmp_path)
    assert rc == 0 and ET.fromstring(out).get("failures") == "0"


@pytest.mark.parametrize("fmt", ["text", "concise", "json", "sarif", "github", "gitlab", "junit"])
def test_output_file(tmp_path, fmt):
    (tmp_path / "a.py").write_text(SRC)
    rc, out, err = fix("--check", "--output-format", fmt, "-o", "report.out", "a.py", cwd=tmp_path)
    written = (tmp_path / "report.out").read_text()
    assert rc == 1 and out == "" and "TRC101" in written
    assert written == fix("--check", "--output-format", fmt, "a.py", cwd=tmp_path)[1]


def test_config_key_value_overrides_every_files_config(layout):
    rc, out, _ = fix("--check", "--config", 'ignore = ["TRC103"]', "top.py", "sub/inner.py", cwd=layout)
    # the key replaces sub's ignore too (ruff: overrides beat every configuration file)
    assert found(out) == {("top.py", "TRC101"), ("sub/inner.py", "TRC101")}
    rc, out, _ = fix("--check", "--config", '[per-file-ignores]\n"sub/*" = ["TRC1"]', ".", cwd=layout)
    assert found(out) == {("top.py", "TRC101"), ("top.py", "TRC103")}
    for bad in ('ignore = ["TRC999"]', "selec = 1", "a.toml", "x = = 1"):
        rc, out, err = fix("--check", "--config", bad, "top.py", cwd=layout)
        assert rc == 2 and not out and len(err.strip().splitlines()) == 1 and "--config" in err, bad
