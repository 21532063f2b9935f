"""Layouts of the pieces of ``t.chunk``/``split``/``tensor_split``, checked against torch.

Each piece has ``t``'s strides and, in the split dim, a size of its own.  On random permuted
tensors the analysis's claim for every piece a loop binds must be torch's (sizes outside the
split dim, strides of the dims that are not 1), and TRC201 must report a view of a piece
only where torch raises for it; the views it reports must be views that raise.
"""
import random
import textwrap

import pytest
from probe import analysed, executed
from test_layout_rules import _ints, nonone, trc201

torch = pytest.importorskip("torch")

SPLITS = ["x.chunk(2, {d})", "x.chunk(3, dim={d})", "x.split(2, {d})", "x.split(1, dim={d})",
          "x.tensor_split(2, {d})", "x.split([1, x.shape[{d}] - 1], {d})", "torch.chunk(x, 2, {d})",
          "torch.split(x, 3, dim={d})", "torch.tensor_split(x, 3, {d})"]


def _cases(seed, count):
    rnd = random.Random(seed)
    for _ in range(count):
        rank = rnd.randint(2, 4)
        shape = [rnd.choice([2, 3, 4]) for _ in range(rank)]
        perm = list(range(rank))
        rnd.shuffle(perm)
        d = rnd.randrange(-rank, rank)
        head = f"import torch\nx = torch.randn({', '.join(map(str, shape))}).permute({', '.join(map(str, perm))})\n"
        for split in SPLITS:
            yield head, split.format(d=d), d % rank


def test_pieces_have_torchs_layout():
    claimed = 0
    for head, split, d in _cases(7, 40):
        src = head + f"for y in {split}:\n    probe(y)\n"
        values, real = analysed(src), executed(src)
        assert values, src
        value = values[0]  # the loop body is walked as one piece stands for all
        if value.sizes is None:  # nothing claimed only where a piece may be empty or of size 1:
            # by a list, more sections than size, or pieces of a known size ending in one of 1
            assert "[" in split or any(0 in p.shape or p.shape[d] == 1 for p in real), src
            continue
        assert value.sizes is not None and value.strides is not None, src
        claimed += 1
        for piece in real:
            sizes = _ints(value.sizes[:d] + value.sizes[d + 1:])
            assert sizes == tuple(piece.shape[:d] + piece.shape[d + 1:]), src
            own = _ints(value.sizes[d:d + 1])  # the split dim's, where every piece has it
            assert own is None or all(p.shape[d] == own[0] for p in real), src
            strides = _ints(value.strides)
            assert nonone(piece.shape, strides) == nonone(piece.shape, piece.stride()), src
    assert claimed > 200  # split(3) of 4 ends in a piece of 1: no claim


def test_views_of_pieces_are_reported_only_where_torch_raises():
    reported = raising = legal_reported = 0
    for head, split, _ in _cases(11, 30):
        src = head + textwrap.dedent(f"""\
            for y in {split}:
                z = y.view(-1)
            """)
        findings = trc201(src)
        try:
            exec(compile(src, "<case>", "exec"), {})
            raised = False
        except RuntimeError as e:
            assert "view size is not compatible" in str(e)
            raised = True
        raising += raised
        if findings:
            reported += 1
            # "unless" a size is 1: a reported view that works names a size that is 1 here
            assert raised or "unless" in findings[0].message, src
        if not raised and findings:
            legal_reported += 1
    assert reported > 100 and legal_reported <= reported // 10


def test_views_of_pieces_of_a_known_dim_are_reported_only_where_every_piece_raises():
    """A dim of known size cut into pieces of different sizes may end in a piece of size 1
    (``chunk(3)`` of 5 is 2, 2, 1; ``tensor_split(3)`` of 4 is 2, 1, 1): a view of it may be
    legal, so no view of such pieces is reported."""
    rnd = random.Random(5)
    checked = 0
    for _ in range(150):
        rank = rnd.randint(2, 4)
        shape = [rnd.choice([1, 2, 3, 4, 5, 7]) for _ in range(rank)]
        perm = list(range(rank))
        rnd.shuffle(perm)
        d = rnd.randrange(-rank, rank)
        split = rnd.choice(["x.chunk({n}, {d})", "x.split({n}, dim={d})", "x.tensor_split({n}, {d})"])
        split = split.format(n=rnd.randint(2, 4), d=d)
        view = rnd.choice(["y.view(-1)", "y.view(y.shape[0], -1)"])
        src = f"import torch\nx = torch.randn({', '.join(map(str, shape))}).permute({', '.join(map(str, perm))})\n" \
            f"for y in {split}:\n    z = {view}\n"
        if not trc201(src):
            continue
        checked += 1
        x = torch.randn(*shape).permute(*perm)
        for y in eval(split, {"x": x}):
            with pytest.raises(RuntimeError, match="view size is not compatible"):
                eval(view, {"y": y})
    assert checked > 20
