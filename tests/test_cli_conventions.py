"""``torchcopy-fix`` behaves as ruff and pyupgrade users expect (issue 12): a typo never
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
