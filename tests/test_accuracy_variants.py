"""The top-k accuracy helper of PyTorch's ImageNet example, in the variants its copies use
(``topk`` spelled four ways, ``argsort``/``sort``; ``pred.t()``, ``torch.t(pred)``,
``transpose(0, 1)``, ``.T``; ``eq`` or ``==`` against an ``expand_as`` or a broadcast
``view(1, -1)``, ``unsqueeze(0)`` or ``[None]``; a ``contiguous()`` or ``reshape`` that
makes it legal).
Each is run with torch: TRC201 reports only variants that raise, and finds the raising
ones the module proves (those named in FOUND)."""
import importlib.util
import itertools

import pytest

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")

TEMPLATE = '''import torch


def accuracy(output, target, topk=(1,)):
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        {topk}
        {t}
        correct = {eq}
        res = []
        for k in topk:
            correct_k = {view}.float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res
'''
TOPK = ["_, pred = output.topk(maxk, 1, True, True)", "_, pred = torch.topk(output, maxk, dim=1)",
        "pred = output.topk(maxk, dim=1, largest=True, sorted=True)[1]",
        "_, pred = output.data.topk(maxk, 1, True, True)",
        "pred = output.argsort(dim=1, descending=True)[:, :maxk]", "_, pred = output.sort(1, descending=True)"]
T = ["pred = pred.t()", "pred = torch.t(pred)", "pred = pred.transpose(0, 1)", "pred = pred.T"]
EQ = ["pred.eq(target.view(1, -1).expand_as(pred))", "pred == target.view(1, -1).expand_as(pred)",
      "pred.eq(target.unsqueeze(0).expand_as(pred))", "pred.eq(target.reshape(1, -1).expand_as(pred))",
      "pred.eq(target.view(1, -1))", "pred.eq(target.unsqueeze(0))", "pred == target[None]"]
VIEW = ["correct[:k].view(-1)", "correct[:k].contiguous().view(-1)", "correct[:k].reshape(-1)"]
# what the analysis proves: t() and torch.t(pred) (2-d), transpose(0, 1) (the rank is not
# known, 2 or more: compared with a tensor expanded to its sizes, its strides carry over to
# correct, and [:k] cuts the permuted dim), eq against an expand_as or a 2-d broadcast.
# .T of an unknown rank reverses every dim: pred's last two first (a tensor: only a tensor
# has topk), then the rest, each merge across them raising too.  eq against
# target.unsqueeze(0), of unknown rank: pred's layout, unless target.dim() > 1 (the claim
# says so).  Undecided: pred == target[None] (target is not proven a tensor: numpy's arrays
# take [None] too), and transpose(0, 1) against a broadcast view(1, -1) (the rest of pred's
# dims may broadcast).
FOUND = {"t": T, "eq": EQ[:6]}


def _variants():
    for topk, t, eq, view in itertools.product(TOPK, T, EQ, VIEW):
        if (topk != TOPK[0]) + (t != T[0]) + (eq != EQ[0]) + (view != VIEW[0]) <= 1:
            yield topk, t, eq, view


def _raises(source, tmp_path):
    path = tmp_path / "acc.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("acc", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        module.accuracy(torch.randn(8, 10), torch.randint(0, 10, (8,)), topk=(1, 5))
    except RuntimeError as e:
        assert "view size is not compatible" in str(e)
        return True
    return False


def test_reports_only_raising_variants_and_every_proven_one(tmp_path):
    found = 0
    for topk, t, eq, view in _variants():
        source = TEMPLATE.format(topk=topk, t=t, eq=eq, view=view)
        reported = any(f.code == "TRC201" for f in lint_source(source))
        raises = _raises(source, tmp_path)
        assert raises or not reported, source
        proven = t in FOUND["t"] and eq in FOUND["eq"] and view == VIEW[0]
        assert reported == proven, source
        found += reported
    assert found == len(TOPK) + len(FOUND["t"]) + len(FOUND["eq"]) - 2
