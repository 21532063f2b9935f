"""``x.narrow(d, start, length)``, ``x.select(d, i)`` (and their ``torch.`` forms) and the
pieces of ``x.split([a, b], d)`` with literal sizes: the sizes and strides the analysis gives
are torch's (checked on random permuted tensors), and TRC201 reports a view of them only
where torch raises for it."""
import random

import pytest
from probe import analysed, executed
from test_layout_rules import _ints, nonone, trc201

torch = pytest.importorskip("torch")


def _cases(seed, count):
    rnd = random.Random(seed)
    for _ in range(count):
        rank = rnd.randint(2, 4)
        shape = [rnd.choice([1, 2, 3, 5, 6]) for _ in range(rank)]
        perm = list(range(rank))
        if rnd.random() < 0.7:
            rnd.shuffle(perm)
        head = f"import torch\nx = torch.randn({', '.join(map(str, shape))}).permute({', '.join(map(str, perm))})\n"
        sizes = [shape[p] for p in perm]
        d = rnd.randrange(rank)
        spelt = rnd.choice([d, d - rank])
        n = sizes[d]
        form = rnd.choice(["narrow", "select", "split"])
        if form == "narrow":
            length = rnd.randint(1, n)
            start = rnd.randint(0, n - length)
            expr = rnd.choice([f"x.narrow({spelt}, {start}, {length})", f"torch.narrow(x, {spelt}, {start}, {length})"])
        elif form == "select":
            i = rnd.randrange(n)
            expr = rnd.choice([f"x.select({spelt}, {i})", f"torch.select(x, {spelt}, {i})"])
        else:
            cut = rnd.randint(0, n)
            parts = rnd.choice([[cut, n - cut], [n // 2, n // 2, n % 2] if n % 2 else [n // 2, n // 2]])
            expr = f"x.split({parts}, {spelt})[{rnd.randrange(len(parts))}]"
        yield head, expr


def test_sizes_and_strides_are_torchs():
    claimed = 0
    for head, expr in _cases(1, 300):
        src = head + f"probe({expr})\n"
        (value,), (real,) = analysed(src), executed(src)
        sizes, strides = _ints(value.sizes), _ints(value.strides)
        if sizes is not None:
            assert sizes == tuple(real.shape), src
        if strides is not None:
            claimed += 1
            assert nonone(real.shape, strides) == nonone(real.shape, real.stride()), src
    assert claimed > 150


def _views_judged(cases):
    """``(source, torch raises, TRC201 reports)`` of ``y.view(-1)`` of each case's ``y``."""
    for head, expr in cases:
        src = head + f"y = {expr}\nz = y.view(-1)\n"
        try:
            executed(src)
            raises = False
        except RuntimeError as e:
            raises = "view size is not compatible" in str(e)
        yield src, raises, bool(trc201(src))


def test_views_are_reported_only_where_torch_raises():
    reported = 0
    for src, raises, found in _views_judged(_cases(2, 300)):
        assert raises or not found, src  # never a legal view
        reported += found
    assert reported > 20


@pytest.mark.parametrize("src", [
    "import torch\ndef f():\n    a, b = torch.zeros(4, 6).chunk(2, dim=1)\n    return a.view(-1)\n",
    "import torch\ndef f():\n    a, b = torch.zeros(4, 6).split([3, 3], 1)\n    return a.view(-1)\n",
    "import torch\ndef f():\n    q, k = torch.zeros(2, 8, 6).unbind(1)[:2]\n    return q.view(-1)\n",
])
def test_a_function_holding_only_split_words_is_walked(src):
    # no permute/transpose word in the function: the pieces' words are TRC201's triggers too
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        exec(src + "f()\n", {})
    assert trc201(src)


def _piece_cases(seed, count):
    """One piece, by its index, of a chunk/split/tensor_split of a permuted tensor: pieces of
    a dim of known size have their own sizes (the last chunk of 5 in 3 is 1)."""
    rnd = random.Random(seed)
    for _ in range(count):
        shape = [rnd.choice([1, 2, 3, 4, 5, 7]) for _ in range(3)]
        perm = rnd.sample(range(3), 3)
        head = f"import torch\nx = torch.randn({', '.join(map(str, shape))}).permute({', '.join(map(str, perm))})\n"
        d = rnd.randrange(3)
        n = [shape[p] for p in perm][d]
        k = rnd.randint(1, 4)
        m = rnd.choice(["chunk", "split", "tensor_split"])
        count_ = {"chunk": len(torch.zeros(n).chunk(k)), "split": len(torch.zeros(n).split(k)),
                  "tensor_split": k}[m]
        yield head, f"x.{m}({k}, {rnd.choice([d, d - 3])})[{rnd.randrange(count_)}]"


def test_each_piece_by_its_index_has_torchs_sizes():
    claimed = 0
    for head, expr in _piece_cases(3, 300):
        src = head + f"probe({expr})\n"
        (value,), (real,) = analysed(src), executed(src)
        sizes, strides = _ints(value.sizes), _ints(value.strides)
        if sizes is not None and strides is not None:
            claimed += 1
            assert sizes == tuple(real.shape), src
            assert nonone(real.shape, strides) == nonone(real.shape, real.stride()), src
    assert claimed > 250


def test_views_of_a_piece_by_its_index_are_reported_only_where_torch_raises():
    reported = 0
    for src, raises, found in _views_judged(_piece_cases(4, 300)):
        assert raises or not found, src  # never a legal view
        assert found or not raises, src  # every piece's layout is known: each raising view is found
        reported += found
    assert reported > 30
