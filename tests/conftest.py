"""Shared pytest setup.

- ``cuda``: CUDA-marked tests skip cleanly where no GPU is present.
- ``corpus``: the tests on the real packages under ``.corpora/`` skip when those are absent
  (a developer who has not run ``benchmarks/fetch_corpora.py``); with ``--require-corpora``
  (what CI passes) such a skip is a failure, so a failed fetch cannot pass as ~50 skips.
- ``verify``: tests that execute torch (the verifier, or programs run to check a verdict);
  ``pytest -m "not verify"`` runs the fast core suite without them.
"""
import pytest


def pytest_addoption(parser):
    parser.addoption("--require-corpora", action="store_true", default=False,
                     help="fail, instead of skipping, a corpus test whose corpus is not under .corpora/")


def _cuda_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def pytest_collection_modifyitems(config, items):
    if _cuda_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA device")
    for item in items:
        if "cuda" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and "corpus" in item.keywords and item.config.getoption("require_corpora"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"--require-corpora: a corpus test skipped: {reason}"


@pytest.fixture
def view_verdicts(monkeypatch):
    """``run(src)``: lint ``src`` with TRC201 alone and return (the verdict of each view it
    judged, in order; the findings)."""
    import flake8_torchcopy
    from flake8_torchcopy.analysis import context, views
    from flake8_torchcopy.rules import trc201_view_after_permute as trc201

    def run(src):
        out = []

        def spy(recv, target, args_text=""):
            judgement = views.judge_view(recv, target, args_text)
            out.append(judgement.verdict)
            return judgement

        with monkeypatch.context() as m:
            m.setattr(context, "judge_view", spy)
            findings = flake8_torchcopy.lint_source(src, "m.py", rules=[trc201.RULE])
        return out, findings
    return run


@pytest.fixture
def ungated(monkeypatch):
    """The text gates off: every module and every function walked, whatever its text."""
    from flake8_torchcopy.analysis import flow

    def walk_all(cls, source, tree, visitor, options, sink, path=None, words=None):
        groups = flow.FlowWalker.trigger_groups(source, tree, visitor.function_triggers, words) or [("",)]
        return cls(source, tree, visitor, options, sink, path, words, groups)

    monkeypatch.setattr(flow.FlowWalker, "_text_may_match", lambda self, node: True)
    monkeypatch.setattr(flow.ModuleWalk, "of", classmethod(walk_all))
