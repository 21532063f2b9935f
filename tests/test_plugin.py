"""The flake8 plugin through real flake8 runs: codes, positions, options, noqa, no torch import."""
import subprocess
import sys
import textwrap

SOURCE = textwrap.dedent(
    """\
    import torch
    x = torch.randn(3)
    y = x.clone().detach()
    z = torch.tensor(x)  # noqa: TRC101
    w = torch.tensor(x)


    def f(a: torch.Tensor):
        return torch.tensor(a)
    """
)


def flake8(tmp_path, *args, source=SOURCE):
    path = tmp_path / "mod.py"
    path.write_text(source)
    proc = subprocess.run([sys.executable, "-m", "flake8", *args, str(path)],
                          capture_output=True, text=True, cwd=tmp_path)
    lines = [line.split(":", 1)[1] for line in proc.stdout.splitlines()]
    return proc, lines


def test_select_trc_reports_with_flake8_positions(tmp_path):
    proc, lines = flake8(tmp_path, "--select", "TRC")
    assert proc.returncode == 1
    codes = [line.split()[1] for line in lines]
    assert codes == ["TRC103", "TRC101"]
    # flake8 prints 1-based columns: `x.clone()` starts at column 5 of line 3
    assert lines[0].startswith("3:5: TRC103 use x.detach().clone()")
    assert lines[1].startswith("5:5: TRC101")


def test_default_select_includes_plugin(tmp_path):
    proc, lines = flake8(tmp_path)
    assert any(" TRC103 " in line for line in lines)


def test_ignore_and_extend_select(tmp_path):
    _, lines = flake8(tmp_path, "--select", "E", "--extend-select", "TRC10")
    assert any(" TRC101 " in line for line in lines)
    _, lines = flake8(tmp_path, "--select", "TRC", "--ignore", "TRC103")
    assert [line.split()[1] for line in lines] == ["TRC101"]


def test_trust_annotations_option(tmp_path):
    _, lines = flake8(tmp_path, "--select", "TRC", "--torchcopy-trust-annotations")
    assert [line.split()[0] for line in lines] == ["3:5:", "5:5:", "9:12:"]


def test_trust_annotations_from_config(tmp_path):
    (tmp_path / "setup.cfg").write_text("[flake8]\ntorchcopy-trust-annotations = true\n")
    _, lines = flake8(tmp_path, "--select", "TRC")
    assert any(line.startswith("9:12: TRC101") for line in lines)


def test_file_level_noqa(tmp_path):
    proc, lines = flake8(tmp_path, "--select", "TRC", source="# flake8: noqa\n" + SOURCE)
    assert proc.returncode == 0 and lines == []


def test_jobs_give_same_result(tmp_path):
    for i in range(3):
        (tmp_path / f"m{i}.py").write_text(SOURCE)
    one = subprocess.run([sys.executable, "-m", "flake8", "--select", "TRC", "-j", "1", "."],
                         capture_output=True, text=True, cwd=tmp_path).stdout
    two = subprocess.run([sys.executable, "-m", "flake8", "--select", "TRC", "-j", "2", "."],
                         capture_output=True, text=True, cwd=tmp_path).stdout
    assert sorted(one.splitlines()) == sorted(two.splitlines()) and one


def test_linter_never_imports_torch_or_libcst():
    code = (
        "import sys, flake8_torchcopy\n"
        "src = 'import torch\\nx = torch.randn(2)\\ny = torch.tensor(x)\\nz = x.t().view(-1)\\n'\n"
        "assert flake8_torchcopy.lint_source(src)\n"
        "from flake8_torchcopy import plugin\n"
        "print(sorted(m for m in ('torch', 'libcst', 'numpy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_bad_source_is_not_a_crash(tmp_path):
    proc, lines = flake8(tmp_path, "--select", "TRC,E9", source="def f(:\n")
    assert "Traceback" not in proc.stderr
    assert all("TRC" not in line for line in lines)


def test_verify_without_torch_is_one_line(tmp_path):
    """torchcopy-verify on a machine without torch: a clear message, exit 2, no traceback."""
    fake = tmp_path / "torch"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('no torch here')\n")
    env = {"PYTHONPATH": str(tmp_path)}
    import os
    env = {**os.environ, **env}
    proc = subprocess.run([sys.executable, "-c", "import sys; from flake8_torchcopy.verify_command import main; "
                           "sys.exit(main(['--rules']))"], capture_output=True, text=True, env=env)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "pip install 'flake8-torchcopy[verify]'" in proc.stderr
