"""Layouts that come back from a module-level function's returns (analysis/funclayouts.py).

Random programs: a module-level ``f`` returns a permuted, transposed or einsum layout of
its contiguous arguments (on one path or two), a caller views what ``f(...)`` returns.  Every
view reported is run with torch at random sizes above 1 and must raise; many are claimed.
An argument the caller lays out otherwise, a rebound or decorated ``f`` give nothing."""
import itertools
import random

import pytest

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")

HEAD = "import torch\n\n\n"


def _callee(rng: random.Random):
    """(source of f, rank of its input, rank of what it returns)."""
    kind = rng.choice(["permute", "transpose", "split", "einsum", "two"])
    if kind == "permute":
        p = list(range(3))
        while p == [0, 1, 2]:
            rng.shuffle(p)
        return f"def f(x, w):\n    b, n, c = x.shape\n    return x.permute({', '.join(map(str, p))})\n", 3
    if kind == "transpose":
        i, j = rng.sample(range(4), 2)
        return f"def f(x, w):\n    a, b, c, d = x.shape\n    return x.transpose({i}, {j})\n", 4
    if kind == "split":  # (b, n, h*d) -> (b, h, n, d)
        return ("def f(x, w):\n    b, n, c = x.shape\n"
                "    return x.view(b, n, 2, c // 2).transpose(1, 2)\n"), 4
    if kind == "two":
        return ("def f(x, w):\n    b, n, c = x.shape\n    if c > 3:\n"
                "        return (x * 2).transpose(1, 2)\n    return x.transpose(1, 2).abs()\n"), 3
    eq = rng.choice(["bik,ji->bjk", "bik,ji->bkj", "bij,jk->bik", "bij,jk->kbi", "bij,kj->bki"])
    return f"def f(x, w):\n    return torch.einsum('{eq}', x, w)\n", 3


VIEWS = ["y.view(-1)", "y.view(y.size(0), -1)", "y.view(-1, y.size({last}))",
         "y.view(y.size(0) * y.size(1), -1)", "y.view(y.shape[0], y.shape[1], -1)",
         "y.view(-1, y.size(1), y.size({last}))"]


def _program(rng: random.Random, passed: str = "x"):
    callee, _ = _callee(rng)
    view = rng.choice(VIEWS)
    caller = f"def g(x, w):\n    y = f({passed}, w)\n    return {view}\n"
    return HEAD + callee + "\n\n" + caller if rng.random() < 0.5 else HEAD + caller + "\n\n" + callee


def _ranked(src: str) -> str:
    return src.replace("{last}", "3" if "a, b, c, d" in src or "c // 2" in src else "2")


def _raises(src: str, rng: random.Random) -> bool:
    ns: dict = {}
    exec(compile(src, "<random>", "exec"), ns)
    for _ in range(4):
        s = [rng.randint(2, 4) for _ in range(4)]
        rank4 = "a, b, c, d" in src
        x = torch.randn(*(s if rank4 else s[:3]))
        if "c // 2" in src:
            x = torch.randn(s[0], s[1], 2 * s[2])
        w = torch.randn(s[2], s[3]) if "torch.einsum" in src else None
        if w is not None and ("bik" in src or "bij,kj" in src):
            eq = src.split("'")[1]
            left, right = eq.split("->")[0].split(",")
            sizes = dict(zip(left, x.shape))
            w = torch.randn(*[sizes.get(ch, s[3]) for ch in right])
        try:
            ns["g"](x, w)
        except RuntimeError as e:
            assert "view size is not compatible" in str(e)
            continue
        return False
    return True


def test_random_returns_claim_only_views_that_raise():
    rng = random.Random(20261125)
    claims = quiet = 0
    for _ in range(300):
        src = _ranked(_program(rng))
        found = [f for f in lint_source(src) if f.code == "TRC201"]
        if not found:
            quiet += 1
            continue
        claims += 1
        assert "f(...)" in found[0].message and "unless" in found[0].message, src
        assert found[0].fix is None or found[0].fix.applicability == "unsafe", src
        assert _raises(src, rng), src
    assert claims >= 80, (claims, quiet)


def test_an_argument_laid_out_otherwise_gives_nothing():
    rng = random.Random(7)
    for _ in range(60):
        src = _ranked(_program(rng, passed="x.transpose(0, 1)"))
        assert not [f for f in lint_source(src) if f.code == "TRC201"], src


BASE = HEAD + ("def g(x):\n    y = f(x)\n    return y.view(y.size(0), -1)\n\n\n"
               "def f(x):\n    b, n, c = x.shape\n    return x.transpose(1, 2)\n")


@pytest.mark.parametrize("change", ["", "f = torch.neg\n", "def f(x):\n    return x\n",
                                    "@torch.no_grad()\n"])
def test_only_the_one_def_of_the_module_is_followed(change):
    if change.startswith("@"):
        src = BASE.replace("def f(x):", change + "def f(x):")
    else:
        src = BASE + "\n\n" + change
    found = [f for f in lint_source(src) if f.code == "TRC201"]
    assert bool(found) == (change == ""), src
    if not change:
        with pytest.raises(RuntimeError, match="view size is not compatible"):
            ns: dict = {}
            exec(compile(src, "<base>", "exec"), ns)
            ns["g"](torch.randn(2, 3, 4))


def test_a_local_of_the_same_name_is_not_the_function():
    src = BASE.replace("    y = f(x)\n", "    f = torch.neg\n    y = f(x)\n")
    assert not [f for f in lint_source(src) if f.code == "TRC201"]


def test_gif_site_through_the_return_with_public_helpers():
    from pathlib import Path

    from flake8_torchcopy.engine import Options
    path = Path(__file__).resolve().parent.parent / "fixtures" / "real_sites" / "gif_lbs.py"
    found = [f for f in lint_source(path.read_text(), options=Options(public_helpers=True))
             if f.code == "TRC201"]
    assert [f.line for f in found] == [75] and "vertices2joints(...)" in found[0].message
    assert found[0].fix is None or found[0].fix.applicability == "unsafe"


def test_many_sizes_are_its_own():
    # every size of f's result is a symbol of the call: two calls do not share sizes
    src = HEAD + ("def g(x):\n    y = f(x)\n    z = f(x)\n    return y.view(z.size(0), -1)\n\n\n"
                  "def f(x):\n    b, n, c = x.shape\n    return x.transpose(1, 2)\n")
    for f in lint_source(src):
        assert "z.size" not in f.message or "f(x)" in f.message
    assert list(itertools.islice(iter([1]), 1))


def test_a_return_of_rank_below_two_gives_nothing():
    # mmpretrain's make_image_bucket_position (ofa_modules.py): a permute in the text, a
    # zeros(size=(n,) * 2) returned; the summary once met an empty order
    src = HEAD + ("def g(n):\n    y = f(n)\n    return y.view(-1)\n\n\n"
                  "def f(n):\n    c = torch.arange(n)[:, None, None].expand(n, n, 2)\n"
                  "    c = c.permute(1, 2, 0).contiguous()\n"
                  "    out = torch.zeros(size=(n * n + 1, ) * 2)\n    out[1:, 1:] = c.sum(-1)[:1, :1]\n"
                  "    return out\n")
    assert not [f for f in lint_source(src) if f.code == "TRC201"]
    ns: dict = {}
    exec(compile(src, "<rank>", "exec"), ns)
    ns["g"](2)
