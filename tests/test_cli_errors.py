"""Error messages of the console scripts: they name what is wrong, and the exit status agrees."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
PYTHON = f"Python {sys.version_info[0]}.{sys.version_info[1]}"
SRC = "import torch\nt = torch.zeros(3)\na = torch.tensor(t)\n"


def script(name, *args, cwd):
    exe = BIN / name
    cmd = [str(exe)] if exe.exists() else [shutil.which(name) or name]
    proc = subprocess.run([*cmd, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("sizes, bad", [("1,abc", "'abc'"), ("0", "'0'"), ("2^x", "'2^x'"), (",", "no size")])
def test_verify_bad_sizes_name_the_option_and_the_value(tmp_path, sizes, bad):
    rc, out, err = script("torchcopy-verify", "--sizes", sizes, "--before", "t.clone()", "--after", "t.clone()",
                          cwd=tmp_path)
    assert rc == 2 and not out
    assert err.startswith("torchcopy-verify: --sizes") and bad in err and "int()" not in err


@pytest.mark.parametrize("option", ["--before", "--after"])
def test_verify_a_called_name_is_not_a_tensor_input(tmp_path, option):
    exprs = {"--before": "t.clone()", "--after": "t.clone()"}
    exprs[option] = "foo(t)"
    rc, out, err = script("torchcopy-verify", "--before", exprs["--before"], "--after", exprs["--after"],
                          "--no-bench", cwd=tmp_path)
    assert rc == 2 and not out and option in err and "'foo'" in err and "not defined" in err


def test_verify_a_bad_before_is_unverified_exit_3(tmp_path):
    """docs/verification.md: an expression that does not parse is reported unverified (3)."""
    rc, out, err = script("torchcopy-verify", "--before", "t.clone(", "--after", "t", "--no-bench", cwd=tmp_path)
    assert rc == 3 and out.startswith("unverified:") and "not an expression" in out
    text = (Path(__file__).resolve().parent.parent / "docs" / "verification.md").read_text()
    assert "`--before` or `--after` that is not an expression" in text and "**3**" in text


def test_binary_content_is_an_error(tmp_path):
    (tmp_path / "bin.py").write_bytes(b"x = 1\0\n")
    (tmp_path / "ok.py").write_text(SRC)
    rc, out, err = script("torchcopy-fix", "--check", "bin.py", "ok.py", cwd=tmp_path)
    assert rc == 2
    assert "bin.py: cannot check: binary content" in err and "skipped" not in err
    assert "1 error" in err and "ok.py:3:5: TRC101" in out


def test_a_syntax_error_names_the_python_and_the_other_files_are_checked(tmp_path):
    # PEP 695 (3.12) syntax, or a syntax error in every version
    newer = "type X = int\n" if sys.version_info < (3, 12) else "def (:\n"
    (tmp_path / "new.py").write_text(newer)
    (tmp_path / "ok.py").write_text(SRC)
    for order in (("new.py", "ok.py"), ("ok.py", "new.py")):
        rc, out, err = script("torchcopy-fix", "--check", *order, cwd=tmp_path)
        assert rc == 2
        assert f"new.py: cannot parse with {PYTHON}: SyntaxError: " in err
        assert "ok.py:3:5: TRC101" in out
    rc, _, err = script("torchcopy-fix", "new.py", "ok.py", cwd=tmp_path)
    assert rc == 2 and "Rewriting ok.py" in err and (tmp_path / "new.py").read_text() == newer


@pytest.mark.parametrize("mode", [(), ("--diff",), ("--check",)])
def test_the_compilers_warnings_on_user_code_are_not_printed(tmp_path, monkeypatch, mode):
    # an invalid escape sequence: a DeprecationWarning before 3.12, a SyntaxWarning since; the
    # fix rounds parse the text again, which printed it once more for every file fixed
    text = 'import re\nP = re.compile("\\d+")\n' + SRC
    (tmp_path / "esc.py").write_text(text)
    monkeypatch.setenv("PYTHONWARNINGS", "default")  # shown, as 3.12 shows SyntaxWarnings
    rc, out, err = script("torchcopy-fix", *mode, "esc.py", cwd=tmp_path)
    assert "invalid escape sequence" not in err + out
    assert ("TRC101" in out) if mode == ("--check",) else ("1 issue" in err + out)
    if not mode:
        assert (tmp_path / "esc.py").read_text() == text.replace("torch.tensor(t)", "t.detach().clone()")
