"""``torchcopy-fix`` behaves as ruff and pyupgrade users expect: a typo never
turns CI green, a file's permission is respected, stdout stays parsable, notebook
positions survive every format, pre-commit honours excludes and .gitignore."""
from __future__ import annotations

import json
import os
import shutil
import stat
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


# ---------------------------------------------------------------- selectors
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


# ---------------------------------------------------------------- --diff keeps stdout a patch
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


# ---------------------------------------------------------------- notebook cells everywhere
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


# ---------------------------------------------------------------- permissions
def test_a_read_only_file_is_not_rewritten_and_its_findings_are_counted(tmp_path):
    """Even root, who may write it, leaves a 0444 file alone (as an editor asks first)."""
    f = tmp_path / "a.py"
    f.write_text(EXAMPLE)
    f.chmod(0o444)
    rc, out, err = run("a.py", cwd=tmp_path)
    assert rc == 2
    assert "a.py: cannot write: read-only file" in err
    assert f.read_text() == EXAMPLE and stat.S_IMODE(f.stat().st_mode) == 0o444
    assert len([line for line in out.splitlines() if ": TRC" in line]) == 2
    assert "Fixed 0 issues in 0 files; 2 left" in err


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root may create files in a read-only directory (the next test simulates it)")
def test_a_writable_file_in_a_read_only_directory_is_written_in_place(tmp_path):
    d = tmp_path / "ro"
    d.mkdir()
    f = d / "a.py"
    f.write_text(EXAMPLE)
    f.chmod(0o640)
    inode = f.stat().st_ino
    d.chmod(0o555)
    try:
        rc, out, err = run("a.py", cwd=d)
    finally:
        d.chmod(0o755)
    assert rc == 1, err
    assert f.read_text() == FIXED
    assert f.stat().st_ino == inode and stat.S_IMODE(f.stat().st_mode) == 0o640
    assert "Fixed 2 issues in 1 file; 0 left" in err
    assert sorted(os.listdir(d)) == ["a.py"]


def test_no_temporary_file_allowed_writes_in_place(tmp_path, monkeypatch, capsys):
    """What a read-only directory does to the fixer, simulated (it runs as root too)."""
    from flake8_torchcopy import cli
    from flake8_torchcopy.cli import files

    def no_temp_file(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files.tempfile, "mkstemp", no_temp_file)
    f = tmp_path / "a.py"
    f.write_text(EXAMPLE)
    inode = f.stat().st_ino
    rc = cli.main(["-j", "1", str(f)])
    err = capsys.readouterr().err
    assert rc == 1, err
    assert f.read_text() == FIXED and f.stat().st_ino == inode
    assert "Fixed 2 issues in 1 file; 0 left" in err


def test_a_failed_write_leaves_the_file_and_counts_its_findings(tmp_path, monkeypatch, capsys):
    """A write that fails half way (disk full) puts the original bytes back."""
    from flake8_torchcopy import cli
    from flake8_torchcopy.cli import files

    f = tmp_path / "a.py"
    f.write_text(EXAMPLE)

    def no_temp_file(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    real_open = open

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            self.fh.__enter__()
            return self

        def __exit__(self, *exc):
            return self.fh.__exit__(*exc)

        def write(self, data):
            if data != EXAMPLE.encode():
                self.fh.write(data[:5])
                raise OSError(28, "No space left on device")
            return self.fh.write(data)

        def __getattr__(self, name):
            return getattr(self.fh, name)

    monkeypatch.setattr(files.tempfile, "mkstemp", no_temp_file)
    monkeypatch.setattr(files, "open", lambda *a, **k: Full(real_open(*a, **k)), raising=False)
    rc = cli.main(["-j", "1", str(f)])
    out, err = capsys.readouterr()
    assert rc == 2
    assert f"{f}: cannot write: No space left on device" in err
    assert f.read_text() == EXAMPLE
    assert "Fixed 0 issues in 0 files; 2 left" in err


# ---------------------------------------------------------------- discovery, pre-commit
def _hooks():
    """.pre-commit-hooks.yaml, a list of flat mappings, read without a YAML library."""
    hooks = []
    with open(os.path.join(os.path.dirname(__file__), os.pardir, ".pre-commit-hooks.yaml")) as fh:
        for line in fh:
            if line.startswith("- "):
                hooks.append({})
            key, _, value = line[2:].strip().partition(": ")
            if value.startswith("["):
                value = [v.strip() for v in value.strip("[]").split(",")]
            hooks[-1][key] = {"true": True, "false": False}.get(value, value) if isinstance(value, str) else value
    return {hook["id"]: hook for hook in hooks}


@pytest.mark.parametrize("hook_id", ["torchcopy-fix", "torchcopy-check"])
def test_pre_commit_hooks_honour_the_configured_exclude(tmp_path, hook_id):
    """pre-commit names every staged file; the hook's entry must still skip excluded ones."""
    hook = _hooks()[hook_id]
    assert hook["language"] == "python" and hook["require_serial"] is True
    assert {"python", "jupyter"} <= set(hook["types_or"])
    (tmp_path / "pyproject.toml").write_text('[tool.torchcopy]\nexclude = ["vendored"]\n')
    (tmp_path / "vendored").mkdir()
    (tmp_path / "vendored" / "v.py").write_text(EXAMPLE)
    (tmp_path / "a.py").write_text(EXAMPLE)
    program, *args = hook["entry"].split()
    assert program == "torchcopy-fix"
    rc, out, err = run(*args, "a.py", os.path.join("vendored", "v.py"), cwd=tmp_path)
    assert rc == 1
    assert (tmp_path / "vendored" / "v.py").read_text() == EXAMPLE
    assert "v.py" not in out + err
    if hook_id == "torchcopy-fix":
        assert (tmp_path / "a.py").read_text() == FIXED
    else:
        assert "a.py:3:" in out


def test_force_exclude_skips_named_files_in_skipped_directories(tmp_path):
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "v.py").write_text(EXAMPLE)
    assert run("--check", ".venv/v.py", cwd=tmp_path)[0] == 1  # named: taken
    rc, out, err = run("--check", "--force-exclude", ".venv/v.py", cwd=tmp_path)
    assert rc == 0 and "v.py" not in out


def test_force_exclude_passes_an_excluded_stdin_file_through(tmp_path):
    """As ruff: with --force-exclude, an excluded --stdin-filename is echoed, not linted."""
    (tmp_path / "pyproject.toml").write_text('[tool.torchcopy]\nexclude = ["vendored"]\n')
    name = os.path.join("vendored", "v.py")
    rc, out, err = run("--force-exclude", "--stdin-filename", name, "-", cwd=tmp_path, stdin=EXAMPLE.encode())
    assert rc == 0 and out == EXAMPLE and "TRC" not in err
    rc, out, err = run("--stdin-filename", name, "-", cwd=tmp_path, stdin=EXAMPLE.encode())
    assert rc == 1 and out == FIXED


def _git(*args, cwd):
    subprocess.run(["git", *args], cwd=str(cwd), check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_gitignored_files_are_skipped_in_directory_walks(tmp_path):
    _git("init", "-q", ".", cwd=tmp_path)
    (tmp_path / ".gitignore").write_text("generated_*.py\nscratch/\n")
    (tmp_path / "scratch").mkdir()
    for name in ("a.py", "generated_x.py", "scratch/s.py"):
        (tmp_path / name).write_text(EXAMPLE)
    rc, out, _ = run("--check", ".", cwd=tmp_path)
    assert rc == 1
    assert {line.split(":")[0] for line in out.splitlines()} == {"a.py"}
    # from a subdirectory, and for a directory named by an absolute path
    rc, out, _ = run("--check", str(tmp_path), cwd=tmp_path / "scratch")
    assert {os.path.basename(line.split(":")[0]) for line in out.splitlines()} == {"a.py"}
    # as in ruff, a file named explicitly is taken, and the walk can be told to look at everything
    assert run("--check", "generated_x.py", cwd=tmp_path)[0] == 1
    rc, out, _ = run("--check", "--no-respect-gitignore", ".", cwd=tmp_path)
    assert {line.split(":")[0] for line in out.splitlines()} == {"a.py", "generated_x.py", "scratch/s.py"}
    (tmp_path / "pyproject.toml").write_text("[tool.torchcopy]\nrespect-gitignore = false\n")
    rc, out, _ = run("--check", ".", cwd=tmp_path)
    assert len({line.split(":")[0] for line in out.splitlines()}) == 3


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_gitignored_directory_named_explicitly_is_walked(tmp_path):
    """As ruff: naming a directory git ignores (a vendored tree, a corpus) lints it."""
    _git("init", "-q", ".", cwd=tmp_path)
    (tmp_path / ".gitignore").write_text("vendor/\n")
    (tmp_path / "vendor" / "pkg").mkdir(parents=True)
    (tmp_path / "vendor" / "pkg" / "a.py").write_text(EXAMPLE)
    for named in ("vendor", "vendor/pkg"):
        rc, out, _ = run("--check", named, cwd=tmp_path)
        assert rc == 1 and "a.py:3:" in out, named
    assert run("--check", ".", cwd=tmp_path)[0] == 0


def test_gitignore_means_nothing_outside_a_git_work_tree(tmp_path):
    """As in ruff: a .gitignore outside a git work tree is not read."""
    (tmp_path / ".gitignore").write_text("*.py\n")
    (tmp_path / "a.py").write_text(EXAMPLE)
    env_ceiling = str(tmp_path.parent)
    proc = subprocess.run([sys.executable, "-m", "flake8_torchcopy", "--check", "."], cwd=str(tmp_path),
                          capture_output=True, env={**os.environ, "GIT_CEILING_DIRECTORIES": env_ceiling})
    assert proc.returncode == 1 and b"a.py:3:" in proc.stdout


def test_no_path_lints_the_current_directory(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(EXAMPLE)
    rc, out, err = run("--check", cwd=tmp_path)
    assert rc == 1 and os.path.join("pkg", "a.py") + ":3:" in out
    rc, out, err = run(cwd=tmp_path)
    assert rc == 1 and (tmp_path / "pkg" / "a.py").read_text() == FIXED


# ---------------------------------------------------------------- the table in docs/cli.md
LEFT = "import torch\nx = torch.randn(3)\nw = torch.tensor([x, x])\n"  # TRC108: unsafe fix only


def _scenario(files, *args, stdin=None, setup=None):
    def play(tmp_path):
        for name, text in files.items():
            (tmp_path / name).write_text(text)
        if setup is not None:
            setup(tmp_path)
        return run(*args, cwd=tmp_path, stdin=stdin)[0]
    return play


SCENARIOS = {
    "clean file": _scenario({"a.py": "x = 1\n"}, "a.py"),
    "fix mode, everything fixed": _scenario({"a.py": EXAMPLE}, "a.py"),
    "fix mode, findings left": _scenario({"a.py": LEFT}, "a.py"),
    "`--check` / `ruff check`, findings": _scenario({"a.py": EXAMPLE}, "--check", "a.py"),
    "`--diff` with a diff": _scenario({"a.py": EXAMPLE}, "--diff", "a.py"),
    "`--diff`, no diff but findings left": _scenario({"a.py": LEFT}, "--diff", "a.py"),
    "`--exit-zero` with findings or fixes": _scenario({"a.py": EXAMPLE + LEFT[13:]}, "--exit-zero", "a.py"),
    "`--exit-zero` with an error": _scenario({}, "--exit-zero", "a.py",
                                             setup=lambda d: (d / "a.py").write_bytes(b'x = "\xff"\n')),
    "`--exit-zero` with a missing file": _scenario({}, "--exit-zero", "missing.py"),
    "unknown option": _scenario({}, "--bogus", "."),
    "unknown rule selector (`--select XYZ`, config `ignore = [\"XYZ\"]`)":
        _scenario({"a.py": EXAMPLE, "pyproject.toml": '[tool.torchcopy]\nignore = ["XYZ"]\n'}, "a.py"),
    "string where the config wants a list":
        _scenario({"a.py": EXAMPLE, "pyproject.toml": '[tool.torchcopy]\nselect = "TRC"\n'}, "a.py"),
    "config file error": _scenario({"a.py": EXAMPLE, "pyproject.toml": "[tool.torchcopy]\nselec = 1\n"}, "a.py"),
    "file with a syntax error": _scenario({"a.py": "def (:\n"}, "a.py"),
    "missing file": _scenario({}, "missing.py"),
    "undecodable file": _scenario({}, "a.py", setup=lambda d: (d / "a.py").write_bytes(b'x = "\xff"\n')),
    "read-only (0444) file with fixes": _scenario({"a.py": EXAMPLE}, "a.py", setup=lambda d: (d / "a.py").chmod(0o444)),
    "`-` (stdin), fix mode": _scenario({}, "-", stdin=EXAMPLE.encode()),
    "`--add-noqa` with findings": _scenario({"a.py": EXAMPLE}, "--add-noqa", "a.py"),
    "`--statistics` with findings": _scenario({"a.py": EXAMPLE}, "--check", "--statistics", "a.py"),
    "`-s` with findings": _scenario({"a.py": EXAMPLE}, "--check", "-s", "a.py"),
    "fix mode, everything fixed, `--exit-non-zero-on-fix`": _scenario({"a.py": EXAMPLE}, "--exit-non-zero-on-fix",
                                                                      "a.py"),
    "no Python file under the paths": _scenario({}, "empty", setup=lambda d: (d / "empty").mkdir()),
    "`sub/inner.py top.py`, `sub/` with its own config": _scenario(
        {"top.py": EXAMPLE}, "--check", "sub/inner.py", "top.py",
        setup=lambda d: ((d / "sub").mkdir(), (d / "sub" / "inner.py").write_text(EXAMPLE),
                         (d / "sub" / "pyproject.toml").write_text('[tool.torchcopy]\nignore = ["TRC"]\n'))),
    "unknown selector in `--extend-ignore`": _scenario({"a.py": EXAMPLE}, "--extend-ignore", "FOO", "a.py"),
    "`#noqa` (no space) on a finding": _scenario({"a.py": EXAMPLE.replace("detach()\n", "detach()  #noqa\n")},
                                                  "--check", "--select", "TRC103", "a.py"),
    "`# NOQA:trc101` (lower-case code)": _scenario({"a.py": EXAMPLE.replace("(x)\n", "(x)  # NOQA:trc101\n")},
                                                    "--check", "--select", "TRC101", "a.py"),
    "file with newer syntax (`type X = int` under 3.11)": _scenario(
        {"a.py": "type X = int\n" if sys.version_info < (3, 12) else "def (:\n", "b.py": EXAMPLE}, "a.py", "b.py"),
}


def _table_rows():
    with open(os.path.join(os.path.dirname(__file__), os.pardir, "docs", "cli.md"), encoding="utf-8") as fh:
        text = fh.read()
    table = text[text.index("### Conventions beside ruff and pyupgrade"):].split("\n\n")[2]
    for line in table.splitlines()[2:]:
        situation, ours = [cell.strip() for cell in line.strip("|").split(" | ")][:2]
        status = ours.lstrip("*")[:1]
        if status.isdigit():
            yield situation, int(status)


@pytest.mark.parametrize("situation, status", list(_table_rows()))
def test_the_exit_status_table_in_cli_md_is_true(tmp_path, situation, status):
    assert situation in SCENARIOS, f"docs/cli.md row without a scenario here: {situation}"
    assert SCENARIOS[situation](tmp_path) == status


def test_every_scenario_is_a_row_of_the_table():
    assert set(SCENARIOS) == {situation for situation, _ in _table_rows()}
