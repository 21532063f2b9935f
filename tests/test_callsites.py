"""Parameter summaries (analysis/callsites.py): a closed function's parameters hold what
every call in the module passes; a function whose calls the module may not show is left
alone.  Each look-alike here is a way a function escapes or a call tells nothing."""
import subprocess
import sys
import textwrap
import warnings

import pytest

from flake8_torchcopy import fix_source, lint_source
from flake8_torchcopy.engine import Options

HEAD = "import copy\nimport torch\nimport torch.nn.functional as F\n\n"


def module(body):
    return HEAD + textwrap.dedent(body).lstrip("\n")


def codes(body, **options):
    """(line in ``body``, code) of each finding."""
    return [(f.line - HEAD.count("\n"), f.code) for f in lint_source(module(body), options=Options(**options))]


POSITIVE = {
    "helper iterating a tensor from every call": (
        """
        def _blur(imgs):
            for im in imgs:
                keep = copy.deepcopy(im)
            return imgs

        def run(x):
            return _blur(F.interpolate(x, scale_factor=2))
        """, [(3, "TRC105")]),
    "every call passes a tensor (keyword and positional)": (
        """
        def _copy(v, scale=1.0):
            return torch.tensor(v) * scale

        def run(x):
            a = _copy(torch.ones(3))
            b = _copy(scale=2.0, v=x.detach())
            return a, b
        """, [(2, "TRC101")]),
    "a default that is a tensor where a call passes nothing": (
        """
        def _copy(v=torch.zeros(3)):
            return torch.tensor(v)

        def run():
            return _copy(), _copy(torch.ones(2))
        """, [(2, "TRC101")]),
    "a nested helper": (
        """
        def run(x):
            def inner(t):
                return copy.deepcopy(t)
            return inner(x.detach()), inner(torch.ones(1))
        """, [(3, "TRC105")]),
    "a chain of private helpers (two rounds)": (
        """
        def _inner(t):
            return copy.deepcopy(t)

        def _outer(u):
            return _inner(u)

        def run():
            return _outer(torch.ones(3))
        """, [(2, "TRC105")]),
    "a tensor at one call, a list at another: tensor on some path, no fix": (
        """
        def _as(v):
            return torch.tensor(v)

        def run():
            return _as([1.0]), _as(torch.ones(2))
        """, [(2, "TRC101")]),
    "a private method called only as self._m(...)": (
        """
        class Base:
            pass

        class Net(Base):
            def _keep(self, m, k=None):
                return copy.deepcopy(m)

            def forward(self, x):
                return self._keep(torch.relu(x)), self._keep(x.detach(), k=1)
        """, [(6, "TRC105")]),
    "a helper named in a comment": (
        """
        # Copied from elsewhere.module._copy; _copy keeps its input
        def _copy(v):
            return torch.tensor(v)

        def run():
            return _copy(torch.ones(2))  # _copy on a tensor
        """, [(3, "TRC101")]),
    "a call from a method": (
        """
        def _keep(m):
            return copy.deepcopy(m)

        class Net(torch.nn.Module):
            def forward(self, x):
                return _keep(torch.relu(x))
        """, [(2, "TRC105")]),
}


LOOKALIKES = {
    "a helper called with lists": """
        def _scale(values):
            return torch.tensor(values)

        def run():
            return _scale([1.0, 2.0]), _scale((3, 4))
        """,
    "a helper also passed as a callback": """
        def _as(v):
            return torch.tensor(v)

        def run(xs):
            first = _as(torch.ones(2))
            return list(map(_as, xs)), first
        """,
    "a helper listed in __all__": """
        __all__ = ["_as"]

        def _as(v):
            return torch.tensor(v)

        def run():
            return _as(torch.ones(2))
        """,
    "a call with *args": """
        def _as(v):
            return torch.tensor(v)

        def run(args):
            _as(torch.ones(2))
            return _as(*args)
        """,
    "a call with **kwargs": """
        def _as(v):
            return torch.tensor(v)

        def run(kw):
            _as(torch.ones(2))
            return _as(**kw)
        """,
    "a decorated helper": """
        import functools

        @functools.lru_cache()
        def _as(v):
            return torch.tensor(v)

        def run():
            return _as(torch.ones(2))
        """,
    "a public helper (API: other modules may call it)": """
        def to_tensor(v):
            return torch.tensor(v)

        def run():
            return to_tensor(torch.ones(2))
        """,
    "a public method (a caller elsewhere may pass anything)": """
        class A:
            def as_t(self, v):
                return torch.tensor(v)

            def run(self):
                return self.as_t(torch.ones(2))
        """,
    "a private method also called on another object": """
        class A:
            def _as(self, v):
                return torch.tensor(v)

            def run(self, other):
                return self._as(torch.ones(2)), other._as([1.0])
        """,
    "a private method also passed as a bound method": """
        class A:
            def _as(self, v):
                return torch.tensor(v)

            def run(self, xs):
                return self._as(torch.ones(2)), list(map(self._as, xs))
        """,
    "a private method called by a subclass in the module": """
        class A:
            def _as(self, v):
                return torch.tensor(v)

            def run(self):
                return self._as(torch.ones(2))

        class B(A):
            def go(self):
                return self._as([1.0])
        """,
    "a private method called through super()": """
        class A:
            def _as(self, v):
                return torch.tensor(v)

            def run(self):
                return self._as(torch.ones(2))

        class B(A):
            def _as(self, v):
                return super()._as(v)
        """,
    "a private method of a class whose base comes from elsewhere (a hook it may call)": """
        import argparse

        class F(argparse.HelpFormatter):
            def _format_action(self, action):
                return copy.deepcopy(action)

            def g(self):
                return self._format_action(torch.zeros(3))
        """,
    "a private method of an nn.Module": """
        class Net(torch.nn.Module):
            def _keep(self, m):
                return copy.deepcopy(m)

            def forward(self, x):
                return self._keep(torch.relu(x))
        """,
    "a call inside exec": """
        def _as(v):
            return torch.tensor(v)

        def run():
            exec("_as([1])")
            return _as(torch.ones(2))
        """,
    "a call in a doctest": """
        def _as(v):
            \"\"\"
            >>> _as([1])
            \"\"\"
            return torch.tensor(v)

        def run():
            return _as(torch.ones(2))
        """,
    "a call spelled with a compatibility character (NFKC)": """
        def _h(v):
            return torch.tensor(v)

        def run():
            _\uff48([1])
            return _h(torch.ones(2))
        """,
    "a name mangled in a class": """
        def _C__h(v):
            return torch.tensor(v)

        def run():
            return _C__h(torch.ones(2))

        class C:
            def f(self):
                return __h([1])
        """,
    "a call through the module object": """
        import sys

        def _as(v):
            return torch.tensor(v)

        def run():
            sys.modules[__name__]._as([1])
            return _as(torch.ones(2))
        """,
    "a private static method": """
        class A:
            @staticmethod
            def _as(v):
                return torch.tensor(v)

            def run(self):
                return self._as(torch.ones(2))
        """,
    "a helper rebound later": """
        def _as(v):
            return torch.tensor(v)

        def run():
            return _as(torch.ones(2))

        _as = staticmethod(_as)
        """,
    "a helper whose argument is unknown at one call": """
        def _as(v):
            return torch.tensor(v)

        def run(x):
            return _as(torch.ones(2)), _as(x)
        """,
    "a helper named in a string (getattr)": """
        import sys

        def _as(v):
            return torch.tensor(v)

        def run():
            _as(torch.ones(2))
            return getattr(sys.modules[__name__], "_as")([1.0])
        """,
    "a helper with a call never walked (after return)": """
        def _as(v):
            return torch.tensor(v)

        def run(x):
            return _as(torch.ones(2))
            _as(x)
        """,
    "a nested helper of the same name elsewhere": """
        def run():
            def inner(t):
                return copy.deepcopy(t)
            return inner(torch.ones(1))

        def other(rows):
            def inner(t):
                return t
            return inner(rows)
        """,
    "a helper called with too many arguments": """
        def _as(v):
            return torch.tensor(v)

        def run(x):
            return _as(torch.ones(2), x)
        """,
}


#: a list at one call, a tensor at another: "a tensor on some paths", reported without a fix
MIXED = {
    "a call inside a decorator": """
        def _as(v):
            return torch.tensor(v)

        @_as([1])
        def k():
            pass

        def run():
            return _as(torch.ones(2))
        """,
    "a method whose self has a default (defaults stay with their parameters)": """
        class C:
            def _m(self=torch.zeros(3), t=[1]):
                return torch.tensor(t)

            def f(self):
                self._m(torch.zeros(3))
                return self._m()
        """,
}


@pytest.mark.parametrize("name", POSITIVE)
def test_found_through_call_sites(name):
    body, expected = POSITIVE[name]
    assert codes(body) == expected


@pytest.mark.parametrize("name", LOOKALIKES)
def test_lookalikes_stay_quiet(name):
    assert codes(LOOKALIKES[name]) == []


@pytest.mark.parametrize("name", MIXED)
def test_calls_seen_anywhere_make_kinds_mixed(name):
    [f] = lint_source(module(MIXED[name]))
    assert f.code == "TRC101" and f.fix is None and "some paths" in f.message


def test_mixed_kinds_give_no_fix():
    body, _ = POSITIVE["a tensor at one call, a list at another: tensor on some path, no fix"]
    [f] = lint_source(module(body))
    assert f.fix is None and "some paths" in f.message


#: a private module-level function or a private method is also called from other modules
#: (getattr, eval, a test importing ``_helper``): what rests on its calls here is reported, with
#: an unsafe fix; a nested function is called only where the module shows it: a safe fix
PRIVATE_UNSAFE = {
    "a private module-level function": """
        def _copy(v):
            return torch.tensor(v)

        def run():
            return _copy(torch.ones(2))
        """,
    "a private method": """
        class A:
            def _copy(self, v):
                return torch.tensor(v)

            def run(self):
                return self._copy(torch.ones(2))
        """,
    "a chain from a private function into a nested one": """
        def _outer(u):
            def inner(t):
                return torch.tensor(t)
            return inner(u)

        def run():
            return _outer(torch.ones(3))
        """,
}

NESTED_SAFE = """
    def run(x):
        def inner(v):
            return torch.tensor(v)
        return inner(torch.ones(3)), inner(torch.zeros(2) + len(x))
    """
# (len() is a plain int whatever x is; x.size(0) of an unknown x may be a 0-dim subclass,
# which makes the sum one and its fix unsafe: tests/test_review_left.py)


@pytest.mark.parametrize("name", PRIVATE_UNSAFE)
def test_fixes_resting_on_private_helpers_are_unsafe(name):
    [f] = lint_source(module(PRIVATE_UNSAFE[name]))
    assert f.code == "TRC101" and f.fix is not None and not f.fix.safe
    src = module(PRIVATE_UNSAFE[name])
    assert fix_source(src) == src  # no safe fix to apply
    assert "torch.tensor(" not in fix_source(src, unsafe=True)


def test_a_nested_helper_keeps_a_safe_fix():
    [f] = lint_source(module(NESTED_SAFE))
    assert f.code == "TRC101" and f.fix is not None and f.fix.safe


def test_a_caveat_on_what_a_call_passes_stays_on_the_parameter():
    """``x.detach()`` of a parameter may be a Tensor subclass (torch.tensor makes it plain):
    the helper's parameter keeps that caveat, so the fix is unsafe, nested helper or not."""
    body = """
        def run(x):
            def inner(v):
                return torch.tensor(v)
            return inner(torch.ones(3)), inner(x.detach())
        """
    [f] = lint_source(module(body))
    assert f.code == "TRC101" and f.fix is not None and not f.fix.safe


@pytest.mark.verify
@pytest.mark.parametrize("body,unsafe", [(POSITIVE["every call passes a tensor (keyword and positional)"][0], True),
                                         (NESTED_SAFE, False)])
def test_fix_from_call_sites_keeps_behaviour(body, unsafe):
    src = module(body)
    if unsafe:
        assert fix_source(src) == src  # the helper is private, not nested: its fix is unsafe
    fixed = fix_source(src, unsafe=unsafe)
    assert "torch.tensor(v)" not in fixed and "v.detach().clone()" in fixed
    torch = pytest.importorskip("torch")
    ns_before, ns_after = {}, {}
    exec(compile(src, "before", "exec"), ns_before)
    exec(compile(fixed, "after", "exec"), ns_after)
    x = torch.randn(3, requires_grad=True)
    with pytest.warns(UserWarning, match="copy construct"):  # the original copy-constructs
        before = ns_before["run"](x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the fixed code does not
        after = ns_after["run"](x)
    for a, b in zip(before, after):
        assert torch.equal(a, b) and a.dtype == b.dtype and a.requires_grad == b.requires_grad


def test_public_helpers_option():
    body = LOOKALIKES["a public helper (API: other modules may call it)"]
    assert codes(body, public_helpers=True) == [(2, "TRC101")]
    [f] = lint_source(module(body), options=Options(public_helpers=True))
    assert f.fix is not None and not f.fix.safe  # its callers in other modules are not seen
    # the option does not open what escapes otherwise
    for name in ("a helper also passed as a callback", "a decorated helper", "a helper listed in __all__"):
        public = LOOKALIKES[name].replace("_as", "as_t")
        assert codes(public, public_helpers=True) == [], name


def test_public_helpers_open_methods_of_classes_with_outside_bases():
    body = LOOKALIKES["a private method of an nn.Module"]
    [f] = lint_source(module(body), options=Options(public_helpers=True))
    assert f.code == "TRC105"


def test_a_permuted_argument_is_not_assumed_contiguous():
    body = """
        def _flat(y):
            b, t, c = y.shape
            return y.view(b, t * c)

        def run(x):
            return _flat(x.transpose(1, 2))
        """
    assert codes(body) == []  # undecided: the argument's strides are the caller's


def test_public_helpers_from_flake8_and_config(tmp_path):
    src = module(LOOKALIKES["a public helper (API: other modules may call it)"])
    (tmp_path / "m.py").write_text(src)

    def flake8(*args):
        proc = subprocess.run([sys.executable, "-m", "flake8", "--select", "TRC", *args, "m.py"],
                              cwd=tmp_path, capture_output=True, text=True)
        return [line.split()[1] for line in proc.stdout.splitlines()]

    assert flake8() == []
    assert flake8("--torchcopy-public-helpers") == ["TRC101"]
    (tmp_path / "setup.cfg").write_text("[flake8]\ntorchcopy-public-helpers = true\n")
    assert flake8() == ["TRC101"]


def test_public_helpers_in_torchcopy_fix(tmp_path):
    src = module(LOOKALIKES["a public helper (API: other modules may call it)"])
    (tmp_path / "m.py").write_text(src)

    def check(*args):
        proc = subprocess.run([sys.executable, "-m", "flake8_torchcopy", "--check", *args, "m.py"],
                              cwd=tmp_path, capture_output=True, text=True)
        return proc.returncode, proc.stdout

    assert check()[0] == 0
    rc, out = check("--public-helpers")
    assert rc == 1 and "TRC101" in out
    (tmp_path / "pyproject.toml").write_text('[tool.torchcopy]\npublic-helpers = true\n')
    rc, out = check()
    assert rc == 1 and "TRC101" in out
    rc, _ = check("--no-public-helpers")
    assert rc == 0


#: right reports found only with public-helpers (read in their source; docs/evaluation.md)
PUBLIC_HELPER_REPORTS = {
    # a public function, called once with F.interpolate(...), deep-copies each mask
    "diffusers/diffusers/pipelines/kandinsky/pipeline_kandinsky_inpaint.py": 106,
    "diffusers/diffusers/pipelines/kandinsky2_2/pipeline_kandinsky2_2_inpainting.py": 103,
    # private methods of processors whose base (ProcessorMixin) is imported: reached through
    # _normalize_tensor_coordinates(torch.tensor(...)) -> _normalize_coordinates(tensor[i])
    "transformers/transformers/models/sam2/processing_sam2.py": 193,
    "transformers/transformers/models/sam2_video/processing_sam2_video.py": 195,
    "transformers/transformers/models/sam3/processing_sam3.py": 225,
    "transformers/transformers/models/sam3_tracker/processing_sam3_tracker.py": 192,
    "transformers/transformers/models/sam3_tracker_video/processing_sam3_tracker_video.py": 197,
}


@pytest.mark.corpus
@pytest.mark.parametrize("rel", sorted(PUBLIC_HELPER_REPORTS))
def test_public_helpers_on_real_packages(rel):
    """Found with public-helpers, not without."""
    from pathlib import Path

    f = Path(__file__).resolve().parent.parent / ".corpora" / rel
    if not f.exists():
        pytest.skip("corpus not present (python benchmarks/fetch_corpora.py)")
    src = f.read_text(encoding="utf-8")
    key = (PUBLIC_HELPER_REPORTS[rel], "TRC105")
    assert key not in {(x.line, x.code) for x in lint_source(src)}
    assert key in {(x.line, x.code) for x in lint_source(src, options=Options(public_helpers=True))}


@pytest.mark.verify
def test_the_verifier_binds_parameters_from_calls(tmp_path):
    """--verify checks a fix that rests on call sites with the parameter as a tensor."""
    from flake8_torchcopy.verify.bindings import analysed_values

    src = module(POSITIVE["every call passes a tensor (keyword and positional)"][0])
    line = next(i for i, text in enumerate(src.splitlines(), 1) if "torch.tensor(v)" in text)
    assert analysed_values(src, line, line)["v"].kind == "tensor"
    pytest.importorskip("torch")
    (tmp_path / "m.py").write_text(src)
    proc = subprocess.run([sys.executable, "-m", "flake8_torchcopy", "--check", "--verify", "--unsafe-fixes",
                           "--verify-max-cases", "16", "--output-format", "json", "m.py"],
                          cwd=tmp_path, capture_output=True, text=True)
    import json

    [finding] = json.loads(proc.stdout)
    assert finding["code"] == "TRC101" and finding["verification"]["status"] == "improved"
