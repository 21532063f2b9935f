"""The lint of a file leaves no reference cycles behind: its tree and the walker's tables
are freed as soon as the lint returns, not by Python's garbage collector (which would
otherwise traverse them, and flake8's own objects, in every collection until then)."""
import gc
from pathlib import Path

from flake8_torchcopy import lint_source

ROOT = Path(__file__).resolve().parent.parent

USER = """
import torch
from ..helpers import make


class Base:
    pass


class Child(Base):
    def forward(self, x):
        y = torch.tensor(make(3))
        return x.permute(1, 0).view(-1), y.clone().detach()
"""
HELPER = """
import torch


def make(n):
    return torch.zeros(n).float()


def walked(n):
    t = torch.ones(n)
    return t
"""


def _garbage_after(source: str, path: str) -> int:
    lint_source(source, path)  # warm the per-process caches
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        lint_source(source, path)
        return gc.collect()
    finally:
        if was:
            gc.enable()


def test_no_cycles_left_by_a_lint():
    path = ROOT / "examples" / "metrics.py"
    assert _garbage_after(path.read_text(), str(path)) == 0


def test_no_cycles_left_by_cross_module_summaries(tmp_path):
    for name, text in {"app/__init__.py": "", "app/sub/__init__.py": "", "app/helpers.py": HELPER,
                       "app/sub/user.py": USER}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    user = tmp_path / "app" / "sub" / "user.py"
    found = lint_source(user.read_text(), str(user))
    assert any(f.code == "TRC101" for f in found)  # the summaries were asked
    assert _garbage_after(user.read_text(), str(user)) == 0


def test_fewer_collections_while_a_file_is_analysed_and_restored_after(monkeypatch):
    """The youngest generation is collected less often during the analysis only: the
    caller's setting (flake8's process) is back afterwards, also when the source does not
    parse, and a lint nested in another keeps the outer one's setting."""
    import pytest

    import flake8_torchcopy.rule_runner as runner
    from flake8_torchcopy import engine

    seen = []
    original = runner.run_rules

    def spy(*args, **kwargs):
        seen.append(gc.get_threshold())
        if len(seen) == 1:  # a lint inside a lint (the verifier's probe, fix rounds)
            lint_source("import torch\nx = torch.tensor(torch.ones(2))\n")
            seen.append(gc.get_threshold())
        return original(*args, **kwargs)

    monkeypatch.setattr(runner, "run_rules", spy)
    before = gc.get_threshold()
    lint_source("import torch\nx = torch.tensor(torch.ones(2))\n")
    assert gc.get_threshold() == before
    assert seen[0][0] == max(before[0], engine.GC_YOUNG_THRESHOLD) and seen[0][1:] == before[1:]
    assert seen[1] == seen[2] == seen[0]
    with pytest.raises(SyntaxError):
        lint_source("import torch\nx = torch.tensor(\n")
    assert gc.get_threshold() == before


def test_nothing_of_a_linted_tree_is_kept_after_the_lint(tmp_path):
    """The tree flake8 hands over is freed once the plugin returns and flake8 drops it: no
    cache of the analysis keeps it (or its facts) for the next file, where every full
    collection of the process would walk it."""
    import ast
    import weakref
    for name, text in {"app/__init__.py": "", "app/sub/__init__.py": "", "app/helpers.py": HELPER,
                       "app/sub/user.py": USER}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    user = tmp_path / "app" / "sub" / "user.py"
    attributes = tmp_path / "attributes.py"  # class attribute summaries, data-flow returns
    attributes.write_text(
        "import torch\nimport torch.nn as nn\n\n\ndef make(n):\n    y = torch.zeros(n)\n    return y * 2\n\n\n"
        "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.s = torch.zeros(3)\n"
        "        self.head = nn.Sequential(nn.Linear(3, 3), nn.ReLU())\n\n"
        "    def f(self):\n"
        "        return torch.tensor(self.s), torch.tensor(make(3)), torch.tensor(self.head(self.s))\n")
    for path in (user, ROOT / "examples" / "metrics.py", attributes):
        source = path.read_text()
        tree = ast.parse(source)
        shared = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)  # singletons
        nodes = [weakref.ref(n) for n in ast.walk(tree) if not isinstance(n, shared)]
        assert lint_source(source, str(path), tree=tree)
        del tree
        gc.collect()
        assert [r() for r in nodes if r() is not None] == []
