"""Every fix of every rule, verified from the rule's own examples (CPU)."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from flake8_torchcopy.verify import verify_expressions  # noqa: E402
from flake8_torchcopy.verify.cli import load_rules, main, rule_examples  # noqa: E402

EXAMPLES = rule_examples(load_rules())
IDS = [f"{e['rule']}[{e['index']}]" for e in EXAMPLES]
SAFE = [e for e in EXAMPLES if not e["unsafe"]]
UNSAFE = [e for e in EXAMPLES if e["unsafe"]]


def _verify(ex):
    return verify_expressions(ex["before"], ex["after"], inputs=ex["inputs"], devices="cpu")


@pytest.mark.skipif(not SAFE, reason="no rule has a safe example with a verify pair yet")
@pytest.mark.parametrize("ex", SAFE, ids=[f"{e['rule']}[{e['index']}]" for e in SAFE])
def test_safe_fix_is_equivalent_or_improved(ex):
    rep = _verify(ex)
    assert rep.status in ("equivalent", "improved"), rep.summary()
    assert rep.cases > 0


@pytest.mark.skipif(not UNSAFE, reason="no rule has an unsafe example with a verify pair yet")
@pytest.mark.parametrize("ex", UNSAFE, ids=[f"{e['rule']}[{e['index']}]" for e in UNSAFE])
def test_unsafe_fix_shows_a_difference_or_says_why(ex):
    rep = _verify(ex)
    assert rep.status != "unverified", rep.summary()
    differs = rep.mismatch_count > 0 or bool(rep.improvements)
    assert differs or ex["note"].strip(), (
        f"{ex['rule']}[{ex['index']}] is marked unsafe but every case was equal and the note is empty")


def test_every_verify_pair_parses_and_names_known_inputs():
    for ex in EXAMPLES:
        compile(ex["before"], "<before>", "eval")
        compile(ex["after"], "<after>", "eval")


@pytest.mark.skipif(not EXAMPLES, reason="no rule examples with a verify pair yet")
def test_rules_cli_prints_one_table(capsys):
    first = EXAMPLES[0]["rule"]
    rc = main(["--rules", "--select", first, "--no-bench", "--device", "cpu", "--max-cases", "60"])
    out = capsys.readouterr().out
    assert rc in (0, 1)
    assert out.splitlines()[0].startswith("| rule | example | fix | inputs tried | verdict | speedup cpu |")
    rows = [ln for ln in out.splitlines() if ln.startswith(f"| {first} |")]
    assert len(rows) == sum(1 for e in EXAMPLES if e["rule"] == first)
