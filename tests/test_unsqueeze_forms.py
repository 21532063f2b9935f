"""``x.unsqueeze(d)``, ``x.unsqueeze(dim=d)``, ``torch.unsqueeze(x, d)`` and
``torch.unsqueeze(x, dim=d)`` keep the layout of a permuted ``x`` with a size-1 dim put in:
the analysis's claim is torch's on random permuted tensors, and TRC201 reports a view of
the result exactly where torch raises for it (GIF's ``lbs.py`` unsqueezes in function form)."""
import random

import pytest
from probe import analysed, executed
from test_layout_rules import _ints, nonone, trc201

torch = pytest.importorskip("torch")

FORMS = ["x.unsqueeze({d})", "x.unsqueeze(dim={d})", "torch.unsqueeze(x, {d})", "torch.unsqueeze(x, dim={d})"]


def _cases(seed, count):
    rnd = random.Random(seed)
    for _ in range(count):
        rank = rnd.randint(2, 4)
        shape = [rnd.choice([2, 3, 4]) for _ in range(rank)]
        perm = list(range(rank))
        rnd.shuffle(perm)
        d = rnd.randint(-rank - 1, rank)
        head = f"import torch\nx = torch.randn({', '.join(map(str, shape))}).permute({', '.join(map(str, perm))})\n"
        for form in FORMS:
            yield head, form.format(d=d)


def test_every_form_has_torchs_layout():
    for head, form in _cases(3, 40):
        src = head + f"probe({form})\n"
        (value,), (real,) = analysed(src), executed(src)
        assert _ints(value.sizes) == tuple(real.shape), src
        assert nonone(real.shape, _ints(value.strides)) == nonone(real.shape, real.stride()), src


def test_views_after_each_form_are_reported_only_where_torch_raises():
    reported = raising = 0
    for head, form in _cases(5, 30):
        src = head + f"y = {form}\nz = y.view(-1, y.shape[-1])\n"
        try:
            executed(src)
            raises = False
        except RuntimeError as e:
            assert "view size is not compatible" in str(e)
            raises = True
        found = trc201(src)
        assert bool(found) == raises, src
        reported += bool(found)
        raising += raises
    assert reported > 30
