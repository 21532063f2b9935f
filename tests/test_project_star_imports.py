"""Star imports of the project's own modules (analysis/starimports.py).

``from ..helpers import *`` binds the names of ``helpers``' ``__all__``, else its public
names, the names it imports included (``torch``): where the module is a file of the
project, those names are found, so that the names it does not bind keep what the linted
module bound (``import torch`` above the star) and the ones it binds carry the evidence of
the other module (a function returning a tensor: unsafe fix).  Each look-alike breaks one
condition and must leave the names unknown (no report); each report is checked at run time
(the star import does bind what the analysis says: ``torch.tensor`` warns on a tensor).
"""
import subprocess
import sys
from pathlib import Path

import pytest
from project_tree import write_tree

from flake8_torchcopy import lint_source

HELPERS = """
import torch


def make(n):
    return torch.zeros(n)
"""

USE = "t = torch.tensor(make(3))\n"
LOCAL = "x = torch.zeros(3)\nt = torch.tensor(x)\n"  # torch is the user's own import


def write(root: Path, files: dict) -> Path:
    write_tree(root, {"app/__init__.py": "", "app/sub/__init__.py": "", "app/helpers.py": HELPERS, **files})
    return root / "app" / "sub" / "user.py"


def found(path: Path):
    return [(f.code, bool(f.fix and f.fix.safe)) for f in lint_source(path.read_text(), str(path))]


def user(text: str) -> dict:
    return {"app/sub/user.py": "import torch\n" + text}


def consts(text: str, **more: str) -> dict:
    """The user star-imports ``app/consts.py`` (``text``) and copies a tensor of its own."""
    return {**user("from ..consts import *\n" + LOCAL), "app/consts.py": text,
            **{f"app/{k}.py": v for k, v in more.items()}}


# what is reported: (files, [(code, safe fix)])
REPORTED = {
    "a function of the starred module": (user("from ..helpers import *\n" + USE), [("TRC101", False)]),
    "absolute": (user("from app.helpers import *\n" + USE), [("TRC101", False)]),
    "in a function": (user("from ..helpers import *\ndef f():\n    return torch.tensor(make(3))\nf()\n"),
                      [("TRC101", False)]),
    "through a module that star-imports it": (
        {**user("from ..mid import *\n" + USE), "app/mid.py": "from .helpers import *\n"}, [("TRC101", False)]),
    "re-exported by a relative import": (
        {**user("from ..mid import *\n" + USE), "app/mid.py": "from .helpers import make\n"}, [("TRC101", False)]),
    "a name it does not bind keeps its value": (consts("SCALE = 2\n"), [("TRC101", True)]),
    "a name outside __all__": (consts("import numpy as torch\n__all__ = ['S']\nS = 2\n"), [("TRC101", True)]),
    "a private name": (consts("import numpy as _t\n"), [("TRC101", True)]),
    "the same import again": ({**user("from ..consts import *\ndef f():\n    x = torch.zeros(3)\n"
                                      "    return torch.tensor(x)\nf()\n"),
                               "app/consts.py": "import torch\n"}, [("TRC101", True)]),
    # the fix would move the copy: torch.tensor makes it on the device entered
    "a device entered from the starred module": (
        {**user("from ..consts import *\nx = torch.zeros(3)\nwith dev:\n    t = torch.tensor(x)\n"),
         "app/consts.py": "import torch\ndev = torch.device('meta')\n"}, [("TRC101", False)]),
}

# each breaks one condition of a case above: nothing is reported
QUIET = {
    "the module rebinds torch": consts("import numpy as torch\n"),
    "torch by a def": consts("def torch():\n    pass\n"),
    "torch bound in a block": consts("import os\nif os.environ.get('X'):\n    import numpy as torch\n"),
    "torch declared global": consts("def f():\n    global torch\n    torch = None\n"),
    "a module that stores names unseen": consts("S = 2\nglobals()['T'] = 3\n"),
    "an __all__ not literal": consts("S = 2\n__all__ = [n for n in dir() if n.isupper()]\n"),
    "an __all__ extended": consts("import numpy as torch\nS = 2\n__all__ = ['S']\n__all__ += ['torch']\n"),
    "a star import in a block": consts("try:\n    from .other import *\nexcept ImportError:\n    pass\n",
                                       other="S = 1\n"),
    "a star import of another package": {**user("from numpy import *\n" + LOCAL)},
    "a cycle of star imports": {**user("from ..a import *\n" + LOCAL), "app/a.py": "from .b import *\n",
                                "app/b.py": "from .a import *\n"},
    "a submodule of the starred package": {**user("from .. import *\n" + LOCAL), "app/torch.py": "S = 1\n"},
    "the user bound the name before": user("make = list\nfrom ..helpers import *\n" + USE),
    "the function bound twice": {**user("from ..helpers import *\n" + USE),
                                 "app/helpers.py": HELPERS + "\nmake = list\n"},
    "rebound in the user after": user("from ..helpers import *\nmake = list\ndef f():\n"
                                      "    return torch.tensor(make(3))\n"),
}


@pytest.mark.parametrize("case", sorted(REPORTED))
def test_reported(tmp_path, case):
    files, expected = REPORTED[case]
    assert found(write(tmp_path, files)) == expected


@pytest.mark.parametrize("case", sorted(REPORTED))
def test_the_report_holds_at_run_time(tmp_path, case):
    """Importing the user module warns as the report says (the star bound what it claims)."""
    pytest.importorskip("torch")
    write(tmp_path, REPORTED[case][0])
    run = subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", "import app.sub.user"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert "To copy construct from a tensor" in run.stderr


@pytest.mark.parametrize("case", sorted(QUIET))
def test_quiet(tmp_path, case):
    assert found(write(tmp_path, QUIET[case])) == []


def test_a_submodule_of_the_package_is_only_unknown_when_it_exists(tmp_path):
    """The control of "a submodule of the starred package": without app/torch.py, torch is
    the user's own."""
    assert found(write(tmp_path, user("from .. import *\n" + LOCAL))) == [("TRC101", True)]
