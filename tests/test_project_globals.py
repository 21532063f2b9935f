"""Module globals of another module of the project (analysis/projectglobals.py).

``from ..consts import ROOTS`` where ``app/consts.py`` binds ``ROOTS`` once, at its top
level, to a torch constructor's tensor: reading ``ROOTS`` gives a tensor, so
``torch.tensor(ROOTS[0])`` is reported, its fix unsafe (the other module may change).  Each
look-alike breaks one condition and must stay quiet; each report is checked at run time
(importing the user module warns as the report says).
"""
import subprocess
import sys
from pathlib import Path

import pytest
from project_tree import write_tree

from flake8_torchcopy import lint_source

CONSTS = "import numpy as np\nimport torch\n\nROOTS = torch.tensor(np.arange(6.0)).reshape(2, 3)\n"
USE = "t = torch.tensor(ROOTS[0])\n"
IN_METHOD = "class C:\n    def f(self, i):\n        return torch.tensor(ROOTS[i])\nC().f(1)\n"


def write(root: Path, files: dict) -> Path:
    write_tree(root, {"app/__init__.py": "", "app/sub/__init__.py": "", "app/consts.py": CONSTS, **files})
    return root / "app" / "sub" / "user.py"


def user(text: str, **more: str) -> dict:
    return {"app/sub/user.py": "import torch\n" + text, **{f"app/{k}.py": v for k, v in more.items()}}


def found(path: Path):
    return [(f.code, bool(f.fix and f.fix.safe)) for f in lint_source(path.read_text(), str(path))]


REPORTED = {
    "relative": user("from ..consts import ROOTS\n" + USE),
    "absolute": user("from app.consts import ROOTS\n" + USE),
    "renamed": user("from ..consts import ROOTS as R\nt = torch.tensor(R[0])\n"),
    "in a method": user("from ..consts import ROOTS\n" + IN_METHOD),
    "re-exported by the package": {**user("from app import ROOTS\n" + USE),
                                   "app/__init__.py": "from .consts import ROOTS\n"},
    "through a star import": user("from ..consts import *\n" + USE),
    "annotated": user("from ..consts import ROOTS\n" + USE,
                      consts="import torch\nROOTS: torch.Tensor = torch.zeros(2, 3)\n"),
}

QUIET = {
    "a list, on the first line": user("from ..consts import ROOTS\n" + USE, consts="ROOTS = [[0.0]]\nimport torch\n"),
    "bound twice": user("from ..consts import ROOTS\n" + USE, consts=CONSTS + "ROOTS = [[0.0]]\n"),
    "bound in a block": user("from ..consts import ROOTS\n" + USE,
                             consts="import torch\nimport os\nif os.environ.get('X'):\n"
                                    "    ROOTS = torch.zeros(2, 3)\nelse:\n    pass\n"),
    "declared global in a function": user("from ..consts import ROOTS\n" + USE,
                                          consts=CONSTS + "def reset():\n    global ROOTS\n    ROOTS = None\n"),
    "numpy's": user("from ..consts import ROOTS\n" + USE, consts="import numpy as np\nROOTS = np.zeros((2, 3))\n"),
    "a call of the module's": user("from ..consts import ROOTS\n" + USE,
                                   consts="import torch\ndef make():\n    return [1]\nROOTS = make()\n"),
    "torch is not torch there": user("from ..consts import ROOTS\n" + USE,
                                     consts="import numpy as torch\nROOTS = torch.zeros((2, 3))\n"),
    "names stored unseen": user("from ..consts import ROOTS\n" + USE, consts=CONSTS + "globals()['X'] = 1\n"),
    "a star import there": user("from ..consts import ROOTS\n" + USE, consts=CONSTS + "from os.path import *\n"),
    "a submodule of the same name": {**user("from app import ROOTS\n" + USE),
                                     "app/__init__.py": CONSTS, "app/ROOTS.py": ""},
    "rebound by the user": user("from ..consts import ROOTS\nROOTS = [[1]]\n" + IN_METHOD),
    "another top-level package": {**user("from other.consts import ROOTS\n" + USE),
                                  "other/__init__.py": "", "other/consts.py": CONSTS},
    "a parameter of the same name": user("from ..consts import ROOTS\ndef f(ROOTS):\n"
                                         "    return torch.tensor(ROOTS[0])\nf([[1]])\n"),
}


@pytest.mark.parametrize("case", sorted(REPORTED))
def test_reported_with_an_unsafe_fix(tmp_path, case):
    assert found(write(tmp_path, REPORTED[case])) == [("TRC101", False)]


@pytest.mark.parametrize("case", sorted(REPORTED))
def test_the_report_holds_at_run_time(tmp_path, case):
    pytest.importorskip("torch")
    write(tmp_path, REPORTED[case])
    run = subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", "import app.sub.user"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert "To copy construct from a tensor" in run.stderr


@pytest.mark.parametrize("case", sorted(QUIET))
def test_quiet(tmp_path, case):
    assert found(write(tmp_path, QUIET[case])) == []
