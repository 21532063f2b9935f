"""``# noqa`` parity: one file gives the same findings through every front end.

A matrix of noqa cases is run through real subprocesses of

* ``flake8 --select TRC`` (flake8 applies noqa itself: the reference),
* ``torchcopy-fix --check`` (json output),
* pre-commit's hook commands, read from ``.pre-commit-hooks.yaml`` and run as pre-commit
  runs them (the entry, then the file names),
* the LibCST codemod (``python -m libcst.tool codemod ... TorchCopyCommand``), whose
  output must be byte for byte what ``torchcopy-fix`` writes, and which must leave
  alone exactly the files where flake8 reports nothing.

The expected findings per case are written down too, so that a change to flake8 or to
the plugin that makes both agree on something else still shows up.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
HEAD = "import torch\nt = torch.zeros(3)\n"

# name -> (source after HEAD, the lines (in the whole file) flake8 reports)
CASES = {
    "plain": ("a = torch.tensor(t)\n", [3]),
    "blanket": ("a = torch.tensor(t)  # noqa\n", []),
    "code": ("a = torch.tensor(t)  # noqa: TRC101\n", []),
    "code_no_space": ("a = torch.tensor(t)  # noqa:TRC101\n", []),
    "upper_noqa": ("a = torch.tensor(t)  # NOQA:TRC101\n", []),
    "lower_code": ("a = torch.tensor(t)  # NOQA:trc101\n", [3]),
    "no_space_hash": ("a = torch.tensor(t)  #noqa\n", [3]),
    "two_spaces": ("a = torch.tensor(t)  #  noqa\n", [3]),
    "codes_list": ("a = torch.tensor(t)  # noqa:TRC101,E501\n", []),
    "codes_spaces": ("a = torch.tensor(t)  # noqa: E501 TRC101\n", []),
    "prefix": ("a = torch.tensor(t)  # noqa: TRC1\n", []),
    "prefix_without_digits_is_blanket": ("a = torch.tensor(t)  # noqa:TRC\n", []),
    "wrong_code": ("a = torch.tensor(t)  # noqa: TRC103\n", [3]),
    "wrong_code_e": ("a = torch.tensor(t)  # noqa: E501\n", [3]),
    "space_colon_is_blanket": ("a = torch.tensor(t)  # noqa : TRC103\n", []),
    "noqa_in_string": ("s = '# noqa'; a = torch.tensor(t)\n", []),
    "other_line_of_bracketed_statement": ("a = torch.tensor(\n    t,\n)  # noqa: TRC101\n", [3]),
    "first_line_of_bracketed_statement": ("a = torch.tensor(  # noqa\n    t)\n", []),
    "finding_on_second_line": ("a = (\n    torch.tensor(t))  # noqa\n", []),
    "finding_on_second_line_noqa_first": ("a = (  # noqa\n    torch.tensor(t))\n", [4]),
    "backslash_continuation": ("a = torch.tensor(t) + \\\n    1  # noqa\n", []),
    "inside_multiline_string": ('a = torch.tensor(t); s = """\n# noqa\n"""\n', []),
    "end_of_multiline_string": ('a = torch.tensor(t); s = """\nx\n"""  # noqa: TRC101\n', []),
    "after_multiline_string_statement": ('s = """\nx\n"""\na = torch.tensor(t)  # noqa\n', []),
    "string_before_finding": ('s = """\n# noqa\n"""\na = torch.tensor(t)\n', [6]),
    "def_body": ("def f(a=torch.tensor(t)):\n    return a  # noqa\n", [3]),
    "def_line": ("def f(a=torch.tensor(t)):  # noqa: TRC101\n    return a\n", []),
    "decorator": ("def deco(v):\n    return lambda f: f\n\n\n@deco(torch.tensor(t))\n"
                  "def f():\n    return 1  # noqa\n", [7]),
    "class_bases": ("class C(type(torch.tensor(t))):\n    x = 1  # noqa: TRC101\n", [3]),
    "other_statement_same_group": ("a = torch.tensor(t); b = 1  # noqa\n", []),
    "two_findings_one_code": ("a = t.clone().detach(); b = torch.tensor(t)  # noqa: TRC103\n", [3]),
    "file_level": ("# flake8: noqa\na = torch.tensor(t)\n", []),
    "file_level_with_codes": ("    # flake8: noqa: E501\na = torch.tensor(t)\n", []),
    "file_level_after_code": ("a = torch.tensor(t)  # flake8: noqa\n", [3]),
    "trc103": ("a = t.clone().detach()  # noqa: TRC101\n", [3]),
}


def _script(name: str) -> str:
    found = BIN / name
    return str(found) if found.exists() else shutil.which(name) or name


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("noqa")
    for name, (body, _) in CASES.items():
        (root / f"{name}.py").write_text(HEAD + body)
    return root


def _files():
    return sorted(f"{name}.py" for name in CASES)


def flake8_findings(root: Path):
    proc = subprocess.run([_script("flake8"), "--select", "TRC", "--format",
                           "%(path)s:%(row)d:%(col)d:%(code)s", *_files()],
                          cwd=root, capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    out = set()
    for line in proc.stdout.splitlines():
        path, row, col, code = line.rsplit(":", 3)
        out.add((os.path.basename(path), int(row), int(col), code))
    return out


def text_findings(output: str):
    out = set()
    for line in output.splitlines():
        m = re.match(r"^(.*?):(\d+):(\d+): (TRC\d+) ", line)
        if m:
            out.add((os.path.basename(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)))
    return out


def fix_findings(root: Path):
    proc = subprocess.run([_script("torchcopy-fix"), "--check", "--output-format", "json", *_files()],
                          cwd=root, capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    return {(os.path.basename(r["filename"]), r["location"]["row"], r["location"]["column"], r["code"])
            for r in json.loads(proc.stdout)}


def hook_entries():
    """id -> entry of each hook in .pre-commit-hooks.yaml (read without a YAML library)."""
    entries, current = {}, None
    for line in (ROOT / ".pre-commit-hooks.yaml").read_text().splitlines():
        m = re.match(r"^-?\s*(id|entry):\s*(.+?)\s*$", line)
        if m and m.group(1) == "id":
            current = m.group(2)
        elif m and current:
            entries[current] = m.group(2)
    return entries


def test_matrix_expectations_hold_in_flake8(tree):
    got = flake8_findings(tree)
    for name, (_, lines) in CASES.items():
        assert sorted(row for f, row, _, _ in got if f == f"{name}.py") == lines, name


def test_torchcopy_fix_check_matches_flake8(tree):
    assert fix_findings(tree) == flake8_findings(tree)


def test_pre_commit_check_hook_matches_flake8(tree):
    entry = hook_entries()["torchcopy-check"]
    argv = shlex.split(entry)
    argv[0] = _script(argv[0])
    proc = subprocess.run([*argv, *_files()], cwd=tree, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert text_findings(proc.stdout) == flake8_findings(tree)


def test_pre_commit_fix_hook_and_codemod_write_the_same_and_only_what_flake8_reports(tree, tmp_path):
    reported = {f for f, *_ in flake8_findings(tree)}
    by_hook, by_codemod = tmp_path / "hook", tmp_path / "codemod"
    shutil.copytree(tree, by_hook)
    shutil.copytree(tree, by_codemod)

    argv = shlex.split(hook_entries()["torchcopy-fix"])
    argv[0] = _script(argv[0])
    proc = subprocess.run([*argv, *_files()], cwd=by_hook, capture_output=True, text=True, timeout=300)
    # every fix is written, those in a def's defaults and decorators too
    assert "fix refused" not in proc.stderr, proc.stderr
    assert proc.returncode == 1, proc.stderr

    proc = subprocess.run([sys.executable, "-m", "libcst.tool", "codemod", "-x",
                           "flake8_torchcopy.codemods.TorchCopyCommand", ".", "--no-format", "-j", "1"],
                          cwd=by_codemod, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Failed to codemod 0 files" in proc.stderr, proc.stderr

    for name in _files():
        original = (tree / name).read_text()
        hooked, codemodded = (by_hook / name).read_text(), (by_codemod / name).read_text()
        assert hooked == codemodded, name
        # every finding in the matrix has a safe fix: a file changes iff flake8 reports on it
        assert (hooked != original) == (name in reported), name


def test_flake8_reports_nothing_on_what_the_fixer_left(tree, tmp_path):
    """After the fix hook, flake8 and ``torchcopy-fix --check`` agree there is nothing left."""
    fixed = tmp_path / "fixed"
    shutil.copytree(tree, fixed)
    subprocess.run([_script("torchcopy-fix"), *_files()], cwd=fixed, capture_output=True, timeout=300)
    assert not flake8_findings(fixed) and not fix_findings(fixed)


# ------------------------------------------------------------ configuration layouts
LAYOUT_SRC = HEAD + "a = torch.tensor(t)\nb = t.clone().detach()\nc = torch.tensor(t)  # noqa: TRC101\n"
LAYOUT_FILES = ("top.py", "tests/t.py", "pkg/a_test.py", "pkg/mod.py", "pkg/sub/deep.py")

# name -> (setup.cfg [flake8] lines, pyproject [tool.torchcopy] lines, codemod arguments or None)
LAYOUTS = {
    "defaults": ("select = TRC\n", "", []),
    "ignore": ("select = TRC\nextend-ignore = TRC103\n", 'ignore = ["TRC103"]\n', ["--ignore", "TRC103"]),
    "select_one": ("select = TRC101\n", 'select = ["TRC101"]\n', ["--select", "TRC101"]),
    "per_file_dir": ("select = TRC\nper-file-ignores = tests/*:TRC101\n",
                     '[tool.torchcopy.per-file-ignores]\n"tests/*" = ["TRC101"]\n', None),
    "per_file_name": ("select = TRC\nper-file-ignores =\n    *_test.py:TRC1\n    pkg/sub/*:TRC103\n",
                      '[tool.torchcopy.per-file-ignores]\n"*_test.py" = ["TRC1"]\n"pkg/sub/*" = ["TRC103"]\n',
                      None),
}


def _layout(root: Path, name: str) -> Path:
    flake8_cfg, pyproject, _ = LAYOUTS[name]
    d = root / name
    for rel in LAYOUT_FILES:
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(LAYOUT_SRC)
    (d / "setup.cfg").write_text("[flake8]\n" + flake8_cfg)
    table = pyproject if pyproject.startswith("[tool.torchcopy.") else "[tool.torchcopy]\n" + pyproject
    (d / "pyproject.toml").write_text(table)
    return d


def _norm(findings):
    return {(path.replace(os.sep, "/"), row, col, code) for path, row, col, code in findings}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_config_layouts_give_the_same_findings(tmp_path, name):
    d = _layout(tmp_path, name)
    files = list(LAYOUT_FILES)
    proc = subprocess.run([_script("flake8"), "--format", "%(path)s:%(row)d:%(col)d:%(code)s", *files],
                          cwd=d, capture_output=True, text=True, timeout=300)
    ref = set()
    for line in proc.stdout.splitlines():
        path, row, col, code = line.rsplit(":", 3)
        ref.add((os.path.normpath(path).replace(os.sep, "/"), int(row), int(col), code))
    assert ref, proc.stderr  # every layout leaves something to report

    fixer = subprocess.run([_script("torchcopy-fix"), "--check", "--output-format", "json", *files],
                           cwd=d, capture_output=True, text=True, timeout=300)
    got = {(r["filename"].replace(os.sep, "/"), r["location"]["row"], r["location"]["column"], r["code"])
           for r in json.loads(fixer.stdout)}
    assert got == ref

    argv = shlex.split(hook_entries()["torchcopy-check"])
    argv[0] = _script(argv[0])
    for order in (files, files[::-1]):  # pre-commit passes files in any order
        hook = subprocess.run([*argv, *order], cwd=d, capture_output=True, text=True, timeout=300)
        assert _norm(text_findings_with_paths(hook.stdout)) == ref

    codemod_args = LAYOUTS[name][2]
    if codemod_args is not None:  # the codemod reads no config: the same selection on its command line
        subprocess.run([sys.executable, "-m", "libcst.tool", "codemod", "-x",
                        "flake8_torchcopy.codemods.TorchCopyCommand", ".", "--no-format", "-j", "1",
                        *codemod_args], cwd=d, capture_output=True, text=True, timeout=300)
        for rel in files:
            fixed_lines = {row for path, row, _, _ in ref if path == rel}
            new = (d / rel).read_text().splitlines()
            old = LAYOUT_SRC.splitlines()
            assert {i + 1 for i, (a, b) in enumerate(zip(old, new)) if a != b} == fixed_lines, rel


def text_findings_with_paths(output: str):
    out = set()
    for line in output.splitlines():
        m = re.match(r"^(.*?):(\d+):(\d+): (TRC\d+) ", line)
        if m:
            out.add((os.path.normpath(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)))
    return out
