"""Evidence across the modules of a project (analysis/project.py).

A project is written to disk: a package ``app`` with a helper module, and a user module
that passes the helper's result to ``torch.tensor``.  The helper's result is a tensor only
where every return of the helper makes one, the name is bound once where it is defined and
where it is imported, and the import resolves to a file of the user's own package; each
look-alike below breaks one of these and must leave the call unknown (no report).  Reports
that rest on another module have an unsafe fix: applied only with ``--unsafe-fixes``.
"""
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Optional

import pytest

from flake8_torchcopy import lint_source

ROOT = Path(__file__).resolve().parent.parent

HELPER = """
import torch
import numpy as np


def make(n):
    return torch.zeros(n)


def as_list(n):
    return [0.0] * n


def as_array(n):
    return np.zeros(n)


def sometimes(n):
    if n:
        return torch.zeros(n)
    return None


def falls_off(n):
    if n:
        return torch.zeros(n)


def shadowed(torch):
    return torch.zeros(3)
"""


def write(root: Path, files: dict) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip("\n"))


def project(root: Path, user: str, extra: Optional[dict] = None) -> Path:
    """``app/`` with ``helpers.py`` (HELPER), ``sub/user.py`` (``user``) and the ``extra``
    files ({relative path: text})."""
    files = {"app/__init__.py": "", "app/sub/__init__.py": "", "app/helpers.py": HELPER,
             "app/sub/user.py": "import torch\n" + textwrap.dedent(user).lstrip("\n")}
    files.update(extra or {})
    write(root, files)
    return root / "app" / "sub" / "user.py"


def found(path: Path):
    return [(f.code, f.line, bool(f.fix and f.fix.safe)) for f in lint_source(path.read_text(), str(path))]


# ----------------------------------------------------------------------- evidence
@pytest.mark.parametrize("user", [
    "from ..helpers import make\nt = torch.tensor(make(3))\n",
    "from app.helpers import make\nt = torch.tensor(make(3))\n",
    "from app.helpers import make as mk\nt = torch.tensor(mk(3))\n",
    "import app.helpers as h\nt = torch.tensor(h.make(3))\n",
    "import app.helpers\nt = torch.tensor(app.helpers.make(3))\n",
    "from ..helpers import make\ndef f():\n    return torch.tensor(make(3))\n",
    "from .. import helpers\nt = torch.tensor(helpers.make(3))\n",
    "from .. import helpers as h\ndef f():\n    return torch.tensor(h.make(3))\n",
])
def test_imported_helper_is_a_tensor_and_its_fix_unsafe(tmp_path, user):
    user_py = project(tmp_path, user)
    got = found(user_py)
    assert [c for c, _, _ in got] == ["TRC101"]
    assert not any(safe for _, _, safe in got)


def test_re_export_through_package_init(tmp_path):
    user_py = project(tmp_path, "from app import make\nfrom .. import make as m2\n"
                                "a = torch.tensor(make(3))\nb = torch.tensor(m2(3))\n",
                      {"app/__init__.py": "from .helpers import make\n"})
    assert [c for c, _, _ in found(user_py)] == ["TRC101", "TRC101"]


def test_the_helper_returns_a_tensor_when_run(tmp_path):
    """The evidence the test project rests on holds at run time."""
    pytest.importorskip("torch")
    project(tmp_path, "from ..helpers import make\nt = make(3)\n")
    code = "import torch, app.sub.user as u; assert type(u.t) is torch.Tensor"
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True)


# ----------------------------------------------------------------------- no evidence
@pytest.mark.parametrize("name", ["as_list", "as_array", "sometimes", "falls_off", "shadowed", "missing"])
def test_helpers_that_may_return_something_else(tmp_path, name):
    user_py = project(tmp_path, f"from ..helpers import {name}\nt = torch.tensor({name}(3))\n")
    assert found(user_py) == []


@pytest.mark.parametrize("user", [
    # rebound in the importing module
    "from ..helpers import make\nmake = list\ndef f():\n    return torch.tensor(make(3))\n",
    "try:\n    from ..helpers import make\nexcept ImportError:\n    make = list\nt = torch.tensor(make(3))\n",
    "try:\n    from ..helpers import make\nexcept ImportError:\n    make = list\n"
    "def f():\n    return torch.tensor(make(3))\n",
    # a star import of another top-level package may bind it (those of the project: test_project_star_imports.py)
    "from ..helpers import make\nfrom other import *\ndef f():\n    return torch.tensor(make(3))\n",
    "from ..helpers import make\nfrom other.helpers import *\nt = torch.tensor(make(3))\n",
    "from .. import helpers\nhelpers = None\ndef f():\n    return torch.tensor(helpers.make(3))\n",
    # too many dots: outside the top package
    "from ...helpers import make\nt = torch.tensor(make(3))\n",
    # another top-level package of the same layout
    "from helpers import make\nt = torch.tensor(make(3))\n",
    "from other.helpers import make\nt = torch.tensor(make(3))\n",
])
def test_names_that_may_be_something_else_here(tmp_path, user):
    user_py = project(tmp_path, user, OTHERS)
    assert found(user_py) == []
    # the control: the same project, the name imported once from the package
    project(tmp_path, "from ..helpers import make\nt = torch.tensor(make(3))\n", OTHERS)
    assert len(found(user_py)) == 1


OTHERS = {"app/other.py": "", "helpers.py": HELPER, "other/__init__.py": "", "other/helpers.py": HELPER}


@pytest.mark.parametrize("helper_extra", [
    "def make(n):\n    return [n]\n",  # a second def
    "make = list\n",
    "from .other import *\n",
    "exec('make = list')\n",
    "import sys\nsys.modules[__name__].make = list\n",
    "def g():\n    global make\n    make = list\n",
])
def test_helper_module_may_bind_the_name_again(tmp_path, helper_extra):
    user_py = project(tmp_path, "from ..helpers import make\nt = torch.tensor(make(3))\n",
                      {"app/other.py": "", "app/helpers.py": HELPER + helper_extra})
    assert found(user_py) == []
    (tmp_path / "app" / "helpers.py").write_text(HELPER + "\n" * (len(helper_extra) + 1))  # the control (another size)
    assert len(found(user_py)) == 1


def test_syntax_error_cycle_and_missing_modules(tmp_path):
    user_py = project(tmp_path, """
        from ..broken import make
        from ..loop_a import make as a
        from ..nowhere import make as n
        from ..ns.helpers import make as ns
        t = torch.tensor(make(3)), torch.tensor(a(3)), torch.tensor(n(3)), torch.tensor(ns(3))
        """, {
        "app/broken.py": "import torch\ndef make(n):\n    return torch.zeros(n\n",
        "app/loop_a.py": "from .loop_b import make\n", "app/loop_b.py": "from .loop_a import make\n",
        "app/ns/helpers.py": HELPER})  # app/ns has no __init__.py: a namespace package
    assert found(user_py) == []


def test_init_binding_the_submodule_name(tmp_path):
    """``app.helpers`` is whatever ``app/__init__.py`` binds ``helpers`` to."""
    user_py = project(tmp_path, "import app.helpers as h\nt = torch.tensor(h.make(3))\n",
                      {"app/__init__.py": "helpers = None\n"})
    assert found(user_py) == []
    (tmp_path / "app" / "__init__.py").write_text("from . import helpers\n")
    assert [c for c, _, _ in found(user_py)] == ["TRC101"]


def test_package_function_shadowed_by_a_submodule(tmp_path):
    user_py = project(tmp_path, "from app import make\nt = torch.tensor(make(3))\n",
                      {"app/__init__.py": "import torch\ndef make(n):\n    return torch.zeros(n)\n",
                       "app/make.py": ""})
    assert found(user_py) == []


def test_a_directory_of_scripts_and_no_file(tmp_path):
    write(tmp_path, {"helpers.py": HELPER,
                     "script.py": "import torch\nfrom helpers import make\nt = torch.tensor(make(3))\n"})
    script = tmp_path / "script.py"
    # no package: the modules beside it are its project (analysis/scriptdirs.py, tests/test_script_dirs.py)
    assert found(script) == [("TRC101", 3, False)]  # a report, its fix unsafe
    assert lint_source(script.read_text()) == []  # no path: no project


def test_a_changed_helper_is_read_again(tmp_path):
    user_py = project(tmp_path, "from ..helpers import make\nt = torch.tensor(make(3))\n")
    assert len(found(user_py)) == 1
    (tmp_path / "app" / "helpers.py").write_text("def make(n):\n    return [n] * n\n")
    assert found(user_py) == []


# ----------------------------------------------------------------------- tools
def test_flake8_and_torchcopy_fix(tmp_path):
    user_py = project(tmp_path, "from ..helpers import make\nt = torch.tensor(make(3))\n")
    before = user_py.read_text()
    out = subprocess.run([sys.executable, "-m", "flake8", "--select", "TRC", "app"], cwd=tmp_path,
                         capture_output=True, text=True).stdout
    assert "app/sub/user.py:3:5: TRC101" in out.replace("\\", "/")
    fix = [sys.executable, "-m", "flake8_torchcopy"]
    check = subprocess.run(fix + ["--check", "app"], cwd=tmp_path, capture_output=True, text=True)
    assert check.returncode == 1 and "TRC101" in check.stdout and "fixable with --unsafe-fixes" in check.stderr
    subprocess.run(fix + ["app"], cwd=tmp_path, capture_output=True, text=True)
    assert user_py.read_text() == before  # the fix rests on another module: not applied by default
    subprocess.run(fix + ["--unsafe-fixes", "app"], cwd=tmp_path, capture_output=True, text=True)
    assert user_py.read_text() != before and "make(3).detach().clone()" in user_py.read_text()
    if has_torch():
        subprocess.run([sys.executable, "-c", "import app.sub.user"], cwd=tmp_path, check=True)


def has_torch() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


# ----------------------------------------------------------------------- laziness
def fresh() -> None:
    """Forget everything the summaries remember (as a new process would)."""
    from flake8_torchcopy.analysis import project as p

    p.forget()


def test_only_the_functions_asked_about_are_decided(tmp_path, monkeypatch):
    """A module asked about twice is parsed once, and only the asked function is decided
    (once: the second file's question is answered from memory)."""
    from flake8_torchcopy.analysis import projectdisk, projectmodule

    extra = {"app/sub/other.py": "import torch\nfrom ..helpers import make\nu = torch.tensor(make(2))\n"}
    user_py = project(tmp_path, "from ..helpers import make\nt = torch.tensor(make(3))\n", extra)
    decided = []
    original = projectmodule.Module.decide
    monkeypatch.setattr(projectmodule.Module, "decide", lambda self, name: decided.append(name) or original(self, name))
    assert len(found(user_py)) == 1
    assert len(found(tmp_path / "app" / "sub" / "other.py")) == 1
    assert decided == ["make"]
    helpers = projectdisk._VERSIONS[str(tmp_path / "app" / "helpers.py")].module
    assert helpers is not None and set(helpers.decided) == {"make"}
    assert helpers.candidates == {"make", "sometimes", "shadowed"}  # falls_off may end without a return


CYCLE = {
    # a.make -> b.g -> a.zeros: deciding a.make enters a again (a cycle: no answer);
    # b.g alone reads a.zeros, which reads nothing of b (a tensor)
    "app/a.py": "import torch\nfrom .b import g\n\n\ndef make(n):  # a torch tensor\n    return g(n)\n\n\n"
                "def zeros(n):\n    return torch.zeros(n)\n",
    "app/b.py": "import torch\nfrom .a import zeros\n\n\ndef g(n):  # a torch tensor\n    return zeros(n)\n",
    "app/sub/use_a.py": "import torch\nfrom ..a import make\nt = torch.tensor(make(3))\n",
    "app/sub/use_b.py": "import torch\nfrom ..b import g\nt = torch.tensor(g(3))\n",
}


@pytest.mark.parametrize("order", [("use_a", "use_b"), ("use_b", "use_a"), ("use_a", "use_a", "use_b"),
                                   ("use_b", "use_b", "use_a")])
def test_a_cycle_found_lazily_answers_the_same_in_any_order(tmp_path, order):
    project(tmp_path, "", CYCLE)
    fresh()
    got = {name: len(found(tmp_path / "app" / "sub" / f"{name}.py")) for name in order}
    assert got == {"use_a": 0, "use_b": 1}


def test_a_changed_module_read_through_another_is_read_again(tmp_path):
    """``make`` returns what another module's ``g`` returns: when that module changes, the
    remembered answer for ``make`` is not used."""
    user_py = project(tmp_path, "from ..a import make\nt = torch.tensor(make(3))\n", {
        "app/a.py": "import torch\nfrom .b import g\n\n\ndef make(n):  # a torch tensor\n    return g(n)\n",
        "app/b.py": "import torch\n\n\ndef g(n):\n    return torch.zeros(n)\n"})
    assert len(found(user_py)) == 1
    (tmp_path / "app" / "b.py").write_text("import torch\n\n\ndef g(n):\n    return [torch.zeros(n)]\n")
    assert found(user_py) == []
    (tmp_path / "app" / "b.py").write_text("import torch\n\n\ndef g(n):\n    return torch.ones(n)\n")
    assert len(found(user_py)) == 1


def test_order_of_files_does_not_change_the_answers(tmp_path):
    files = dict(CYCLE, **{"app/sub/use_h.py": "import torch\nfrom ..helpers import make, sometimes\n"
                                               "t = torch.tensor(make(3)), torch.tensor(sometimes(3))\n"})
    project(tmp_path, "", files)
    names = ["use_a", "use_b", "use_h"]
    runs = []
    for order in (names, names[::-1], names[1:] + names[:1]):
        fresh()
        runs.append({n: found(tmp_path / "app" / "sub" / f"{n}.py") for n in order})
    assert runs[0] == runs[1] == runs[2]
    assert len(runs[0]["use_h"]) == 1


def test_the_quick_dynamic_test_is_the_pattern():
    """``returns.dynamic_text`` answers as ``returns._RETURN_DYNAMIC_RE`` does (its quick
    form, one alternative at a time): on each form, near misses, and real modules."""
    from flake8_torchcopy.analysis.returns import _RETURN_DYNAMIC_RE, dynamic_text

    texts = ["exec(x)", "a.exec(x)", "xexec(1)", "_eval(1)", "eval", "import sys\nsys .\n modules",
             "from x import modules", "from x import (a,\n modules)", "import x; modules", "importmodules",
             "modules = import_", "vars()", "varsity", "_vars", "évars", "locals_", "globals()",
             "__builtins__", "builtins", "d.__dict__", "import importlib", "importlib_x", "x = 1\n", HELPER]
    texts += [path.read_text(encoding="utf-8") for path in sorted(ROOT.glob("flake8_torchcopy/**/*.py"))]
    for text in texts:
        assert dynamic_text(text) == bool(_RETURN_DYNAMIC_RE.search(text)), text[:80]
