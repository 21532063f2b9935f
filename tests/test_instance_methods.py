"""What ``m.method(...)`` returns, ``m`` an instance of a project nn.Module class
(analysis/instancemethods.py), run with torch.

Each reported program raises the view error (TRC201) or warns (TRC101) when run; each
refusal is a program where something the analysis cannot follow changes the method (an
instance attribute shadowing it, a base from elsewhere, a decorator...), quiet, and where
running it shows the quiet is right.  Then the same across two modules of a package, and
the fact the evidence rests on: a method called by name runs no forward hook or pre-hook.
"""
import importlib
import subprocess
import sys
import textwrap

import pytest
from copywarning import copies_a_tensor
from project_tree import write_tree

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis.project import forget

torch = pytest.importorskip("torch")

VIEW_ERROR = "view size is not compatible"
HEAD = "import torch\nimport torch.nn as nn\n\n"

ENC = """
class Enc(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)

    def batched(self, x, bsz):
        return x.contiguous().view(bsz, -1, x.size(-1)).transpose(0, 1)

"""

#: a model holding an instance (every store of self.enc constructs Enc) and viewing a method's return
MODEL = """
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = Enc()

    def forward(self, x):
        y = self.enc.batched(x, 4)
        return y.view(y.size(0) * y.size(1), -1).t()


def use():
    return Model()(torch.randn(24, 3))
"""


def source(body: str, enc: str = ENC) -> str:
    return HEAD + textwrap.dedent(enc).lstrip("\n") + "\n" + textwrap.dedent(body).lstrip("\n")


def reports(src: str):
    return [(f.code, f.line) for f in lint_source(src, "case.py")]


def raises_view_error(src: str) -> bool:
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    try:
        ns["use"]()
    except RuntimeError as e:
        return VIEW_ERROR in str(e)
    return False


def _line(src: str, text: str) -> int:
    return next(i for i, line in enumerate(src.splitlines(), 1) if text in line)


def test_a_method_of_an_attribute_instance_is_followed():
    src = source(MODEL)
    found = lint_source(src, "case.py")
    assert [(f.code, f.line) for f in found] == [("TRC201", _line(src, "y.view("))]
    assert "self.enc.batched(x, 4).size(0) == 1" in found[0].message
    assert raises_view_error(src)


def test_a_method_of_a_local_instance_and_a_tensor_it_returns():
    src = source("""
        class Pair(nn.Module):
            def forward(self, x):
                return x

            def zeros(self, n):
                return torch.zeros(n, 2), n

        def use():
            z, n = Pair().zeros(3)
            t = torch.tensor(z)
            y = Enc().batched(torch.randn(12, 2), 3)
            return y.view(-1).t()
        """)
    found = lint_source(src, "case.py")
    assert [(f.code, f.line) for f in found] == [("TRC101", _line(src, "torch.tensor(z)")),
                                                 ("TRC201", _line(src, "y.view(-1)"))]
    assert found[0].fix is not None and not found[0].fix.safe  # a store not seen may replace it
    assert raises_view_error(src)
    assert copies_a_tensor(src.replace("    return y.view(-1).t()\n", "    return t\n"))


REFUSED = {
    "an instance attribute shadowing the method": MODEL.replace(
        "self.enc = Enc()", "self.enc = Enc()\n        self.enc.batched = lambda x, b: x.view(b, -1)"),
    "a store of the method anywhere in the module": MODEL + "\nEnc.batched = lambda self, x, b: x.view(b, -1)\n",
    "setattr in the module": MODEL.replace(
        "self.enc = Enc()", "self.enc = Enc()\n        setattr(self.enc, 'batched', lambda x, b: x.view(b, -1))"),
    "an instance from a parameter (its class not known)": MODEL.replace(
        "def __init__(self):\n        super().__init__()\n        self.enc = Enc()",
        "def __init__(self, enc):\n        super().__init__()\n        self.enc = enc").replace(
        "Model()(", "Model(Flat())(") + "\n\nclass Flat(nn.Module):\n    def batched(self, x, b):\n"
        "        return x.view(b, -1, x.size(-1))\n",
}

#: changes to the class that the analysis does not follow (each keeps the view raising or
#: not: what matters is that the analysis stays quiet where it cannot know)
REFUSED_CLASSES = {
    "a decorated method": ENC.replace("    def batched", "    @staticmethod\n    def _s(x):\n"
                                      "        return x\n\n    @torch.no_grad()\n    def batched"),
    "a __getattribute__ in the class": ENC + "    def __getattribute__(self, name):\n"
                                             "        return super().__getattribute__(name)\n\n",
    "returns laid out in two orders": ENC.replace(
        "        return x.contiguous()", "        if bsz > 100:\n            return x.contiguous().view(bsz, -1)\n"
        "        return x.contiguous()"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refusals_are_quiet(name):
    src = source(REFUSED[name])
    assert reports(src) == []
    assert not raises_view_error(src)  # the view works: the method run is another


@pytest.mark.parametrize("name", sorted(REFUSED_CLASSES))
def test_classes_not_followed_are_quiet(name):
    assert reports(source(MODEL, REFUSED_CLASSES[name])) == []


def test_a_method_called_by_name_runs_no_hook():
    """The certainty the module doc claims: forward hooks and pre-hooks run for ``m(x)``
    (``nn.Module.__call__``), never for ``m.batched(x)``; so hooks cannot replace what a
    method returns (nor its arguments)."""
    ns: dict = {}
    exec(compile(source(""), "case", "exec"), ns)
    m = ns["Enc"]()
    ran = []
    m.register_forward_pre_hook(lambda mod, args: ran.append("pre") or (torch.zeros(2, 4),))
    m.register_forward_hook(lambda mod, args, out: ran.append("post") or torch.ones(1))
    handle = torch.nn.modules.module.register_module_forward_hook(lambda mod, a, out: ran.append("global"))
    try:
        y = m.batched(torch.randn(12, 2), 3)
        assert ran == [] and y.shape == (4, 3, 2) and y.stride() == (2, 8, 1)
        out = m(torch.randn(3, 4))
        assert out.tolist() == [1.0] and {"pre", "global", "post"} <= set(ran)
    finally:
        handle.remove()


PACKAGE = {
    "xpkg/__init__.py": "",
    "xpkg/enc.py": HEAD + textwrap.dedent(ENC) + textwrap.dedent("""
        class Pair(nn.Module):
            def forward(self, x):
                return torch.zeros(1) + x.sum()

            def zeros(self, n):
                return torch.zeros(n, 2), n
        """),
    "xpkg/model.py": """
        import torch
        import torch.nn as nn
        from .enc import Enc, Pair


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.enc = Enc()
                self.pair = Pair()

            def forward(self, x):
                y = self.enc.batched(x, 4)
                return y.view(y.size(0) * y.size(1), -1).t()

            def copied(self):
                z, n = self.pair.zeros(3)
                return torch.tensor(z)
        """,
}


def test_a_method_of_an_instance_of_another_module(tmp_path):
    write_tree(tmp_path, PACKAGE)
    path = tmp_path / "xpkg" / "model.py"
    found = lint_source(path.read_text(), str(path))
    assert [(f.code, f.line) for f in found] == [("TRC201", 14), ("TRC101", 18)]
    assert all(f.fix is not None and not f.fix.safe for f in found)  # evidence from another module
    sys.path.insert(0, str(tmp_path))
    try:
        mod = importlib.import_module("xpkg.model")
        with pytest.raises(RuntimeError, match=VIEW_ERROR):
            mod.Model()(torch.randn(24, 3))
        assert copies_a_tensor("import xpkg.model as m\n", "m.Model().copied()")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("xpkg")]:
            del sys.modules[name]


def test_another_module_storing_the_method_is_not_seen_but_its_own_store_is(tmp_path):
    files = dict(PACKAGE)
    files["xpkg/enc.py"] = files["xpkg/enc.py"] + "\n\nEnc.batched = Enc.forward\n"
    write_tree(tmp_path, files)
    path = tmp_path / "xpkg" / "model.py"
    assert lint_source(path.read_text(), str(path)) == []


LOADER = """
class Loader:
    def __init__(self, n):
        self.n = n

    def batchify(self, data, bsz):
        return data.contiguous().view(bsz, -1, data.size(-1)).transpose(0, 1)


def use():
    loader = Loader(3)
    y = loader.batchify(torch.randn(12, 2), 3)
    return y.view(-1).t()
"""


def test_a_method_of_a_plain_class_instance():
    """A class with no base (or ``object``): its instance is never called, its methods
    are followed as an nn.Module's are (RNN-Time-series' ``PickleDataLoad.batchify``)."""
    for src in (source(LOADER), source(LOADER.replace("class Loader:", "class Loader(object):"))):
        assert reports(src) == [("TRC201", _line(src, "y.view(-1)"))]
        assert raises_view_error(src)


PLAIN_REFUSED = {
    "a method nn.Module's instances return themselves by (train)": LOADER.replace(
        "    def batchify", "    def train(self):\n        return 0\n\n    def batchify"),
    "object rebound in the module": LOADER.replace("class Loader:", "class Loader(object):") + "\nobject = type\n",
    "a base from elsewhere": "from collections import OrderedDict as Base\n\n\n" + LOADER.replace(
        "class Loader:", "class Loader(Base):"),
    "two bases": LOADER.replace("class Loader:", "class Mixin:\n    pass\n\n\nclass Loader(Mixin, object):"),
}


@pytest.mark.parametrize("name", sorted(PLAIN_REFUSED))
def test_plain_classes_not_followed_are_quiet(name):
    assert reports(source(PLAIN_REFUSED[name])) == []


def test_the_method_the_chain_binds_first_runs():
    """An inherited method is the base's; an override in the instance's own class is the one
    that runs (the class is exact: ``Flat()`` makes a ``Flat``)."""
    inherited = source(MODEL.replace("self.enc = Enc()", "self.enc = Sub()").replace(
        "class Model", "class Sub(Enc):\n    pass\n\n\nclass Model"))
    assert reports(inherited) == [("TRC201", _line(inherited, "y.view("))]
    assert raises_view_error(inherited)
    overridden = source(MODEL.replace("self.enc = Enc()", "self.enc = Flat()").replace(
        "class Model", "class Flat(Enc):\n    def batched(self, x, bsz):\n"
        "        return x.reshape(bsz, -1, x.size(-1))\n\n\nclass Model"))
    assert reports(overridden) == []
    assert not raises_view_error(overridden)


#: the method's return is a view of its argument: its layout is the one the caller passes
#: (review 11, break 1): a transposed argument makes the result contiguous, and the view runs
PASSED_LAYOUT = """
class Enc(nn.Module):
    def forward(self, x):
        return x

    def batched(self, x, bsz):
        return x.view(bsz, -1, x.size(-1)).transpose(0, 1)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = Enc()

    def forward(self, x):
        y = self.enc.batched(x.transpose(0, 1), x.size(1))
        return y.view(y.size(0) * y.size(1), -1)


def use():
    return Model()(torch.randn(5, 4, 3))
"""


def test_a_layout_that_rests_on_the_arguments_is_not_claimed():
    src = HEAD + PASSED_LAYOUT
    assert reports(src) == []
    assert reports(src.replace("self.enc.batched(", "self.batched(").replace(
        "class Model(nn.Module):", "class Model(Enc):")) == []  # as the self-method path
    assert not raises_view_error(src)
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    assert tuple(ns["use"]().shape) == (20, 3)
    via_local = PASSED_LAYOUT.replace("        return x.view(bsz", "        h = x\n        return h.view(bsz")
    assert reports(HEAD + via_local) == [] and not raises_view_error(HEAD + via_local)


def test_a_layout_of_its_own_is_still_claimed():
    """Below ``.contiguous()`` (or in a view's sizes) a parameter's layout does not reach the result."""
    src = HEAD + PASSED_LAYOUT.replace("x.view(bsz", "x.contiguous().view(bsz")
    found = lint_source(src, "case.py")
    assert [f.code for f in found] == ["TRC201"]
    assert found[0].fix is not None and not found[0].fix.safe  # METHOD_OUTPUT: a store not seen
    assert raises_view_error(src)


def test_a_layout_resting_on_the_arguments_across_modules(tmp_path):
    """The same in a script directory (``import enc`` of the file beside it)."""
    enc, model = PASSED_LAYOUT.split("\n\nclass Model")
    write_tree(tmp_path, {"enc.py": HEAD + enc.lstrip("\n") + "\n",
                          "train.py": HEAD + "import enc\n\n\nclass Model" + model.replace("Enc()", "enc.Enc()")})
    path = tmp_path / "train.py"
    forget()
    assert lint_source(path.read_text(), str(path)) == []
    assert "(20, 3)" in _run_in(tmp_path).stdout  # the view runs
    own = tmp_path / "enc.py"
    own.write_text(own.read_text().replace("x.view(bsz", "x.contiguous().view(bsz"))
    forget()
    assert [f.code for f in lint_source(path.read_text(), str(path))] == ["TRC201"]
    assert VIEW_ERROR in _run_in(tmp_path).stderr


def _run_in(folder):
    return subprocess.run([sys.executable, "-c", "import train; print(tuple(train.use().shape))"],
                          cwd=folder, capture_output=True, text=True)


def test_the_facts_an_own_layout_rests_on():
    """What :mod:`.ownlayouts` takes as not reaching the result's layout, against torch: a
    cast's arguments (the receiver's strides stay), ``.contiguous()``'s receiver, a factory's
    sizes; and what it takes as reaching it: a view's receiver."""
    from flake8_torchcopy.analysis.ownlayouts import _CASTS
    p = torch.randn(3, 4, 5).transpose(0, 1)
    for other in (torch.randn(2, 2, dtype=torch.float64), torch.randn(2, 2).t(), torch.randn(2, 2)):
        assert p.to(other).stride() == p.stride() and p.type_as(other).stride() == p.stride()
        assert p.to(other.device).stride() == p.stride() and p.to(other.dtype).stride() == p.stride()
    for m in sorted(_CASTS - {"to", "type", "type_as", "cuda"}):
        assert getattr(p, m)().stride() == p.stride(), m
    assert p.type(torch.float64).stride() == p.stride()
    assert p.contiguous().is_contiguous() and torch.zeros(*p.shape).is_contiguous()
    assert p.view(4, 3, 5).transpose(0, 1).is_contiguous()  # a view of a transposed argument
    assert not torch.randn(4, 3, 5).view(4, 3, 5).transpose(0, 1).is_contiguous()


#: the method replaced by a patch, not by a store (review 11, break 4)
PATCHED = """
from unittest import mock


class Loader:
    def batchify(self, data, bsz):
        return data.contiguous().view(bsz, -1, data.size(-1)).transpose(0, 1)


def flat_batchify(self, data, bsz):
    return data.contiguous().view(bsz, -1, data.size(-1))


def use():
    loader = Loader()
    with mock.patch.object(Loader, "batchify", flat_batchify):
        y = loader.batchify(torch.randn(24, 3), 4)
        return y.view(-1).t()
"""

PATCHED_BY_DECORATOR = """
from unittest import mock


class Maker:
    def make(self, n):
        return torch.zeros(n, 3)


def rows(self, n):
    return [[0.0] * 3 for _ in range(n)]


@mock.patch.object(Maker, "make", rows)
def use():
    m = Maker()
    return torch.tensor(m.make(2))
"""


def test_a_patched_method_is_not_followed():
    src = HEAD + PATCHED
    assert reports(src) == []
    bare = src.replace("    with mock.patch.object(Loader, \"batchify\", flat_batchify):\n", "    if True:\n")
    assert reports(bare.replace("from unittest import mock\n", "")) \
        == [("TRC201", _line(bare, "y.view(-1)") - 1)]  # the same without the patch
    assert reports(bare) == []  # mock imported: a patch may be anywhere
    helper = src.replace("from unittest import mock\n", "from swaps import swap\n")
    helper = helper.replace("mock.patch.object(", "swap(")
    assert reports(helper) == []  # a helper given the method's name may replace it
    assert not raises_view_error(src)
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    assert tuple(ns["use"]().shape) == (72,)  # the view ran: the patched method's result is contiguous
    for other in ('mock.patch("case.Loader.batchify", flat_batchify)',
                  "mock.patch.multiple(Loader, batchify=flat_batchify)"):
        assert reports(src.replace('mock.patch.object(Loader, "batchify", flat_batchify)', other)) == []


def test_a_method_patched_by_a_decorator_is_not_followed():
    src = HEAD + PATCHED_BY_DECORATOR
    assert reports(src) == []
    bare = src.replace('@mock.patch.object(Maker, "make", rows)\n', "").replace("from unittest import mock\n", "")
    assert reports(bare) == [("TRC101", _line(bare, "torch.tensor(m.make(2))"))]
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    assert tuple(ns["use"]().shape) == (2, 3)  # a list of rows: torch.tensor copies no tensor
    assert not copies_a_tensor(src, "use()")


def test_a_patch_in_the_module_defining_the_class(tmp_path):
    enc, model = PASSED_LAYOUT.split("\n\nclass Model")
    enc = enc.replace("x.view(bsz", "x.contiguous().view(bsz")
    patch = "\n\nfrom unittest import mock\n\nPATCH = mock.patch.object(Enc, 'batched', lambda self, x, b: x)\n"
    write_tree(tmp_path, {"enc.py": HEAD + enc.lstrip("\n") + patch,
                          "train.py": HEAD + "import enc\n\n\nclass Model" + model.replace("Enc()", "enc.Enc()")})
    path = tmp_path / "train.py"
    forget()
    assert lint_source(path.read_text(), str(path)) == []
    (tmp_path / "enc.py").write_text(HEAD + enc.lstrip("\n"))
    forget()
    assert [f.code for f in lint_source(path.read_text(), str(path))] == ["TRC201"]
