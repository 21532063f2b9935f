"""tools/new_rule.py: the scaffold a new rule starts from (see CONTRIBUTING.md)."""
import ast
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import new_rule  # noqa: E402


def copy_package(tmp_path):
    for rel in ("flake8_torchcopy/rules/__init__.py", "flake8_torchcopy/codemods.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, tmp_path / rel)
    return tmp_path / "flake8_torchcopy"


def test_scaffold_writes_the_module_and_registers_it_in_code_order(tmp_path):
    package = copy_package(tmp_path)
    written = new_rule.scaffold(tmp_path, "TRC113", "stack-of-clones")
    module = package / "rules" / "trc113_stack_of_clones.py"
    assert written == [module, package / "rules" / "__init__.py", package / "codemods.py"]
    tree = ast.parse(module.read_text(encoding="utf-8"))
    [cls] = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    assert cls.name == "StackOfClones"
    fields = {t.id for n in cls.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    assert {"code", "name", "summary", "table_finds", "table_fix", "table_safety", "rationale",
            "fix_safety", "triggers", "VALID", "INVALID"} <= fields
    init = (package / "rules" / "__init__.py").read_text(encoding="utf-8")
    assert '    "trc112_factory_then_transfer",\n    "trc113_stack_of_clones",\n    "trc201' in init
    codemods = (package / "codemods.py").read_text(encoding="utf-8")
    ast.parse(codemods)
    assert codemods.index("class TRC112Command(") < codemods.index("class TRC113Command(") \
        < codemods.index("class TRC201Command(")


def test_scaffold_without_a_fix_adds_no_command(tmp_path):
    package = copy_package(tmp_path)
    before = (package / "codemods.py").read_text(encoding="utf-8")
    new_rule.scaffold(tmp_path, "TRC299", "report-only", fix=False)
    assert (package / "codemods.py").read_text(encoding="utf-8") == before
    assert "fixed=None" in (package / "rules" / "trc299_report_only.py").read_text(encoding="utf-8")
    ast.parse((package / "rules" / "__init__.py").read_text(encoding="utf-8"))


@pytest.mark.parametrize("code,name", [("TRC13", "x"), ("TRC113", "Not_Kebab"), ("TRC103", "again")])
def test_scaffold_refuses_bad_or_taken_codes(tmp_path, code, name):
    copy_package(tmp_path)
    (tmp_path / "flake8_torchcopy" / "rules" / "trc103_clone_detach.py").write_text("")
    with pytest.raises(SystemExit):
        new_rule.scaffold(tmp_path, code, name)
