"""Parameter summaries across modules (analysis/projectcallers.py).

A project is written to disk: ``app/helpers.py`` defines a private helper that copies its
argument with ``torch.tensor(x)`` (TRC101 when ``x`` is a tensor) and does not call it;
other modules of ``app`` import and call it.  The helper's parameter is a tensor only where
every call in the project passes one and nothing else in the project can reach the helper;
each look-alike below breaks that and must stay quiet, next to a control that reports.
Reports that rest on another module's calls have an unsafe fix.
"""
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Optional

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.engine import Options

HELPER = """
import torch


def _norm(x):
    return torch.tensor(x)


def norm(x):
    return torch.tensor(x)
"""

CALL = "import torch\nfrom ..helpers import _norm\n\n\ndef run(n):\n    return _norm(torch.zeros(n))\n"


def write(root: Path, files: dict) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip("\n"))


def project(root: Path, user: Optional[str] = CALL, extra: Optional[dict] = None, helper: str = HELPER) -> Path:
    """``app/`` with ``helpers.py`` (``helper``), ``sub/user.py`` (``user``) and the
    ``extra`` files; the path of ``helpers.py``."""
    files = {"app/__init__.py": "", "app/sub/__init__.py": "", "app/helpers.py": helper}
    if user is not None:
        files["app/sub/user.py"] = user
    files.update(extra or {})
    write(root, files)
    return root / "app" / "helpers.py"


def found(path: Path, **options):
    fresh()
    return [(f.code, f.line, bool(f.fix and f.fix.safe))
            for f in lint_source(path.read_text(), str(path), options=Options(**options))]


def fresh() -> None:
    from flake8_torchcopy.analysis import project as p

    p.forget()


REPORT = [("TRC101", 5, False)]  # the helper's torch.tensor(x), its fix unsafe


# ----------------------------------------------------------------------- evidence
def _via(imp: str, callee: str = "_norm") -> str:
    return CALL.replace("from ..helpers import _norm", imp).replace("_norm(torch", callee + "(torch")


@pytest.mark.parametrize("user", [
    CALL,
    _via("from app.helpers import _norm"),
    _via("import app.helpers as h", "h._norm"),
    _via("from app import helpers", "helpers._norm"),
    _via("from .. import helpers", "helpers._norm"),
    _via("from ..helpers import (\n    _norm,\n)"),
    CALL + "\n\nclass M:\n    def f(self, t):\n        return self._norm(t)\n",  # its own method
    CALL + "\n\ndef g():\n    def _norm(v):\n        return v\n    return _norm([1])\n",  # a local function
])
def test_a_tensor_passed_from_another_module(tmp_path, user):
    assert found(project(tmp_path, user)) == REPORT


def test_joined_with_the_modules_own_calls(tmp_path):
    own = HELPER + "\n\ny = _norm(torch.ones(2))\n"
    assert found(project(tmp_path, helper=own)) == REPORT
    unknown = HELPER + "\n\ndef h(data):\n    return _norm(data)\n"
    assert found(project(tmp_path, helper=unknown)) == []


def test_another_modules_own_helper_of_the_same_name(tmp_path):
    """A module with its own ``_norm``, called with a list, calls another function."""
    other = "def _norm(v):\n    return v\n\n\nz = _norm([1, 2])\n"
    assert found(project(tmp_path, extra={"app/other.py": other})) == REPORT


# ----------------------------------------------------------------------- look-alikes
LOOKALIKES = {
    # what another module passes is unknown
    "unknown argument": (CALL, {"app/b.py": "from .helpers import _norm\n\n\ndef f(d):\n    return _norm(d)\n"}),
    "a default left": ("import torch\nfrom ..helpers import _norm2\n\n\ndef run():\n    return _norm2()\n", {}),
    "star args": (CALL, {"app/b.py": "from .helpers import _norm\n\n\ndef f(a):\n    return _norm(*a)\n"}),
    # it may be reached unseen
    "passed as a value": (CALL, {"app/b.py": "from .helpers import _norm\n\nF = [_norm]\n"}),
    "imported under another name": (CALL, {"app/b.py": "from .helpers import _norm as n\n\nn([1])\n"}),
    "re-exported": (CALL, {"app/__init__.py": "from .helpers import _norm\n",
                           "app/b.py": "from app import _norm\n\n_norm([1])\n"}),
    "named in a string": (CALL, {"app/b.py": "from . import helpers\n\ngetattr(helpers, '_norm')([1])\n"}),
    "in __all__": (CALL, {"app/b.py": "from .helpers import _norm\n\n__all__ = ['_norm']\n"}),
    "module passed around": (CALL, {"app/b.py": "def f(mod):\n    return mod._norm([1])\n"}),
    "through the package": (CALL, {"app/b.py": "import app.helpers\n\napp.helpers._norm([1])\n"}),
    "exec": (CALL, {"app/b.py": "from .helpers import _norm\nexec('x = 1')\n_norm(1)\n"}),
    "rebound": (CALL, {"app/b.py": "from .helpers import _norm\n_norm = print\n"}),
    "imported in a function": (CALL, {"app/b.py": "def f():\n    from .helpers import _norm\n    return _norm\n"}),
    "not UTF-8": (CALL, {"app/b.py": "# \xe9\n"}),
    "no call anywhere": (None, {}),
}


def _lookalike(root: Path, case: str) -> Path:
    user, extra = LOOKALIKES[case]
    helper = HELPER + "\n\ndef _norm2(x=[0]):\n    return torch.tensor(x)\n"
    path = project(root, user, extra, helper)
    if case == "not UTF-8":
        (root / "app" / "b.py").write_bytes("# \xe9\n".encode("latin-1"))
    return path


@pytest.mark.parametrize("case", sorted(LOOKALIKES))
def test_lookalikes_stay_quiet(tmp_path, case):
    path = _lookalike(tmp_path, case)
    if case == "a default left":
        assert ("TRC101", 13, False) not in found(path)
        return
    assert found(path) == [], case


@pytest.mark.parametrize("case", sorted(set(LOOKALIKES) - {"no call anywhere", "a default left"}))
def test_each_lookalike_has_a_control_that_reports(tmp_path, case):
    """The same project with the other module's line made plain (a tensor, called directly)."""
    path = _lookalike(tmp_path, case)
    b = tmp_path / "app" / "b.py"
    if b.exists():
        b.write_text("import torch\nfrom .helpers import _norm\n\n_norm(torch.zeros(1))\n")
    if (tmp_path / "app" / "__init__.py").read_text():
        (tmp_path / "app" / "__init__.py").write_text("")
    assert found(path) == REPORT, case


def test_control_for_a_default_left(tmp_path):
    path = _lookalike(tmp_path, "a default left")
    (tmp_path / "app" / "sub" / "user.py").write_text(
        "import torch\nfrom ..helpers import _norm2\n\n_norm2(torch.zeros(1))\n")
    assert ("TRC101", 13, False) in found(path)


def test_public_function_only_with_public_helpers(tmp_path):
    user = CALL.replace("_norm", "norm")
    path = project(tmp_path, user)
    assert found(path) == []
    assert found(path, public_helpers=True) == [("TRC101", 9, False)]
    # a star import may bring a public name in unseen
    star = {"app/b.py": "from .helpers import *\n\nnorm([1])\n"}
    assert found(project(tmp_path, user, star), public_helpers=True) == []


def test_a_file_outside_any_package_is_not_looked_at(tmp_path):
    user = "import torch\nfrom helpers import _norm\n_norm(torch.zeros(1))\n"
    write(tmp_path, {"helpers.py": HELPER, "user.py": user})
    assert found(tmp_path / "helpers.py") == []


def test_a_changed_caller_is_read_again(tmp_path):
    """The package's index is made once per process; a file holding the name is read
    again where it changed."""
    path = project(tmp_path)
    assert found(path) == REPORT
    from flake8_torchcopy.analysis import projectdisk
    user = tmp_path / "app" / "sub" / "user.py"
    user.write_text(CALL.replace("_norm(torch.zeros(n))", "_norm(n)  # an unknown, now"))
    projectdisk.forget()  # the file's version may have the same mtime: only the text is read again
    assert [(f.code, f.line) for f in lint_source(path.read_text(), str(path))] == []


# ----------------------------------------------------------------------- cost
def test_the_index_is_made_only_for_a_candidate_and_once(tmp_path, monkeypatch):
    from flake8_torchcopy.analysis import packageindex

    made = []
    real = packageindex.PackageIndex.__init__

    def counting(self, base):
        made.append(base)
        real(self, base)

    monkeypatch.setattr(packageindex.PackageIndex, "__init__", counting)
    path = project(tmp_path)
    fresh()
    user = tmp_path / "app" / "sub" / "user.py"
    assert lint_source(user.read_text(), str(user)) == []  # no private helper a rule may match in
    assert made == []
    assert [f.code for f in lint_source(path.read_text(), str(path))] == ["TRC101"]
    assert [f.code for f in lint_source(path.read_text(), str(path))] == ["TRC101"]
    assert len(made) == 1


def test_the_index_finds_every_file_the_parse_would_take(tmp_path):
    """The text index may leave out a file only where every occurrence of the name is the
    file's own (a def, a parameter, a call of its own function, prose, ``self._n``)."""
    from flake8_torchcopy.analysis.packageindex import PackageIndex

    files = {
        "p/__init__.py": "",
        "p/a.py": "from .h import _n\n",
        "p/b.py": "from .h import (\n    x,\n    _n,\n)\n",
        "p/c.py": "import p.h as m\nm . _n(1)\n",
        "p/d.py": "x = getattr(m, '_n')\n",
        "p/e.py": '__all__ = ["_n"]\n',
        "p/f.py": "exec('from p.h import _n')\n",
        "p/g.py": "from .h import *\n_n(1)\n",
        "p/own.py": "def _n(v):\n    return v\n\n\n_n(1)  # _n\n",
        "p/meth.py": "class C:\n    def f(self):\n        return self._n() + cls._n()\n",
    }
    write(tmp_path, files)
    fresh()
    index = PackageIndex(str(tmp_path / "p"))
    taken = {Path(index.files[k]).name for k in index.holding("_n")}
    assert taken == {"a.py", "b.py", "c.py", "d.py", "e.py", "f.py", "g.py"}



def test_a_search_for_one_name_answers_as_the_index_does(tmp_path):
    """The first names asked are answered by a search of the texts, the later ones by the
    index of every file's words: both give the same files, for every form and every name."""
    from flake8_torchcopy.analysis import packageindex

    files = {
        "p/__init__.py": "",
        "p/a.py": "from .h import _n\nmyself._m(1)\n",
        "p/b.py": "from .h import (\n    x,\n    _n,\n)\nself ._m(1)\n",
        "p/c.py": "import p.h as m\nm . _n(1)\na.self._m()\n",
        "p/d.py": "x = getattr(m, '_n')\nself.  _k()\n",
        "p/e.py": '__all__ = ["_n"]\nself._m()\n',
        "p/f.py": "exec('from p.h import _n')\n\u00e9self._k()\n",
        "p/g.py": "from .h import *\n_n(1)\nx_k = 1\n",
        "p/own.py": "def _n(v):\n    return v\n\n\n_n(1)  # _n\ncls._k()\n",
        "p/meth.py": "class C:\n    def f(self):\n        return self._n() + cls._n()\n",
        "p/selfmod.py": "import p.h as self\nself._k(1)\n",
    }
    write(tmp_path, files)
    fresh()
    names = ["_n", "_m", "_k", "_h", "_absent"]
    searched = packageindex.PackageIndex(str(tmp_path / "p"))
    indexed = packageindex.PackageIndex(str(tmp_path / "p"))
    indexed.scanned = packageindex.SCANNED_NAMES
    assert len(names) <= packageindex.SCANNED_NAMES
    answers = {name: tuple(searched.holding(name)) for name in names}
    for name in names:
        assert answers[name] == tuple(indexed.holding(name)), name
    taken = {name: {Path(searched.files[k]).name for k in answers[name]} for name in names}
    assert taken["_m"] == {"a.py", "b.py", "c.py"}  # after `myself.`, `self .`, `a.self.`
    assert taken["_k"] == {"f.py", "g.py", "selfmod.py"}  # `\u00e9self.`, a star file, `self` imported
    assert searched.scanned == len(names) and indexed.scanned == packageindex.SCANNED_NAMES


def test_the_index_is_made_once_after_a_few_searches(tmp_path, monkeypatch):
    from flake8_torchcopy.analysis import packageindex

    write(tmp_path, {"p/__init__.py": "", "p/a.py": "from .h import _n0\n"})
    fresh()
    made = []
    real = packageindex.reaching_words
    monkeypatch.setattr(packageindex, "reaching_words", lambda text: made.append(text) or real(text))
    index = packageindex.PackageIndex(str(tmp_path / "p"))
    for i in range(packageindex.SCANNED_NAMES):
        assert [Path(index.files[k]).name for k in index.holding(f"_n{i}")] == (["a.py"] if i == 0 else [])
    assert len(made) == 1  # only the file holding a name asked was looked at
    assert [Path(index.files[k]).name for k in index.holding("_n0")] == ["a.py"]
    assert made[1:] == [""]  # the index reads the other file, not again the one already read
    index.holding("_n1")
    assert len(made) == 2

ANNOTATED_HELPER = """
import torch
from torch import Tensor


def _fill(t: Tensor, v) -> Tensor:
    return t.new_tensor(v)


def fill(t: Tensor, v):
    return _fill(t, v)
"""


@pytest.mark.parametrize("other", [
    "from .helpers import _fill\nimport torch\n\n\ndef g(n):\n    return _fill(torch.ones(n), torch.ones(n))\n",
    "from .helpers import _fill\nimport torch\n\n\ndef g(t: torch.Tensor):\n    return _fill(t, [1.0])\n",
])
def test_calls_passing_only_annotated_tensors_do_not_ask_other_modules(tmp_path, monkeypatch, other):
    """``fill``'s call gives ``_fill`` an annotated tensor and an unknown: joined with what
    other modules pass, an annotated tensor seeds nothing, so the other modules are not read;
    asking them anyway finds the same."""
    from flake8_torchcopy.analysis import callsites, projectcallers

    path = project(tmp_path, user=None, extra={"app/b.py": other}, helper=ANNOTATED_HELPER)
    asked = []
    real = projectcallers.other_calls
    monkeypatch.setattr(projectcallers, "other_calls", lambda *a: asked.append(a) or real(*a))
    quiet = found(path)
    assert asked == []
    monkeypatch.setattr(callsites, "_informative", lambda c, records: True)
    assert found(path) == quiet
    assert asked  # the forced question was asked, and changed nothing


# ----------------------------------------------------------------------- tools and torch
def test_flake8_torchcopy_fix_and_torch(tmp_path):
    path = project(tmp_path)
    before = path.read_text()
    out = subprocess.run([sys.executable, "-m", "flake8", "--select", "TRC", "app"], cwd=tmp_path,
                         capture_output=True, text=True).stdout
    assert "app/helpers.py:5:12: TRC101" in out.replace("\\", "/")
    fix = [sys.executable, "-m", "flake8_torchcopy"]
    check = subprocess.run(fix + ["--check", "app"], cwd=tmp_path, capture_output=True, text=True)
    assert check.returncode == 1 and "TRC101" in check.stdout
    subprocess.run(fix + ["app"], cwd=tmp_path, capture_output=True, text=True)
    assert path.read_text() == before  # the fix rests on another module's calls: not applied by default
    # torch agrees: the call from the other module copy-constructs from a tensor
    run = ("import warnings, app.sub.user as u\nwith warnings.catch_warnings(record=True) as w:\n"
           "    warnings.simplefilter('always')\n    u.run(3)\n"
           "assert any('copy construct from a tensor' in str(x.message) for x in w), [str(x.message) for x in w]\n")
    subprocess.run([sys.executable, "-c", run], cwd=tmp_path, check=True)
