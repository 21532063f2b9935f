"""``torchcopy-fix --verify``: each fix is verified alone before it is applied."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from flake8_torchcopy import cli

pytest.importorskip("torch")
pytestmark = pytest.mark.verify

import flake8_torchcopy.verify as verify_mod  # noqa: E402
from flake8_torchcopy.verify import Report  # noqa: E402

SAFE = "import torch\nx = torch.randn(3)\ny = x.clone().detach()\n"
SAFE_FIXED = "import torch\nx = torch.randn(3)\ny = x.detach().clone()\n"


def run(*args, cwd, env=None):
    full_env = dict(os.environ)
    full_env.pop("CI", None)
    full_env.update(env or {})
    proc = subprocess.run([sys.executable, "-m", "flake8_torchcopy", *map(str, args)],
                          cwd=str(cwd), capture_output=True, env=full_env, timeout=120)
    out, err = proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    return proc.returncode, out, err


def fake_verify(status, calls=None, **fields):
    def verify_fix(old, new, **kwargs):
        if calls is not None:
            calls.append((old, new, kwargs))
        rep = Report("before", "after", status=status, **fields)
        return rep
    return verify_fix


MISMATCH = dict(mismatches=[{"case": "cpu #5 x=float32[2, 3] [inference]", "property": "is_inference",
                             "before": "False", "after": "True"}],
                mismatch_count=1, mismatch_properties={"is_inference": 1})


# ---------------------------------------------------------------- real verifier
def test_a_safe_fix_that_verifies_is_applied(tmp_path):
    (tmp_path / "a.py").write_text(SAFE)
    rc, out, err = run("--verify", "a.py", cwd=tmp_path)
    assert rc == 1  # rewritten
    assert (tmp_path / "a.py").read_text() == SAFE_FIXED
    assert "not applied" not in out and "unverified" not in out
    assert "Fixed 1 issue in 1 file; 0 left" in err


def test_verify_with_jobs_and_json(tmp_path):
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(SAFE + "z = torch.from_numpy(x.numpy())\n")
    rc, out, err = run("--verify", "-q", "-j", "2", "--diff", "--output-format", "json", ".", cwd=tmp_path)
    assert rc == 1
    records = json.loads(err)  # with --diff, stdout is the diff alone
    # the safe TRC103 fix verified and is in the diff; TRC107's unsafe fix is not a candidate
    assert "+y = x.detach().clone()" in out
    assert {r["code"] for r in records} == {"TRC107"}
    assert all(r["verification"] is None for r in records)
    assert (tmp_path / "a.py").read_text() == SAFE + "z = torch.from_numpy(x.numpy())\n"


def test_a_real_mismatch_is_not_applied(tmp_path):
    # TRC107's alias fix differs under inference_mode (found by the verifier)
    src = "import torch\nx = torch.randn(3)\nz = torch.from_numpy(x.numpy())\n"
    (tmp_path / "a.py").write_text(src)
    rc, out, err = run("--verify", "--unsafe-fixes", "--output-format", "json", "a.py", cwd=tmp_path)
    assert rc == 1
    assert (tmp_path / "a.py").read_text() == src
    [rec] = json.loads(out)
    assert rec["verification"]["status"] == "mismatch"
    assert rec["verification"]["property"] == "is_inference"


def test_torch_is_not_imported_without_verify(tmp_path):
    (tmp_path / "a.py").write_text(SAFE)
    code = ("import sys; from flake8_torchcopy import cli; rc = cli.main(['-q', '--check', 'a.py']); "
            "print('torch' in sys.modules, rc)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=str(tmp_path), capture_output=True, timeout=60)
    assert proc.stdout.decode().split()[-2:] == ["False", "1"]


def test_verify_without_torch_exits_2_with_install_hint(tmp_path):
    fake = tmp_path / "fake" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named torch')\n")
    (tmp_path / "a.py").write_text(SAFE)
    rc, out, err = run("--verify", "a.py", cwd=tmp_path, env={"PYTHONPATH": str(tmp_path / "fake")})
    assert rc == 2
    assert len(err.strip().splitlines()) == 1
    assert "pip install 'flake8-torchcopy[verify]'" in err
    assert (tmp_path / "a.py").read_text() == SAFE


def test_require_verified_needs_verify(tmp_path):
    (tmp_path / "a.py").write_text(SAFE)
    assert cli.main(["--require-verified", "a.py"]) == 2
    assert (tmp_path / "a.py").read_text() == SAFE


# ---------------------------------------------------------------- the mechanism (in-process)
def test_a_mismatching_fix_is_not_applied_and_names_the_property(tmp_path, monkeypatch, capsys):
    f = tmp_path / "a.py"
    f.write_text(SAFE)
    calls = []
    monkeypatch.setattr(verify_mod, "verify_fix", fake_verify("mismatch", calls, **MISMATCH))
    rc = cli.main(["--verify", "-j", "1", str(f)])
    out, err = capsys.readouterr()
    assert rc == 1  # the finding is left
    assert f.read_text() == SAFE
    assert f"{f}:3:5: TRC103 fix not applied: mismatch in is_inference (cpu #5 x=float32[2, 3] [inference])" in out
    assert "1 left" in err
    # the fix was verified alone, on the full matrix, once (the verdict is cached)
    assert len(calls) == 1
    assert calls[0][:2] == (SAFE, SAFE_FIXED)
    assert calls[0][2].get("max_cases") is None


def test_verify_max_cases_samples_the_matrix(tmp_path, monkeypatch, capsys):
    f = tmp_path / "a.py"
    f.write_text(SAFE)
    calls = []
    monkeypatch.setattr(verify_mod, "verify_fix", fake_verify("equivalent", calls))
    assert cli.main(["--verify", "--verify-max-cases", "20", "-j", "1", str(f)]) == 1
    assert calls[0][2].get("max_cases") == 20
    assert cli.main(["--verify-max-cases", "20", str(f)]) == 2  # needs --verify
    capsys.readouterr()


@pytest.mark.parametrize("mode", [[], ["--diff"], ["--check"]])
def test_one_message_per_state_in_every_mode(tmp_path, monkeypatch, capsys, mode):
    f = tmp_path / "a.py"
    for status, fields, extra, expected in (
            ("unverified", {"reason": "nope"}, [], "TRC103 fix unverified: nope"),
            ("unverified", {"reason": "nope"}, ["--require-verified"], "TRC103 fix not applied: unverified: nope"),
            ("mismatch", MISMATCH, [], "TRC103 fix not applied: mismatch in is_inference (cpu #5")):
        f.write_text(SAFE)
        monkeypatch.setattr(verify_mod, "verify_fix", fake_verify(status, **fields))
        cli.main(["--verify", "-j", "1", *extra, *mode, str(f)])
        out, err = capsys.readouterr()  # --diff: the findings go to stderr, the diff to stdout
        assert f"{f}:3:5: {expected}" in out + err, (mode, out, err)
        assert "would not be applied" not in out + err
        accepted = status == "unverified" and not extra
        summary_counts_it = "1 fixable" in err or "Fixed 1" in err or "Would fix 1" in err
        assert summary_counts_it == accepted, (mode, extra, err)


def test_the_rewrite_is_verified_as_applied(tmp_path):
    """The safe TRC107 fix: the inner pair (from_numpy(...) -> detach()) differs, the whole
    expression as applied does not, so the fix is applied."""
    src = "import torch\nt = torch.randn(3)\ny = torch.from_numpy(t.detach().numpy()).clone()\n"
    (tmp_path / "a.py").write_text(src)
    rc, out, err = run("--verify", "--verify-max-cases", "100", "a.py", cwd=tmp_path)
    assert rc == 1, out + err
    assert (tmp_path / "a.py").read_text() == src.replace("torch.from_numpy(t.detach().numpy()).clone()",
                                                          "t.detach().clone()")
    assert "not applied" not in out


def test_the_same_rewrite_is_verified_once(tmp_path, monkeypatch, capsys):
    f = tmp_path / "a.py"
    f.write_text(SAFE + "z = x.clone().detach()\nw = x.clone().detach()\n")
    calls = []
    monkeypatch.setattr(verify_mod, "verify_fix", fake_verify("equivalent", calls))
    rc = cli.main(["--verify", "-j", "1", str(f)])
    capsys.readouterr()
    assert rc == 1
    assert f.read_text().count("x.detach().clone()") == 3
    assert len(calls) == 1


def test_require_verified_skips_an_unverified_fix(tmp_path, monkeypatch, capsys):
    f = tmp_path / "a.py"
    f.write_text(SAFE)
    monkeypatch.setattr(verify_mod, "verify_fix",
                        fake_verify("unverified", reason="cannot synthesize inputs: nope"))
    rc = cli.main(["--verify", "--require-verified", "-j", "1", str(f)])
    out, _ = capsys.readouterr()
    assert rc == 1
    assert f.read_text() == SAFE
    assert "TRC103 fix not applied: unverified: cannot synthesize inputs: nope" in out


def test_an_unverified_fix_is_applied_and_listed_without_require_verified(tmp_path, monkeypatch, capsys):
    f = tmp_path / "a.py"
    f.write_text(SAFE)
    monkeypatch.setattr(verify_mod, "verify_fix",
                        fake_verify("unverified", reason="cannot synthesize inputs: nope"))
    rc = cli.main(["--verify", "-j", "1", str(f)])
    out, _ = capsys.readouterr()
    assert rc == 1
    assert f.read_text() == SAFE_FIXED
    assert f"{f}:3:5: TRC103 fix unverified: cannot synthesize inputs: nope" in out


def test_json_carries_verification(tmp_path, monkeypatch, capsys):
    f = tmp_path / "a.py"
    f.write_text(SAFE)
    monkeypatch.setattr(verify_mod, "verify_fix", fake_verify("mismatch", **MISMATCH))
    rc = cli.main(["--verify", "--check", "--output-format", "json", "-j", "1", str(f)])
    out, err = capsys.readouterr()
    assert rc == 1
    assert "Found 1 issue in 1 file\n" in err  # a rejected fix is not counted as fixable
    [rec] = json.loads(out)
    assert rec["verification"]["status"] == "mismatch"
    assert rec["verification"]["property"] == "is_inference"
    assert rec["verification"]["case"].startswith("cpu #5")
    # without --verify the key is there and null
    assert cli.main(["--check", "--output-format", "json", str(f)]) == 1
    [rec] = json.loads(capsys.readouterr()[0])
    assert rec["verification"] is None
