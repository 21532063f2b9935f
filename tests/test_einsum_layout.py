"""``analysis/einsum.py``: the layout of a two-operand ``torch.einsum`` whose output labels
are each in one operand only (the GIF site's ``'bik,ji->bjk'``: strides ``(k*j, 1, k)``).

Checked against torch on random equations (contraction labels in both operands or in one,
output labels from either operand in any order) and random sizes, 1 included: where the
analysis claims sizes and strides, they are torch's (strides compared where sizes are not
1); where the rule does not apply (a label in both operands and the output, a repeated
label, one operand, three), the result is never taken for contiguous.  A view the analysis
judges to raise does.
"""
import random
import string

import pytest
from probe import analysed, executed

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import einsum

torch = pytest.importorskip("torch")


def _ints(monos):
    if monos is None or any(m.powers for m in monos):
        return None
    return tuple(int(m.coef) for m in monos)


def _equation(rnd):
    labels = rnd.sample(string.ascii_lowercase, 9)
    left_only, right_only = labels[:rnd.randint(0, 3)], labels[3:3 + rnd.randint(0, 3)]
    shared = labels[6:6 + rnd.randint(1, 2)]  # contracted from both
    left, right = left_only + shared, right_only + shared
    out = left_only + right_only
    form = rnd.choice(["measured"] * 6 + ["summed from one", "kept from both", "a size 1"])
    if form == "summed from one":
        (left if rnd.random() < 0.5 else right).append(labels[8])
    elif form == "kept from both":
        out.append(shared[0])
    rnd.shuffle(left)
    rnd.shuffle(right)
    rnd.shuffle(out)
    return "".join(left), "".join(right), "".join(out), form


def _cases(seed, count):
    rnd = random.Random(seed)
    for _ in range(count):
        left, right, out, form = _equation(rnd)
        if not out:
            continue
        sizes = {c: rnd.choice([2, 3, 4]) for c in set(left + right)}
        if form == "a size 1":
            sizes[rnd.choice(sorted(sizes))] = 1
        ls = ", ".join(str(sizes[c]) for c in left)
        rs = ", ".join(str(sizes[c]) for c in right)
        operands = "a, b" if rnd.random() < 0.5 else "[a, b]"
        src = (f"import torch\na = torch.randn({ls})\nb = torch.randn({rs})\n"
               f"y = torch.einsum('{left},{right}->{out}', {operands})\nprobe(y)\n")
        yield src, form


def test_claimed_layouts_are_torchs():
    claimed = unclaimed = 0
    for src, form in _cases(0, 600):
        (value,) = analysed(src)
        (real,) = executed(src)
        if form == "measured":
            assert _ints(value.sizes) == tuple(real.shape), src
            assert _ints(value.strides) == real.stride(), (src, value.strides, real.stride())
            claimed += 1
        else:  # the order was seen to change there: never taken for contiguous
            assert value.strides is None and value.permuted_by == einsum.ORIGIN, src
            unclaimed += 1
    assert claimed > 300 and unclaimed > 100


def test_symbolic_layouts_hold_unless_a_named_size_is_1():
    """The same equations on parameters: sizes and strides of symbols, which hold for every
    size unless one the conditions name is 1."""
    rnd = random.Random(1)
    checked = 0
    for src, form in _cases(2, 300):
        if form != "measured":
            continue
        eq = src.split("einsum(")[1].split(",")[0:2]
        left, right_out = eq[0].strip("'"), eq[1]
        right, out = right_out.split("->")[0], right_out.split("->")[1].strip("'")
        sym = f"import torch\ndef f(a, b):\n    probe(torch.einsum('{left},{right}->{out}', a, b))\n"
        (value,) = analysed(sym)
        named = {c.name for c in value.assumes}
        for _ in range(4):
            sizes = {c: rnd.choice([1, 2, 3]) for c in set(left + right)}
            a, b = torch.randn(*[sizes[c] for c in left]), torch.randn(*[sizes[c] for c in right])
            real = torch.einsum(f"{left},{right}->{out}", a, b)
            values = {f"a.size({i})": sizes[c] for i, c in enumerate(left)}
            values.update({f"b.size({i})": sizes[c] for i, c in enumerate(right)})
            if any(values[n.split(" == ")[0]] == 1 for n in named):
                continue  # a condition holds: no claim
            ev = {name: values[name] for name in values}
            claimed = tuple(_eval(m, ev) for m in value.strides)
            assert claimed == real.stride(), (sym, sizes)
            checked += 1
    assert checked > 50


def _eval(m, values):
    out = m.coef
    for sym, e in m.powers:
        out *= values[sym.name] ** e
    return int(out)


def test_symbolic_sizes_and_a_view_that_raises():
    src = ("import torch\ndef f(a, b):\n    j = torch.einsum('bik,ji->bjk', a, b)\n"
           "    return j.view(j.size(0), -1)\n")
    (report,) = [f for f in lint_source(src) if f.code == "TRC201"]
    assert "after torch.einsum" in report.message
    scope: dict = {}
    exec(src, scope)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        scope["f"](torch.randn(2, 5, 3), torch.randn(4, 5))
    scope["f"](torch.randn(2, 5, 1), torch.randn(4, 5))  # k == 1: named in the report, works
    assert "a.size(2) == 1" in report.message and "b.size(0) == 1" in report.message


@pytest.mark.parametrize("eq", ["bij->bji", "bii->bi", "bij,bjk,bkl->bil", "...ij,jk->...ik", "bij,bjk->bik"])
def test_the_rule_applies_only_where_it_was_measured(eq):
    src = f"import torch\ndef f(a, b, c):\n    probe(torch.einsum('{eq}', a, b, c))\n"
    (value,) = analysed(src)
    assert value.strides is None and value.permuted_by == einsum.ORIGIN
