"""The benchmark harness's own pieces (no timings are checked here)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))

run = pytest.importorskip("run")
fetch_corpora = pytest.importorskip("fetch_corpora")


def test_fractions_are_deterministic_and_nested():
    files = [f"f{i:04d}.py" for i in range(1000)]
    eighth, quarter, half = run.fraction(files, 8), run.fraction(files, 4), run.fraction(files, 2)
    assert len(eighth) == 125 and len(quarter) == 250 and len(half) == 500
    assert set(eighth) < set(quarter) < set(half)
    assert run.fraction(files, 1) == files


def test_count_findings_and_checked_files(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text(
        "a/b.py:3:5: TRC101 use x\n"
        "a/c.py:10:1: TRC201 view\n"
        "a/c.py:11:1: TRC201 view\n"
        "x.py:2:5: TOR102 [*] `torch.load` without weights_only\n"
        "--- not a finding TRC101\n"
        "Finished checking 7 files.\n"
    )
    assert run.count_findings(str(out), "trc") == (3, {"TRC101": 1, "TRC201": 2})
    assert run.count_findings(str(out), "tor") == (1, {"TOR102": 1})
    assert run.checked_files(str(out)) == 7


def test_measure_counts_child_cpu_and_exit_code():
    busy = "s = 0\nfor i in range(3_000_000):\n    s += i\nraise SystemExit(3)"
    sample = run.measure([sys.executable, "-c", busy])
    assert sample.rc == 3
    assert sample.cpu > 0.05
    assert sample.wall >= sample.cpu * 0.5
    assert sample.maxrss_mb > 1


def test_fetch_corpora_knows_the_pins():
    assert fetch_corpora.PACKAGES["transformers"] == "transformers==5.23.0"
    assert fetch_corpora.ALL_CORPORA[0] == "torch"
    assert not fetch_corpora.is_complete("/nonexistent", "torch")
