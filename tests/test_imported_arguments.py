"""A name another module binds, as an argument of a torch function, may make its result a
Tensor subclass: a third module may rebind it first (``app.macro.C_DTYPE = obj``), and a
``dtype=`` with ``__torch_function__`` decides what ``torch.zeros`` returns (checked with
torch in tests/test_review_20261125.py).  ``from .macro import C_DTYPE`` and a star import
of the module gave a safe fix where ``from app.macro import C_DTYPE`` gave an unsafe one
(torchquantum: functional/func_controlled_unitary.py:100 against
operator/standard_gates/qubit_unitary.py:121); all three are unsafe now.  Run here: the
fix keeps the subclass that ``torch.tensor`` made plain.
"""
import subprocess
import sys

import pytest
from project_tree import write_tree

from flake8_torchcopy import lint_source

MACRO = "import torch\nC_DTYPE = torch.complex64\ndef helper():\n    return 1\n"
HACK = """
import torch
import app.macro

class Sub(torch.Tensor):
    pass

class Obj:
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return torch.zeros(2, 2, dtype=torch.complex64).as_subclass(Sub)

app.macro.C_DTYPE = Obj()
"""
USE = "\n\ndef make():\n    return torch.tensor(torch.zeros(2, 2, dtype=C_DTYPE))\n"
IMPORTS = {"relative": "from .macro import C_DTYPE", "star": "from app.macro import *",
           "relative star": "from .macro import *", "absolute": "from app.macro import C_DTYPE"}


def fixes(path) -> list:
    return [bool(f.fix and f.fix.safe) for f in lint_source(path.read_text(), str(path)) if f.code == "TRC101"]


@pytest.mark.parametrize("form", sorted(IMPORTS))
def test_an_imported_argument_leaves_the_fix_unsafe(tmp_path, form):
    write_tree(tmp_path, {"app/__init__.py": "", "app/macro.py": MACRO, "app/hack.py": HACK,
                          "app/user.py": "import torch\n" + IMPORTS[form] + USE})
    assert fixes(tmp_path / "app" / "user.py") == [False]
    run = ("import warnings, torch; warnings.simplefilter('ignore'); import app.hack, app.user as u; "
           "print(type(u.make()).__name__, type(torch.zeros(2, 2, dtype=u.C_DTYPE).detach().clone()).__name__)")
    out = subprocess.run([sys.executable, "-c", run], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["Tensor", "Sub"]  # what the original and the fix return


def test_a_module_constant_of_its_own_stays_safe():
    src = "import torch\nDT = torch.float64\nt = torch.tensor(torch.zeros(2, dtype=DT))\n"
    assert [bool(f.fix and f.fix.safe) for f in lint_source(src) if f.code == "TRC101"] == [True]


ITEM_MACRO = "N = 3\n"
ITEM_HACK = """
import torch
import app.macro

class Sub(torch.Tensor):
    pass

class Box:
    def item(self):
        return torch.tensor(2.0).as_subclass(Sub)

app.macro.N = Box()
"""
ITEM_USE = "\n\ndef make():\n    return torch.tensor(torch.ones(3) * N.item())\n"


@pytest.mark.parametrize("form", ["from .macro import N", "from .macro import *", "from app.macro import *"])
def test_an_item_read_of_an_imported_name_leaves_the_fix_unsafe(tmp_path, form):
    # N.item() of a name another module binds is no number for sure: its item() may hand back
    # a 0-dim subclass, and ones(3) * it is then that subclass, which detach().clone() keeps
    write_tree(tmp_path, {"app/__init__.py": "", "app/macro.py": ITEM_MACRO, "app/hack.py": ITEM_HACK,
                          "app/user.py": "import torch\n" + form + ITEM_USE})
    assert fixes(tmp_path / "app" / "user.py") == [False]
    run = ("import warnings, torch; warnings.simplefilter('ignore'); import app.hack, app.user as u; "
           "print(type(u.make()).__name__, type((torch.ones(3) * u.N.item()).detach().clone()).__name__)")
    out = subprocess.run([sys.executable, "-c", run], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["Tensor", "Sub"]
