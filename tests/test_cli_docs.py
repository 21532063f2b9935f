"""Docs about the command line that must stay true: installs that work before a release,
the CPU torch hint, the codemod runner's stdin, the README's TRC107 safety."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GIT_URL = "git+https://github.com/flake8-torchcopy/flake8-torchcopy"


def _commands(text: str):
    """pip install lines and pre-commit additional_dependencies, without their comments."""
    for line in text.splitlines():
        code = line.split("#", 1)[0]
        if "pip install" in code or "additional_dependencies" in code:
            yield code


def test_ci_and_pre_commit_docs_install_from_git_until_a_release():
    for name in ("ci.md", "pre-commit.md"):
        for code in _commands((ROOT / "docs" / name).read_text()):
            if "flake8-torchcopy" in code:
                assert GIT_URL in code, (name, code)


def test_verify_without_torch_says_how_to_get_the_cpu_build(tmp_path):
    fake = tmp_path / "fake" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named torch')\n")
    (tmp_path / "a.py").write_text("import torch\nt = torch.zeros(3)\na = torch.tensor(t)\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "fake")}
    proc = subprocess.run([sys.executable, "-m", "flake8_torchcopy", "--verify", "a.py"], cwd=tmp_path,
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "--index-url https://download.pytorch.org/whl/cpu" in proc.stderr
    assert GIT_URL in proc.stderr


def test_cli_md_says_the_libcst_runner_reads_stdin(tmp_path):
    text = (ROOT / "docs" / "cli.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| stdin |"))
    assert row.rstrip(" |").split("|")[-1].strip().startswith("yes")
    proc = subprocess.run([sys.executable, "-m", "libcst.tool", "codemod", "-x",
                           "flake8_torchcopy.codemods.TorchCopyCommand", "-", "--no-format"],
                          input="import torch\nt = torch.zeros(3)\na = torch.tensor(t)\n",
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0 and "a = t.detach().clone()" in proc.stdout


def test_readme_trc107_safety_agrees_with_the_rule():
    from flake8_torchcopy.rules import RULES_BY_CODE

    row = next(line for line in (ROOT / "README.md").read_text().splitlines() if line.startswith("| [TRC107]"))
    safety = row.strip().strip("|").split("|")[-1]
    safe_part, unsafe_part = re.split(r"\bunsafe\b", safety, maxsplit=1)
    for ex in RULES_BY_CODE["TRC107"].INVALID:
        if ex.fixed is None:
            continue
        if "from_numpy(t.numpy())" in ex.code:
            key = "from_numpy(t.numpy())"
        elif ".tolist()" in ex.code:
            key = ".tolist()"
        else:
            key = ".numpy()"
        assert key in (unsafe_part if ex.unsafe else safe_part), (ex.code, ex.unsafe, safety)
