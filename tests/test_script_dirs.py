"""Directories of scripts (analysis/scriptdirs.py): modules with no package beside them,
imported by their top-level names, run with torch.

A file in a directory with no ``__init__.py`` reads its sibling modules as a package's
modules are read: a function's returns, a module global, an instance of an nn.Module class
and what its methods return.  Each report is run as a script of that directory (its
directory first on ``sys.path``): the copy warns, the view raises.  Names Python finds
before the path (the standard library's) and forms not followed stay quiet.
"""
import subprocess
import sys

import pytest
from project_tree import write_tree

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis.project import forget

torch = pytest.importorskip("torch")

HELPERS = """
import torch
import torch.nn as nn


def make(n):
    return torch.zeros(n, 3)


ROOTS = torch.tensor([1.0, 2.0])


class Loader(nn.Module):
    def forward(self, x):
        return torch.zeros(1) + x

    def batchify(self, data, bsz):
        nbatch = data.size(0) // bsz
        trimmed = data.narrow(0, 0, nbatch * bsz)
        return trimmed.contiguous().view(bsz, -1, trimmed.size(-1)).transpose(0, 1)
"""

TRAIN = """
import torch
import helpers
from helpers import make, ROOTS, Loader


def copies(n):
    a = torch.tensor(make(n))
    b = torch.tensor(helpers.make(n))
    c = torch.tensor(ROOTS)
    return a, b, c


def batches(data, bsz):
    loader = Loader()
    batched = loader.batchify(data, bsz)
    return batched[1:3].view(-1).t()  # (bsz, -1) would stay undecided: bsz is no size it knows


if __name__ == "__main__":
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        copies(2)
    print(sum("copy construct from a tensor" in str(w.message) for w in caught))
    try:
        batches(torch.randn(40, 2), 4)
    except RuntimeError as e:
        print("view size is not compatible" in str(e))
"""


def _lint(path):
    forget()
    return [(f.line, f.code, f.fix.safe if f.fix else None) for f in lint_source(path.read_text(), str(path))]


def _line(path, text):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_a_script_reads_the_modules_beside_it(tmp_path):
    write_tree(tmp_path, {"helpers.py": HELPERS, "train.py": TRAIN})
    train = tmp_path / "train.py"
    found = _lint(train)
    assert found == [(_line(train, "torch.tensor(make(n))"), "TRC101", False),
                     (_line(train, "torch.tensor(helpers.make(n))"), "TRC101", False),
                     (_line(train, "torch.tensor(ROOTS)"), "TRC101", False),
                     (_line(train, "batched[1:3].view(-1)"), "TRC201", False)]  # called in a try
    run = subprocess.run([sys.executable, str(train)], cwd=str(tmp_path / ".."), capture_output=True, text=True)
    assert run.stdout.split() == ["3", "True"], run.stderr  # three copies warn; the view raises


QUIET = {
    "a standard-library name beside the script (json.py)": (
        {"json.py": HELPERS},
        "import torch\nimport json\n\n\ndef use(n):\n    return torch.tensor(json.make(n))\n"),
    "a module of a directory below": (
        {"sub/helpers.py": HELPERS},
        "import torch\nimport sub.helpers\n\n\ndef use(n):\n    return torch.tensor(sub.helpers.make(n))\n"),
    "no such module beside it": (
        {},
        "import torch\nimport helpers\n\n\ndef use(n):\n    return torch.tensor(helpers.make(n))\n"),
    "a re-export through another module beside it": (
        {"helpers.py": HELPERS, "again.py": "from helpers import make\n"},
        "import torch\nfrom again import make\n\n\ndef use(n):\n    return torch.tensor(make(n))\n"),
}


LIB_FIRST = ("import os\nimport sys\n\nimport torch\n\n"
             "sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))\n"
             "import helpers  # noqa: E402\n\n\ndef use(n):\n    return torch.tensor(helpers.make(n))\n\n\n"
             "if __name__ == '__main__':\n    import warnings\n"
             "    with warnings.catch_warnings(record=True) as caught:\n"
             "        warnings.simplefilter('always')\n        use(2)\n"
             "    print(sum('copy construct from a tensor' in str(w.message) for w in caught))\n")
QUIET["a script that puts lib/ before its own directory on sys.path"] = (
    {"helpers.py": HELPERS, "lib/helpers.py": "def make(n):\n    return [0.0] * n\n"}, LIB_FIRST)
QUIET["another module of the directory that puts a module into sys.modules"] = (
    {"helpers.py": HELPERS, "boot.py": "import sys\nimport types\n\nsys.modules['helpers'] = types.ModuleType('h')\n"},
    "import torch\nimport helpers\n\n\ndef use(n):\n    return torch.tensor(helpers.make(n))\n")


def test_the_module_a_changed_path_finds_is_another(tmp_path):
    """The script above finds ``lib/helpers.py``, whose ``make`` returns a list: no copy of a
    tensor happens (a report resting on the ``helpers.py`` beside it would be wrong)."""
    write_tree(tmp_path, QUIET["a script that puts lib/ before its own directory on sys.path"][0])
    (tmp_path / "use.py").write_text(LIB_FIRST)
    run = subprocess.run([sys.executable, str(tmp_path / "use.py")], cwd=str(tmp_path / ".."),
                         capture_output=True, text=True)
    assert run.stdout.split() == ["0"], run.stderr


@pytest.mark.parametrize("name", sorted(QUIET))
def test_forms_not_followed_stay_quiet(tmp_path, name):
    files, text = QUIET[name]
    write_tree(tmp_path, dict(files, **{"use.py": text}))
    assert _lint(tmp_path / "use.py") == []


def test_a_script_s_own_closed_functions_still_take_their_calls(tmp_path):
    """What other modules pass is not looked for in a directory of scripts: the calls the
    file shows still seed a private function's parameters (as outside any project)."""
    text = ("import torch\n\n\ndef _copy(t):\n    return torch.tensor(t)\n\n\n"
            "def use():\n    return _copy(torch.ones(2))\n")
    write_tree(tmp_path, {"use.py": text, "other.py": "from use import _copy\n_copy([1.0])\n"})
    assert [c for _, c, _ in _lint(tmp_path / "use.py")] == ["TRC101"]


PREPROCESS = """
import torch
from torch import device


class PickleDataLoad(object):
    def __init__(self, n):
        self.trainData = torch.randn(n, 2)

    def batchify(self, args, data, bsz):
        nbatch = data.size(0) // bsz
        trimmed_data = data.narrow(0, 0, nbatch * bsz)
        batched_data = trimmed_data.contiguous().view(bsz, -1, trimmed_data.size(-1)).transpose(0, 1)
        batched_data = batched_data.to(device(args.device))
        return batched_data
"""

SCRIPT = """
import types

import torch

import preprocess_data

args = types.SimpleNamespace(batch_size=4, device="cpu")
TimeseriesData = preprocess_data.PickleDataLoad(40)
# batchify returns a transposed view (the walk needs a group of TRC201's words in the text)
train_dataset = TimeseriesData.batchify(args, TimeseriesData.trainData, args.batch_size)
try:
    flat = train_dataset.view(-1)
except RuntimeError as e:
    print("view size is not compatible" in str(e))
"""


def test_a_script_s_module_global_holds_another_module_s_method_return(tmp_path):
    """RNN-Time-series-Anomaly-Detection's 1_train_predictor.py: ``train_dataset`` is the
    transposed view ``preprocess_data.PickleDataLoad.batchify`` returns (``.to(device)``
    keeps a dense layout's strides); a view merging its first two dims raises."""
    write_tree(tmp_path, {"preprocess_data.py": PREPROCESS, "script.py": SCRIPT})
    script = tmp_path / "script.py"
    found = _lint(script)
    assert found == [(_line(script, "train_dataset.view(-1)"), "TRC201", False)]  # in a try: unsafe
    run = subprocess.run([sys.executable, str(script)], cwd=str(tmp_path / ".."), capture_output=True, text=True)
    assert run.stdout.split() == ["True"], run.stderr
    x = torch.randn(8, 4, 2).transpose(0, 1)
    assert x.to(torch.device("meta")).stride() == x.stride() == x.to(torch.device("cpu")).stride()


def test_the_rnn_fixture_s_train_dataset_holds_batchify_s_layout(tmp_path):
    """The real site's own files (fixtures/real_sites/rnn_timeseries): a view of the module
    global ``train_dataset`` merging its first two dims is reported; torch raises on it.
    (The site itself, ``targetSeq.view(args.batch_size, -1)`` in ``train``, stays an xfail.)"""
    from pathlib import Path
    fixture = Path(__file__).resolve().parent.parent / "fixtures" / "real_sites" / "rnn_timeseries"
    text = (fixture / "1_train_predictor.py").read_text().replace(
        "feature_dim = TimeseriesData", "flat = train_dataset.view(-1)\nfeature_dim = TimeseriesData")
    write_tree(tmp_path, {"preprocess_data.py": (fixture / "preprocess_data.py").read_text(),
                          "1_train_predictor.py": text})
    script = tmp_path / "1_train_predictor.py"
    # a layout resting on another module: a report, its fix unsafe
    assert (_line(script, "flat = train_dataset.view(-1)"), "TRC201", False) in _lint(script)
    ns: dict = {}
    exec(compile((fixture / "preprocess_data.py").read_text(), "preprocess_data", "exec"), ns)
    import types
    data = ns["PickleDataLoad"].batchify(object(), types.SimpleNamespace(device="cpu"), torch.randn(640, 2), 64)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        data.view(-1)
