"""Every fix of every rule, verified from the rule's own examples (CPU).

The registry is imported directly: a broken rule module fails here, it never skips.
The full matrix runs in ``torchcopy-verify --rules``; these tests verify a seeded sample
of it (SAMPLE cases per example) to keep the suite fast.
"""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.verify

from flake8_torchcopy.verify import verify_expressions, verify_fix  # noqa: E402
from flake8_torchcopy.verify_command import load_rules, main, plot_paths, rule_examples  # noqa: E402

SAMPLE = 160
EXAMPLES = rule_examples(load_rules())
SAFE = [e for e in EXAMPLES if not e["unsafe"]]
UNSAFE = [e for e in EXAMPLES if e["unsafe"]]
FIXED = [(r.code, i, ex) for r in load_rules() for i, ex in enumerate(r.INVALID) if ex.fixed]


def _ids(rows):
    return [f"{e['rule']}[{e['index']}]" for e in rows]


def _verify(ex):
    # the example's rule decides which errors of the original the fix may remove
    return verify_expressions(ex["before"], ex["after"], inputs=ex["inputs"], devices="cpu", max_cases=SAMPLE,
                              rule=ex["rule"])


def test_the_registry_has_verified_examples_of_both_kinds():
    assert SAFE and UNSAFE


@pytest.mark.parametrize("ex", SAFE, ids=_ids(SAFE))
def test_safe_fix_is_equivalent_or_improved(ex):
    rep = _verify(ex)
    assert rep.status in ("equivalent", "improved"), rep.summary()
    assert rep.cases > 0


@pytest.mark.parametrize("ex", UNSAFE, ids=_ids(UNSAFE))
def test_unsafe_fix_shows_a_difference_or_says_why(ex):
    rep = _verify(ex)
    assert rep.status != "unverified", rep.summary()
    differs = rep.mismatch_count > 0 or bool(rep.improvements)
    assert differs or ex["note"].strip(), (
        f"{ex['rule']}[{ex['index']}] is marked unsafe but every case was equal and the note is empty")


def _has_cuda() -> bool:
    import torch
    return torch.cuda.is_available()


@pytest.mark.parametrize("code,i,ex", FIXED, ids=[f"{c}[{i}]" for c, i, _ in FIXED])
def test_the_fix_as_applied_to_the_example_verifies(code, i, ex):
    """The example's own code before and after the fix, the enclosing expression verified
    with its names bound as the analysis knows them (what ``torchcopy-fix --verify`` does)."""
    if "cuda" in ex.code and not ex.unsafe and not _has_cuda():
        pytest.skip("the example moves to a CUDA device: verified where one is present")
    rep = verify_fix(ex.code, ex.fixed, inputs=ex.inputs, max_cases=SAMPLE)
    if ex.unsafe:
        assert rep.status != "equivalent" or ex.note.strip(), rep.summary()
    elif code == "TRC201" and "def f(x, k):" in ex.code and "k" not in ex.inputs and not ex.verify:
        # `k` is a parameter the analysis knows nothing about: taken as a tensor, every case
        # raises on both sides, and the verdict says so instead of guessing (found by its code:
        # the examples' indices change as examples are added)
        assert rep.status == "unverified" and rep.both_raised, rep.summary()
    else:
        assert rep.status in ("equivalent", "improved"), rep.summary()
    if ex.verify and rep.status != "unverified":
        # the declared verify pair has the same verdict as the rewrite as applied
        declared = verify_expressions(*ex.verify, inputs=ex.inputs, devices="cpu", max_cases=SAMPLE, rule=code)
        assert declared.status == rep.status, (declared.summary(), rep.summary())


def test_trc201_is_verified_on_sizes_that_agree():
    """`b, n, c = x.shape` and the heads: the analysed sizes make the inputs consistent, so
    the view really runs on some cases and raises on others."""
    ex = next(ex for c, i, ex in FIXED if c == "TRC201" and "attn" in ex.code)
    rep = verify_fix(ex.code, ex.fixed)
    assert rep.before == "(attn @ v).transpose(1, 2).view(b, n, c)"
    assert rep.inputs["v"].startswith("tensor:shape=[b, self__heads, n, (c) // (self__heads)],strides=")
    assert rep.status == "improved" and rep.cases > 50
    assert any(i["property"] == "exception" for i in rep.improvements)


def test_rules_cli_prints_one_table(capsys):
    first = SAFE[0]["rule"]
    rc = main(["--rules", "--select", first, "--no-bench", "--device", "cpu", "--max-cases", "60"])
    out = capsys.readouterr().out
    assert rc == 0
    assert out.splitlines()[0].startswith("| rule | example | fix | inputs tried | verdict | speedup cpu |")
    rows = [ln for ln in out.splitlines() if ln.startswith(f"| {first} |")]
    assert len(rows) == sum(1 for e in EXAMPLES if e["rule"] == first)


def test_rules_cli_unknown_code_is_a_usage_error(capsys):
    assert main(["--rules", "--select", "TRC999", "--no-bench"]) == 2
    assert "TRC999" in capsys.readouterr().err


def test_rules_plot_writes_one_file_per_rule(tmp_path, capsys):
    assert plot_paths(str(tmp_path / "out.svg"), ["TRC101", "TRC103"]) == {
        "TRC101": str(tmp_path / "out-TRC101.svg"), "TRC103": str(tmp_path / "out-TRC103.svg")}
    rc = main(["--rules", "--select", "TRC103,TRC104", "--device", "cpu", "--max-cases", "10",
               "--sizes", "1", "--repeats", "1", "--min-run-time", "0.001", "--plot", str(tmp_path / "t.pdf")])
    capsys.readouterr()
    assert rc == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t-TRC103.pdf", "t-TRC104.pdf"]
    assert (tmp_path / "t-TRC103.pdf").read_bytes().startswith(b"%PDF")
