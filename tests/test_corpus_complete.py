"""Every report on the pinned corpora is labelled: a new report must be read before it lands.

``test_corpus_labels.py`` checks that labelled reports stay as labelled; this checks the
other direction, over every ``.py`` file of every corpus of ``benchmarks/fetch_corpora.py``:
a report with no row in ``benchmarks/labels.csv`` fails, naming the place to read.
"""
import csv
import importlib.util
from pathlib import Path

import pytest

from flake8_torchcopy import lint_source

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / ".corpora"
LABELS = ROOT / "benchmarks" / "labels.csv"

pytestmark = pytest.mark.corpus


def _corpora():
    spec = importlib.util.spec_from_file_location("fetch_corpora", ROOT / "benchmarks" / "fetch_corpora.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.KNOWN_CORPORA, module.DONE_MARK


KNOWN, DONE_MARK = _corpora()


def _labelled():
    with LABELS.open(newline="") as fh:
        return {(r["path"], int(r["line"]), r["rule"]) for r in csv.DictReader(fh)}


@pytest.mark.parametrize("corpus", KNOWN)
def test_every_report_is_labelled(corpus):
    base = CORPORA / corpus
    if not base.is_dir() or (corpus != "torch" and not (base / DONE_MARK).exists()):
        pytest.skip(f"corpus not present: {corpus} (python benchmarks/fetch_corpora.py)")
    labelled = _labelled()
    unlabelled = []
    for f in sorted(base.rglob("*.py")):
        rel = f.relative_to(CORPORA).as_posix()
        try:
            text = f.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for x in lint_source(text, str(f)):
            if (rel, x.line, x.code) not in labelled:
                unlabelled.append(f"{rel}:{x.line} {x.code} {x.message}")
    assert not unlabelled, "reports nobody has read (label them in benchmarks/labels.csv):\n" + "\n".join(unlabelled)
