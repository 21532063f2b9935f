"""Sizes read from the end (``x.shape[-1]``, ``n, c = x.shape[-2:]``, ``c, h, w = x.shape[1:]``)
are the dims they name once a permute tells the tensor's rank, and ``x.view(torch.<dtype>)`` is
no view of sizes.

Each decision is checked against torch: the view is run with random sizes (size-1 dims
among them, which torch treats as stride-free), a view the analysis decides legal must never
raise, one it reports must raise unless one of the sizes it names is 1.  The analysis is read
through the census's hook (:func:`viewlegality.view_verdict` as :mod:`.views` calls it).
"""
import random
import re
import types

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import layout, viewlegality
from flake8_torchcopy.analysis import views as views_module
from flake8_torchcopy.analysis.torchapi import DTYPE_NAMES
from flake8_torchcopy.rules import ALL_RULES

torch = pytest.importorskip("torch")

TRC201 = next(r for r in ALL_RULES if r.code == "TRC201")


def verdicts(src, monkeypatch):
    """The verdict of each view of a permuted tensor TRC201 asked about, and its reports."""
    seen = []

    def counted(sizes, strides, target):
        result = viewlegality.view_verdict(sizes, strides, target)
        if tuple(strides) != tuple(layout.contiguous_strides(sizes)):
            seen.append(result[0])
        return result

    proxy = types.SimpleNamespace(**{k: getattr(viewlegality, k) for k in dir(viewlegality)
                                     if not k.startswith("__")})
    proxy.view_verdict = counted
    monkeypatch.setattr(views_module, "VL", proxy)
    reports = [f for f in lint_source(src, rules=[TRC201]) if f.code == "TRC201"]
    return seen, reports


class Layer:
    """An unknown call of the analysis: returns a tensor of the shape it is given."""

    def __init__(self, out):
        self.out = out

    def __call__(self, *_):
        return torch.randn(*self.out)


def run(src, fn, *args):
    scope = {}
    exec(compile(src, "<case>", "exec"), {"torch": torch}, scope)
    return scope[fn](*args)


def sizes(n, rng):
    return [rng.choice([1, 1, 2, 3, 4, 6]) for _ in range(n)]


# N, C = x.shape[-2:] of a (S, N, C) tensor whose rank a permute then tells (ultralytics' SAM 3
# geometry encoder): (N, C, S) viewed as (N, C, H, W) splits S only.
SAM3 = """
import torch
def f(self, x, img_sizes):
    x = self.norm(x)
    H, W = img_sizes[-1]
    N, C = x.shape[-2:]
    x = x.permute(1, 2, 0)
    return x.view(N, C, H, W)
"""

# the batch and channels read from the tensor itself, from the end (transformers' step3p7
# with the batch taken from the same tensor)
FROM_END = """
import torch
def f(self, x, grid_h, grid_w):
    x = self.layer(x)
    batch_size = x.shape[-3]
    channels = x.shape[-1]
    return x.permute(0, 2, 1).view(batch_size, channels, grid_h, grid_w)
"""

# c, h, w = x.shape[1:] closes the rank at 4
TAIL_UNPACK = """
import torch
def f(self, x):
    c, h, w = x.shape[1:]
    return x.permute(0, 2, 3, 1).view(-1, h * w, c)
"""

# the channels from the end, and a view that merges the dims the permute separated
RAISES = """
import torch
def f(self, x):
    x = self.layer(x)
    n, c = x.shape[-2:]
    return x.permute(0, 2, 1).view(-1, n)
"""


@pytest.mark.parametrize("src,fn,extra,shape_of", [
    (SAM3, "f", lambda s, r: [[(s[3], s[4])]], lambda s: (s[3] * s[4], s[1], s[2])),
    (FROM_END, "f", lambda s, r: [s[3], s[4]], lambda s: (s[0], s[3] * s[4], s[2])),
])
def test_sizes_read_from_the_end_decide_legal_views(src, fn, extra, shape_of, monkeypatch):
    seen, reports = verdicts(src, monkeypatch)
    assert seen == ["legal"] and not reports
    rng = random.Random(7)
    for _ in range(300):
        s = sizes(5, rng)
        layer = Layer(shape_of(s))
        self = types.SimpleNamespace(norm=layer, layer=layer)
        out = run(src, fn, self, torch.zeros(1), *extra(s, rng))  # raises if the view does
        assert out.numel() == layer.out[0] * layer.out[1] * layer.out[2]


def test_a_tail_unpack_closes_the_rank(monkeypatch):
    """(b, h, w, c) viewed as (-1, h * w, c): h and w are adjacent, the merge works."""
    seen, reports = verdicts(TAIL_UNPACK, monkeypatch)
    assert seen == ["legal"] and not reports
    rng = random.Random(3)
    for _ in range(300):
        x = torch.randn(*sizes(4, rng))
        assert run(TAIL_UNPACK, "f", None, x).shape[1:] == (x.shape[2] * x.shape[3], x.shape[1])


def test_a_view_reported_with_sizes_from_the_end_raises_as_claimed(monkeypatch):
    seen, reports = verdicts(RAISES, monkeypatch)
    assert seen == ["illegal"] and len(reports) == 1
    message = reports[0].message
    alternatives = [re.findall(r"(\S+) == 1", alt) for alt in message.split(" unless ")[1].split(" or ")]
    rng = random.Random(11)
    for _ in range(300):
        s = sizes(3, rng)
        named = {"x.size(0)": s[0], "n": s[1], "c": s[2]}
        rescued = any(all(named[n] == 1 for n in alt) for alt in alternatives)
        self = types.SimpleNamespace(layer=Layer(s))
        try:
            run(RAISES, "f", self, None)
        except RuntimeError:
            assert not rescued
        else:
            assert rescued


@pytest.mark.parametrize("read", ["x.shape[-1]", "x.size(-1)", "x.size(0)", "x.shape[0]"])
def test_a_size_read_before_a_rebinding_is_not_the_new_tensors(read, monkeypatch):
    """``u = x.shape[-1]`` then ``x = layer(x)``: u is the old x's size, whatever the new one.
    Taken for the new x's size, u would make a view that splits look like a merge; the view
    is judged only as one that raises for every u (the permuted x has three chunks and a
    view of two dims ends one dim at most between them), naming the new x's sizes only."""
    src = ("import torch\ndef f(self, x):\n    x = self.norm(x)\n"
           f"    u = {read}\n    x = self.layer(x)\n    return x.permute(0, 2, 1).view(u, -1)\n")
    seen, reports = verdicts(src, monkeypatch)
    assert seen == ["illegal"] and len(reports) == 1
    unless = reports[0].message.split(" unless ")[1]
    assert sorted(unless.split(" or ")) == ["x.size(0) == 1", "x.size(1) == 1", "x.size(2) == 1"]
    # with the new x's sizes all above 1 it raises for every u of the old x; with its batch 1
    # and u the size it splits, it works (so no size of the old x is named)
    outcomes = set()
    for new in [(2, 3, 4), (3, 2, 2), (1, 3, 4)]:
        n = new[0] * new[1] * new[2]
        for u in [d for d in range(1, n + 1) if n % d == 0]:
            self = types.SimpleNamespace(norm=Layer((u, 5, 7) if "0" in read else (5, 7, u)),
                                         layer=Layer(new))
            try:
                run(src, "f", self, None)
                outcomes.add("works")
                assert 1 in new
            except RuntimeError as e:
                assert "view size is not compatible" in str(e)
                outcomes.add("raises")
    assert outcomes == {"works", "raises"}


def test_every_torch_dtype_is_known():
    """``x.t().view(torch.float4_e2m1fn_x2)`` reinterprets the bytes: no view of sizes."""
    names = {n for n in dir(torch) if isinstance(getattr(torch, n), torch.dtype)}
    assert names <= DTYPE_NAMES


@pytest.mark.parametrize("dtype", ["float4_e2m1fn_x2", "float8_e8m0fnu", "uint4", "bits8"])
def test_a_dtype_view_is_not_judged_as_sizes(dtype, monkeypatch):
    src = f"import torch\ndef f(x):\n    return x.permute(1, 0).view(torch.{dtype})\n"
    seen, reports = verdicts(src, monkeypatch)
    assert seen == [] and not reports
    x = torch.zeros(4, 3, dtype=torch.uint8)
    if getattr(torch, dtype).itemsize == 1:
        x.permute(1, 0).view(getattr(torch, dtype))  # same element size: any strides work


READS = {
    "last": "c = x.shape[-1]",
    "last2": "n, c = x.shape[-2:]",
    "first": "b = x.size(0)",
    "tail": "n, c = x.shape[1:]",
    "mid": "n = x.size(-2)",
}
TARGETS = ["(b, c, -1)", "(-1, c)", "(b, -1)", "(n, c, -1)", "(-1, n)", "(c, -1)", "(-1, n, c)", "(b, n * c)"]


def _program(rng):
    lines = ["import torch", "def f(self, x):", "    b = n = c = 1"]
    rebind_at = rng.randrange(4)
    reads = rng.sample(sorted(READS), rng.randint(1, 3))
    for k, r in enumerate(reads):
        if k == rebind_at:
            lines.append("    x = self.layer(x)")
        lines.append("    " + READS[r])
    perm = rng.choice([(0, 2, 1), (1, 0, 2), (2, 0, 1), (1, 2, 0), (2, 1, 0)])
    lines.append(f"    return x.permute{perm}.view{rng.choice(TARGETS)}")
    return "\n".join(lines) + "\n"


def test_random_programs_reading_sizes_from_either_end_are_judged_soundly(monkeypatch):
    """Random reads (from the end, from the start, unpacked slices), a rebinding somewhere,
    a permute and a view: a view decided legal never raises torch's stride error for any
    sizes (1 among them), one reported raises whenever every size is at least 2."""
    rng = random.Random(2026)
    decided = {"legal": 0, "illegal": 0}
    for _ in range(300):
        src = _program(rng)
        seen, _ = verdicts(src, monkeypatch)
        if not seen or seen[0] == "unknown":
            continue
        decided[seen[0]] += 1
        for _ in range(40):
            old, new = sizes(3, rng), sizes(3, rng)
            if seen[0] == "illegal":
                old, new = [s + 1 for s in old], [s + 1 for s in new]
            self = types.SimpleNamespace(layer=Layer(new))
            try:
                run(src, "f", self, torch.randn(*old))
            except RuntimeError as e:
                if "is invalid for input of size" in str(e):
                    continue  # the element counts differ: no view of any strides works
                assert seen[0] == "illegal", (src, old, new)
            else:
                assert seen[0] == "legal", (src, old, new)
    assert decided["legal"] >= 10 and decided["illegal"] >= 10, decided
