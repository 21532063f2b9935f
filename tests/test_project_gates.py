"""The text gates of the cross-module summaries (analysis/projecttext.py): a module is not
parsed where its text alone shows the asked function is no tensor maker, and an answer
that such a text read says no to is read again when that text changes."""
import textwrap
from pathlib import Path

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import projectdisk


def _write(root: Path, files: dict) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(textwrap.dedent(text).lstrip("\n").encode())
    return root / "app" / "user.py"


def _reports(user: Path):
    return [f.code for f in lint_source(user.read_text(), str(user))]


USER = "import torch\nfrom .helpers import make\nt = torch.tensor(make(3))\n"


@pytest.mark.parametrize("helper", [
    "import torch\n@staticmethod\ndef make(n):\n    return torch.zeros(n)\n",
    "import torch\nasync def make(n):\n    return torch.zeros(n)\n",
    "import torch\ndef make(n):\n    yield torch.zeros(n)\n    return torch.zeros(n)\n",
    "import torch\ndef make(n):\n    torch.zeros(n)\n",
    "import torch\ndef make(n):\n    if n:\n        return None\n    return torch.zeros(n)\n",
    "import torch\ndef make(n):\n    if n:\n        return\n    return torch.zeros(n)\n",
    "import torch\ndef make(n):\n    if n:\n        return (torch.zeros(n),)\n    return torch.zeros(n)\n",
    "import torch\ndef make(n):\n    if n:\n        return [torch.zeros(n)]\n    return torch.zeros(n)\n",
])
def test_the_def_alone_says_no_and_the_module_is_not_parsed(tmp_path, helper):
    user = _write(tmp_path, {"app/__init__.py": "", "app/helpers.py": helper, "app/user.py": USER})
    assert _reports(user) == []
    file = projectdisk._VERSIONS[str(tmp_path / "app" / "helpers.py")]
    assert file.module is projectdisk.UNPARSED


@pytest.mark.parametrize("helper", [
    # blank lines with CRLF breaks and a comment at column 0 inside the body
    "import torch\r\ndef make(n):\r\n    t = torch.zeros(n)\r\n\r\n# note\r\n    return t\r\n",
    # a nested function returning a constant is not the function's return
    "import torch\ndef make(n):\n    def inner():\n        return 1\n    return torch.zeros(inner())\n",
    # a column-0 string line inside the body: the def does not parse alone, the module is read
    'import torch\ndef make(n):\n    t = torch.zeros(n)\n    doc = """\ntext\n"""\n    return t\n',
])
def test_what_the_def_alone_cannot_rule_out_is_still_found(tmp_path, helper):
    user = _write(tmp_path, {"app/__init__.py": "", "app/helpers.py": helper, "app/user.py": USER})
    assert _reports(user) == ["TRC101"]


def test_a_text_gate_read_through_another_module_is_read_again(tmp_path):
    """``make`` returns ``g(n)`` of another module, whose text first says no (no ``def g``
    mentioning torch): when it changes, the remembered answer for ``make`` is not used."""
    user = _write(tmp_path, {
        "app/__init__.py": "", "app/user.py": USER,
        "app/helpers.py": "import torch\nfrom .b import g\n\n\ndef make(n):  # torch\n    return g(n)\n",
        "app/b.py": "def g(n):\n    return [n]\n"})
    assert _reports(user) == []
    (tmp_path / "app" / "b.py").write_text("import torch\n\n\ndef g(n):\n    return torch.zeros(n)\n")
    assert _reports(user) == ["TRC101"]
