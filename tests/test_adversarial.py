"""A safe (default) fix never changes what a program does: proven on hostile case modules.

Each ``tests/adversarial/cases/*.py`` defines ``run()``; the harness
(``tests/adversarial/harness.py``) runs it in a fresh process before and after
``torchcopy-fix`` (safe fixes only) and compares everything observable. See the harness's
docstring for what is compared and what a case may declare (``EXPECT_FIX``,
``RUN_OPTIMIZED``, ``WARNINGS_THE_FIX_REMOVES``). A case that sets ``KNOWN_BREAK = "why"``
is a break the analysis does not prevent yet: a strict xfail (it must still break).
"""
import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytestmark = pytest.mark.verify

_HARNESS_PATH = Path(__file__).resolve().parent / "adversarial" / "harness.py"
_spec = importlib.util.spec_from_file_location("torchcopy_adversarial_harness", _HARNESS_PATH)
harness = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = harness
_spec.loader.exec_module(harness)

CASES = harness.case_files()


def _param(path):
    why = harness.case_flags(path).get("KNOWN_BREAK")
    marks = [pytest.mark.xfail(strict=True, reason=str(why))] if why else []
    return pytest.param(path, marks=marks, id=path.stem)


@pytest.fixture(scope="session")
def adversarial(request):
    """Evaluate the cases this session runs, all at once (one fixer run, two runners)."""
    wanted = set()
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and item.originalname == "test_safe_fix_keeps_behaviour":
            wanted.add(callspec.params["case"])
    paths = [p for p in CASES if p in wanted] or CASES
    return harness.evaluate(paths)


def _context(res, ev) -> str:
    name = res.stem + ".py"
    diff = harness.unified_diff(res.original_source, res.fixed_source, name)
    said = "\n".join(line for line in ev.fixer_stderr.splitlines() if name in line)
    return f"\n--- the fix ---\n{diff or '(no change)'}\n--- fixer stderr ---\n{said}"


@pytest.mark.parametrize("case", [_param(p) for p in CASES])
def test_safe_fix_keeps_behaviour(case, adversarial):
    ev = adversarial
    assert ev.fixer_rc in (0, 1), f"the fixer failed ({ev.fixer_rc}):\n{ev.fixer_stderr}"
    res = ev.cases[case.stem]
    for rec in (res.original, res.fixed, res.original_opt, res.fixed_opt):
        assert rec is None or "harness_error" not in rec, rec
    expect_fix = res.flags.get("EXPECT_FIX")
    if expect_fix is True:
        assert res.fixed_source != res.original_source, "the default fixer no longer fixes this case"
    elif expect_fix is False:
        assert res.fixed_source == res.original_source, \
            "the default fixer changed a case it must leave alone" + _context(res, ev)
    problems = harness.differences(res.original, res.fixed, res.flags)
    if res.original_opt is not None:
        problems += ["(python -O) " + p for p in
                     harness.differences(res.original_opt, res.fixed_opt, res.flags)]
    assert not problems, ("the safe fix changed what the program does:\n"
                          + "\n".join(problems) + _context(res, ev))


# Twin modules, A and B, that differ in one observable way each (or in none): the harness
# must see each difference, and must see nothing where there is none.
_TWINS = {
    "alias": ("x = torch.zeros(2)\n    return x, x.view(2)",
              "x = torch.zeros(2)\n    return x, x.clone()"),
    "strides": ("return torch.zeros(3, 4).t().clone()", "return torch.zeros(3, 4).t().contiguous()"),
    "dtype": ("return torch.zeros(2)", "return torch.zeros(2, dtype=torch.float64)"),
    "values_nan": ("return torch.tensor([float('nan'), 1.0])", "return torch.tensor([float('nan'), 2.0])"),
    "grad_fn": ("w = torch.ones(2, requires_grad=True)\n    return w.clone()",
                "w = torch.ones(2, requires_grad=True)\n    return w.detach().clone()"),
    "subclass": ("class S(torch.Tensor):\n        pass\n    return torch.zeros(1).as_subclass(S)",
                 "class S(torch.Tensor):\n        pass\n    return torch.zeros(1)"),
    "warning": ("warnings.warn('careful')\n    return 1", "return 1"),
    "stdout": ("print('hi')\n    return 1", "return 1"),
    "exception": ("raise ValueError('x')", "raise TypeError('x')"),
    "rng": ("torch.randn(1)\n    return 1", "return 1"),
    "default_device": ("torch.set_default_device('meta')\n    return 1", "return 1"),
    "grad_mode": ("torch.set_grad_enabled(False)\n    return 1", "return 1"),
    "object_state": ("class C:\n        pass\n    c = C()\n    c.a = [1]\n    return c",
                     "class C:\n        pass\n    c = C()\n    c.a = [2]\n    return c"),
    # no observable difference: the copy-construct warning is the one a fix may remove
    "same_copy_warning": ("t = torch.randn(3)\n    return torch.tensor(t), torch.randn(2)",
                          "t = torch.randn(3)\n    return t.detach().clone(), torch.randn(2)"),
    "same_objects": ("return object(), {'a': (1, 2.5, None)}", "return object(), {'a': (1, 2.5, None)}"),
}


def test_the_harness_sees_every_kind_of_difference(tmp_path):
    dirs = {}
    for side, index in (("a", 0), ("b", 1)):
        d = tmp_path / side
        d.mkdir()
        for name, pair in _TWINS.items():
            (d / f"twin_{name}.py").write_text(
                f"import warnings\nimport torch\n\n\ndef run():\n    {pair[index]}\n", encoding="utf-8")
        dirs[side] = d
    stems = [f"twin_{name}" for name in _TWINS]
    a = harness.observe(dirs["a"], stems)
    b = harness.observe(dirs["b"], stems)
    for name in _TWINS:
        s = f"twin_{name}"
        assert "harness_error" not in a[s] and "harness_error" not in b[s], (a[s], b[s])
        diff = harness.differences(a[s], b[s], {})
        if name.startswith("same_"):
            assert not diff, (name, diff)
        else:
            assert diff, f"the harness did not see the {name} difference"
    assert harness.observe(dirs["a"], ["twin_rng"], optimized=True)["twin_rng"]["python_optimize"] == 1
