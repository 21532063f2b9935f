"""Labelled reports on real packages: a wrong report must not come back, a right one must not vanish.

Runs when the pinned packages are under ``.corpora/`` (``python benchmarks/fetch_corpora.py``);
skips otherwise.  The labels (``benchmarks/labels.csv``) were made by reading each report.
"""
import csv
from collections import defaultdict
from pathlib import Path

import pytest

from flake8_torchcopy import lint_source

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / ".corpora"
LABELS = ROOT / "benchmarks" / "labels.csv"

pytestmark = pytest.mark.corpus


def _labels():
    with LABELS.open(newline="") as fh:
        return list(csv.DictReader(fh))


def test_labels_are_well_formed():
    rows = _labels()
    assert rows
    for r in rows:
        assert r["verdict"] in ("right", "wrong"), r
        assert r["rule"].startswith("TRC") and r["reason"].strip(), r
        assert int(r["line"]) > 0
        assert None not in r, r  # a field too many: a reason with an unquoted comma


BY_PATH = defaultdict(list)
for _row in _labels():
    BY_PATH[_row["path"]].append(_row)


@pytest.mark.parametrize("path", sorted(BY_PATH))
def test_labelled_reports(path):
    f = CORPORA / path
    if not f.exists():
        pytest.skip(f"corpus file not present: {path} (python benchmarks/fetch_corpora.py)")
    found = {(x.line, x.code) for x in lint_source(f.read_text(encoding="utf-8"), str(f))}
    for row in BY_PATH[path]:
        key = (int(row["line"]), row["rule"])
        if row["verdict"] == "right":
            assert key in found, f"a confirmed report vanished: {path}:{key} ({row['reason']})"
        else:
            assert key not in found, f"a known wrong report is back: {path}:{key} ({row['reason']})"
