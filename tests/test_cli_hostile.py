"""``torchcopy-fix`` on a tree of hostile files: bad ones untouched and named, good ones
fixed with their encoding and line endings kept, and never a traceback."""
from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

EXAMPLE = "import torch\nx = torch.randn(3)\ny = x.clone().detach()\nz = torch.tensor(x)\n"
FIXED = "import torch\nx = torch.randn(3)\ny = x.detach().clone()\nz = x.detach().clone()\n"


def run(*args, cwd, stdin=None):
    env = dict(os.environ)
    env.pop("CI", None)
    proc = subprocess.run(
        [sys.executable, "-m", "flake8_torchcopy", *args],
        cwd=str(cwd), input=stdin, capture_output=True, env=env, timeout=300,
    )
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), err


UNICODE_NAME = "my naïve fïle ñ.py"

GOOD = {
    # name: (bytes written, bytes expected after the fix)
    "latin1.py": (
        ("# -*- coding: latin-1 -*-\n# café\n" + EXAMPLE).encode("latin-1"),
        ("# -*- coding: latin-1 -*-\n# café\n" + FIXED).encode("latin-1"),
    ),
    "bom.py": (b"\xef\xbb\xbf" + ("# ü\n" + EXAMPLE).encode(), b"\xef\xbb\xbf" + ("# ü\n" + FIXED).encode()),
    "crlf.py": (EXAMPLE.replace("\n", "\r\n").encode(), FIXED.replace("\n", "\r\n").encode()),
    "cr_mixed.py": (("# mixed\r\n" + EXAMPLE).encode(), ("# mixed\r\n" + FIXED).encode()),
    "longline.py": (
        (EXAMPLE + "s = '" + "a" * 100_000 + "'\n").encode(),
        (FIXED + "s = '" + "a" * 100_000 + "'\n").encode(),
    ),
    "empty.py": (b"", b""),
    "noeol.py": (EXAMPLE.rstrip("\n").encode(), FIXED.rstrip("\n").encode()),
    UNICODE_NAME: (EXAMPLE.encode(), FIXED.encode()),
}

BAD = {
    # name: (bytes, a word the reason must contain)
    "syntax.py": ((EXAMPLE + "def (:\n").encode(), "SyntaxError"),
    "badutf8.py": (EXAMPLE.encode() + b"# \xff\xfe broken\n", "decode"),
    "binary.py": (EXAMPLE.encode() + b"\x00\x01\x02\n", "binary"),
    "tabs.py": (("import torch\nx = torch.randn(3)\nif True:\n        y = x.clone().detach()\n\tz = 1\n").encode(),
                "TabError"),
    "nested.py": ((EXAMPLE + "w = " + "(" * 300 + "1" + ")" * 300 + "\n").encode(), "nested"),
    "badcookie.py": (("# -*- coding: klingon -*-\n" + EXAMPLE).encode(), "klingon"),
    "indent.py": ((EXAMPLE + "  q = 1\n").encode(), "IndentationError"),
}


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "tree"
    root.mkdir()
    for name, (data, _) in GOOD.items():
        (root / name).write_bytes(data)
    for name, (data, _) in BAD.items():
        (root / name).write_bytes(data)
    os.chmod(root / "crlf.py", 0o754)
    # a symlink loop among the files, and a directory symlink pointing back up
    os.symlink("loop_b.py", root / "loop_a.py")
    os.symlink("loop_a.py", root / "loop_b.py")
    (root / "sub").mkdir()
    os.symlink("..", root / "sub" / "up", target_is_directory=True)
    (root / "sub" / "ok.py").write_bytes(EXAMPLE.encode())
    return root


def test_hostile_tree(tree):
    rc, out, err = run(".", cwd=tree)
    assert rc == 2
    for name, (data, word) in BAD.items():
        assert (tree / name).read_bytes() == data, name
        line = next((l for l in err.splitlines() if l.startswith(name + ": ")), None)
        assert line is not None, (name, err)
        assert word.lower() in line.lower(), line
    for name, (_, expected) in GOOD.items():
        assert (tree / name).read_bytes() == expected, name
    assert (tree / "sub" / "ok.py").read_bytes() == FIXED.encode()
    assert stat.S_IMODE(os.stat(tree / "crlf.py").st_mode) == 0o754
    assert f"Rewriting {UNICODE_NAME}" in err
    # the symlink loop is not followed while walking; no temporary files are left
    assert "loop_a" not in err
    assert not [p for p in os.listdir(tree) if p.endswith(".tmp")]
    # a second run has nothing more to fix, and still names the bad files
    rc, out, err2 = run(".", cwd=tree)
    assert rc == 2 and "Rewriting" not in err2
    assert sorted(l.split(": ")[0] for l in err2.splitlines() if ": " in l and not l.startswith("Fixed")) == sorted(BAD)


def test_hostile_files_named_explicitly(tree):
    rc, out, err = run("--check", "loop_a.py", "binary.py", "empty.py", UNICODE_NAME, cwd=tree)
    assert rc == 2
    assert "loop_a.py: cannot read" in err
    assert "binary.py: cannot check: binary content" in err
    assert f"{UNICODE_NAME}:3:" in out
    assert (tree / UNICODE_NAME).read_bytes() == EXAMPLE.encode()


def test_hostile_check_and_diff_write_nothing(tree):
    before = {p: p.read_bytes() for p in tree.iterdir() if p.is_file() and not p.is_symlink()}
    for mode in ("--check", "--diff"):
        rc, out, err = run(mode, "-j", "2", ".", cwd=tree)
        assert rc == 2
        assert {p: p.read_bytes() for p in before} == before
    rc, out, err = run("--diff", "crlf.py", "latin1.py", cwd=tree)
    assert rc == 1 and "+y = x.detach().clone()" in out


@pytest.mark.parametrize("name", sorted(BAD))
def test_hostile_stdin(name):
    data = BAD[name][0]
    rc, out, err = run("-", "--stdin-filename", name, cwd=os.getcwd(), stdin=data)
    assert rc == 2 and err.startswith(name + ": ")


def test_stdin_keeps_encoding_and_newlines():
    for name in ("latin1.py", "bom.py", "crlf.py"):
        data, expected = GOOD[name]
        proc = subprocess.run(
            [sys.executable, "-m", "flake8_torchcopy", "-", "--stdin-filename", name],
            input=data, capture_output=True, timeout=120,
        )
        assert proc.stdout == expected, name
        assert b"Traceback" not in proc.stderr


def test_unwritable_directory_is_reported(tmp_path):
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("root can write anywhere")
    d = tmp_path / "ro"
    d.mkdir()
    (d / "a.py").write_text(EXAMPLE)
    os.chmod(d, 0o555)
    try:
        rc, out, err = run("a.py", cwd=d)
        assert rc == 2 and "a.py: cannot write" in err
        assert (d / "a.py").read_text() == EXAMPLE
    finally:
        os.chmod(d, 0o755)


@pytest.mark.parametrize("breakage", ["def (:\n", "return 1\n"])
def test_fix_producing_invalid_code_leaves_file_untouched(tmp_path, monkeypatch, capsys, breakage):
    """A (simulated) buggy fix: the file is not written, the error is named, exit 2."""
    from flake8_torchcopy import cli, engine

    real = engine.apply_fixes

    def broken(source, findings, unsafe=False):
        new, applied = real(source, findings, unsafe)
        return (new + breakage if applied else new), applied

    monkeypatch.setattr(engine, "apply_fixes", broken)
    f = tmp_path / "a.py"
    f.write_text(EXAMPLE)
    other = tmp_path / "b.py"
    other.write_text("import torch\n")
    rc = cli.main(["-j", "1", str(f), str(other)])
    err = capsys.readouterr().err
    assert rc == 2
    assert f"{f}: internal error: fix produced invalid code (please report)" in err
    assert f.read_text() == EXAMPLE
    assert "Traceback" not in err
