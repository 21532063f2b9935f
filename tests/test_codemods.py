"""Fixes as LibCST codemods: both entry points give each example's fixed text, LibCST's
runner writes the same bytes as torchcopy-fix, and only the fixed spans ever change."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys

import libcst
import pytest
from libcst.codemod import CodemodContext, CodemodTest

from flake8_torchcopy import FixRefused, apply_fixes, codemods, fix_source, libcst_edits, lint_source
from flake8_torchcopy.rules import ALL_RULES

FIX_EXAMPLES = [(rule.code, i, ex) for rule in ALL_RULES for i, ex in enumerate(rule.INVALID) if ex.fixed]
MULTILINE = ("import torch\ndef f(n):\n    w = torch.randn(3)\n    return (w  # the weights\n"
             "            .clone(  # keep\n"
             "                memory_format=torch.preserve_format)\n            .detach())  # end\n")
MULTILINE_FIXED = ("import torch\ndef f(n):\n    w = torch.randn(3)\n    return (w  # the weights\n"
                   "            .detach()\n"
                   "            .clone(  # keep\n                memory_format=torch.preserve_format))  # end\n")


def run(*args, cwd, env=None):
    return subprocess.run([sys.executable, *args], cwd=str(cwd), capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=300)


@pytest.mark.parametrize("code,i,ex", FIX_EXAMPLES, ids=[f"{c}-{i}" for c, i, _ in FIX_EXAMPLES])
def test_both_entry_points_give_the_fixed_example(code, i, ex):
    assert fix_source(ex.code, unsafe=ex.unsafe) == ex.fixed
    case = CodemodTest("run")
    case.TRANSFORM = codemods.TorchCopyCommand
    case.assertCodemod(ex.code, ex.fixed, unsafe_fixes=ex.unsafe)
    case.TRANSFORM = codemods.RULE_COMMANDS[code]
    case.assertCodemod(ex.code, ex.fixed, unsafe_fixes=ex.unsafe)
    if ex.unsafe:
        case.assertCodemod(ex.code, ex.code)


def test_rule_commands_come_from_the_registry_and_pickle():
    fixing = {c for c, _, _ in FIX_EXAMPLES}
    assert set(codemods.RULE_COMMANDS) == fixing
    for code, cls in codemods.RULE_COMMANDS.items():
        assert getattr(codemods, f"{code}Command") is cls
        clone = pickle.loads(pickle.dumps(cls(CodemodContext(), unsafe_fixes=True)))
        assert type(clone) is cls and clone.unsafe_fixes and [r.code for r in clone.rules()] == [code]


def test_a_finding_with_a_template_fix_pickles():
    ex = FIX_EXAMPLES[0][2]
    (finding,) = lint_source(ex.code)
    edit = pickle.loads(pickle.dumps(finding.fix)).edits[0]
    assert edit == finding.fix.edits[0]
    assert (edit.content.template, edit.content.holes) == (finding.fix.edits[0].content.template,
                                                           finding.fix.edits[0].content.holes)
    assert apply_fixes(ex.code, [finding])[0] == ex.fixed


def test_select_ignore_and_one_rule():
    src = "import torch\nt = torch.randn(3)\ny = t.clone().detach()\nz = torch.tensor(t)\n"
    only_103 = "import torch\nt = torch.randn(3)\ny = t.detach().clone()\nz = torch.tensor(t)\n"
    case = CodemodTest("run")
    case.TRANSFORM = codemods.TRC103Command
    case.assertCodemod(src, only_103)
    case.TRANSFORM = codemods.TorchCopyCommand
    case.assertCodemod(src, only_103, select=("TRC103",))
    case.assertCodemod(src, only_103, ignore=("TRC101",))
    kept = "w = t.clone().detach()  # noqa: TRC103\n"
    case.assertCodemod(src + kept, only_103 + kept, select=("TRC103",))


def test_a_mistyped_selector_is_an_error(tmp_path):
    (tmp_path / "a.py").write_text("import torch\nx = torch.randn(3)\ny = x.clone().detach()\n")
    proc = run("-m", "libcst.tool", "codemod", "-x", "flake8_torchcopy.codemods.TorchCopyCommand",
               "a.py", "--no-format", "--select", "TRC999", cwd=tmp_path)
    assert proc.returncode == 2 and "unknown rule selector 'TRC999'" in proc.stderr
    assert "clone().detach()" in (tmp_path / "a.py").read_text()


def test_comments_inside_the_chain_and_receiver_are_kept():
    assert fix_source(MULTILINE) == MULTILINE_FIXED
    src = "import torch\nt = torch.randn(3, 3)\ny = torch.tensor(t[0,  # first row\n                    :])\n"
    assert fix_source(src) == ("import torch\nt = torch.randn(3, 3)\n"
                               "y = t[0,  # first row\n                    :].detach().clone()\n")


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_only_the_fixed_span_changes(tmp_path, newline, bom):
    src = ("# ü\n\fimport torch\nx = 1 + \\\n    2\n" + MULTILINE.split("\n", 1)[1]).replace("\n", newline)
    expected = ("# ü\n\fimport torch\nx = 1 + \\\n    2\n" + MULTILINE_FIXED.split("\n", 1)[1]).replace("\n", newline)
    assert fix_source(src) == expected
    (tmp_path / "a.py").write_bytes((bom + src).encode())
    proc = run("-m", "flake8_torchcopy", "a.py", cwd=tmp_path)
    assert "Rewriting a.py" in proc.stderr and " 0 left" in proc.stderr, proc.stderr
    assert (tmp_path / "a.py").read_bytes() == (bom + expected).encode()


def test_a_transformation_that_touches_other_code_is_refused(tmp_path, monkeypatch, capsys):
    from flake8_torchcopy import cli

    class Careless(libcst_edits._Replacer):  # also rewrites every integer
        def on_visit(self, node):
            return True

        def on_leave(self, original_node, updated_node):
            if isinstance(updated_node, libcst.Integer):
                return updated_node.with_changes(value="7")
            return super().on_leave(original_node, updated_node)

    monkeypatch.setattr(libcst_edits, "_Replacer", Careless)
    src = "import torch\nx = torch.randn(3)\nn = 1\ny = x.clone().detach()\n"
    with pytest.raises(FixRefused, match="line 2 "):
        apply_fixes(src, lint_source(src))
    (tmp_path / "a.py").write_text(src)
    assert cli.main(["-j", "1", str(tmp_path / "a.py")]) == 2
    assert "fix refused: LibCST would change the code near line 2 " in capsys.readouterr().err
    assert (tmp_path / "a.py").read_text() == src


def test_lint_and_check_never_import_libcst(tmp_path):
    fake = tmp_path / "fake" / "libcst"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('libcst imported')\n")
    (tmp_path / "a.py").write_text("import torch\nx = torch.randn(3)\ny = x.clone().detach()\n")
    env = {"PYTHONPATH": str(tmp_path / "fake")}
    flake8 = run("-m", "flake8", "--select", "TRC", "a.py", cwd=tmp_path, env=env)
    check = run("-m", "flake8_torchcopy", "--check", "a.py", cwd=tmp_path, env=env)
    for proc in (flake8, check):
        assert "a.py:3:5: TRC103" in proc.stdout and "libcst imported" not in proc.stderr, proc.stderr
    fixing = run("-m", "flake8_torchcopy", "a.py", cwd=tmp_path, env=env)
    assert "libcst imported" in fixing.stdout + fixing.stderr  # the fixer is what needs it


def test_libcst_runner_writes_what_torchcopy_fix_writes(tmp_path):
    from test_cli_hostile import GOOD

    for d in ("runner", "fixer"):
        (tmp_path / d).mkdir()
        for name, (data, _) in GOOD.items():
            (tmp_path / d / name).write_bytes(data)
        (tmp_path / d / "multi.py").write_text(MULTILINE)
        (tmp_path / d / "unsafe.py").write_text("import torch\nt = torch.randn(3)\ny = torch.tensor(t.tolist())\n")
    proc = run("-m", "libcst.tool", "codemod", "-x", "flake8_torchcopy.codemods.TorchCopyCommand",
               "runner", "--no-format", "-j", "2", "--unsafe-fixes", cwd=tmp_path)
    assert "Failed to codemod 0 files" in proc.stderr, proc.stderr
    fixer = run("-m", "flake8_torchcopy", "--unsafe-fixes", "fixer", cwd=tmp_path)
    assert " 0 left" in fixer.stderr and "error" not in fixer.stderr, fixer.stderr
    for name in os.listdir(tmp_path / "fixer"):
        ours = (tmp_path / "fixer" / name).read_bytes()
        assert (tmp_path / "runner" / name).read_bytes() == ours, name
        assert name == "empty.py" or ours != GOOD.get(name, (b"",))[0], name
