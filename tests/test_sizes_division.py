"""Sizes through division (``t // k``, ``int(t / k)``, ``math.floor``/``ceil``) and views
of tensors of unknown rank: the algebra, checked against torch on concrete shapes."""
import math
import random
from fractions import Fraction

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import layout as L
from flake8_torchcopy.analysis import viewlegality as VL
from flake8_torchcopy.analysis.symbolic import Mono, Quotient, Rest, Sym, rounded

B, C, T, K = (Mono.sym(Sym(n)) for n in ("b", "c", "t", "k"))
REST = Mono.sym(Rest("rest"))


def _value(m: Mono, env) -> Fraction:
    out = Fraction(m.coef)
    for s, e in m.powers:
        if isinstance(s, Quotient):
            r = _value(s.ratio, env)
            v = Fraction(math.ceil(r) if s.ceil else math.floor(r))
        else:
            v = Fraction(env[s])
        out *= v ** e
    return out


def test_quotients_simplify_and_bound():
    q = rounded(T / K)
    assert isinstance(next(iter(q.symbols)), Quotient)
    assert rounded(C * K / K) == C                     # (c * k) // k
    assert rounded(Mono.const(7) / Mono.const(2)) == Mono.const(3)
    assert rounded(Mono.const(7) / Mono.const(2), ceil=True) == Mono.const(4)
    assert q.bound(upper=True) == T / K and q.bound(upper=False) is None
    assert (T / q).bound(upper=False) == K               # t / (t // k) >= k
    assert q.subst_one(next(iter(K.symbols))) == T        # t // 1 == t
    assert q.exact() == T / K
    # one atom whatever the spelling: int(t / k) is t // k
    assert rounded(T / K) == q and rounded(T / K, ceil=True) != q


def _speech_cases():
    """(source sizes before transpose(1, 2), target, expected verdict or None for any)."""
    q = rounded(T / K)
    half = rounded(T / Mono.const(2))
    ceil_q = rounded(T / K, ceil=True)
    for extra in ((), (REST,)):
        src = (B, C, T) + extra
        yield src, [B, q, None], VL.ILLEGAL
        yield src, [B, rounded(T / K), None], VL.ILLEGAL
        yield src, [B, q, K * C], VL.ILLEGAL if not extra else None
        yield src, [B, half, Mono.const(2), C], VL.LEGAL if not extra else None
        yield src, [B, q, K, C], VL.LEGAL if not extra else None
        yield src, [B, half, Mono.const(2), None], None   # legal only when t is even
        yield src, [B, None, q], None
        yield src, [B, ceil_q, None], None
        yield src, [B, T, None], VL.LEGAL if not extra else None


def _layout(src):
    return L.swap(src, L.contiguous_strides(src), 1, 2)


def test_speech_model_view_is_illegal_unless_k_is_1():
    sizes, strides = _layout((B, C, T))
    verdict, rescues = VL.view_verdict(sizes, strides, [B, rounded(T / K), None])
    assert verdict == VL.ILLEGAL
    assert {tuple(s.name for s in r) for r in rescues} == {("k",), ("c",)}
    # rank unknown (x.transpose(1, 2) of a parameter): still only k == 1 or c == 1 save it
    sizes, strides = _layout((B, C, T, REST))
    verdict, rescues = VL.view_verdict(sizes, strides, [B, rounded(T / K), None])
    assert verdict == VL.ILLEGAL
    assert {tuple(s.name for s in r) for r in rescues} == {("k",), ("c",)}


@pytest.mark.verify
def test_division_verdicts_agree_with_torch():
    torch = pytest.importorskip("torch")
    rnd = random.Random(0)
    checked = {VL.LEGAL: 0, VL.ILLEGAL: 0}
    for src, target, expected in _speech_cases():
        sizes, strides = _layout(src)
        verdict, rescues = VL.view_verdict(sizes, strides, target)
        if expected is not None:
            assert verdict == expected, (src, target)
        for _ in range(150):
            extra_dims = [rnd.randint(1, 3) for _ in range(rnd.randint(0, 2))] if len(src) == 4 else []
            env = {next(iter(m.symbols)): rnd.randint(1, 6) for m in (B, C, T, K)}
            env[next(iter(REST.symbols))] = math.prod(extra_dims)
            x = torch.empty([int(_value(m, env)) for m in src[:3]] + extra_dims).transpose(1, 2)
            shape = [-1 if m is None else _value(m, env) for m in target]
            if any(v.denominator != 1 for v in shape):
                continue
            shape = [int(v) for v in shape]
            try:
                x.view(shape)
                viewed = True
            except RuntimeError:
                viewed = False
            try:
                x.reshape(shape)
                reshaped = True
            except RuntimeError:
                reshaped = False
            if verdict == VL.LEGAL:   # never raises where reshape would not
                assert viewed or not reshaped, (src, target, env, extra_dims)
            if verdict == VL.ILLEGAL and not any(all(env[s] == 1 for s in r) for r in rescues):
                assert not viewed, (src, target, env, extra_dims)
            if verdict != VL.UNKNOWN:
                checked[verdict] += 1
    assert checked[VL.LEGAL] > 300 and checked[VL.ILLEGAL] > 300


SPEECH = """\
import math
import torch


def downsample(x, k):
    y = x.transpose(1, 2)
    a = y.view(y.size(0), y.size(1) // k, -1)
    n = int(y.shape[1] / k)
    b = y.view(y.size(0), n, -1)
    return a, b


def legal_split(x):
    b, c, t = x.shape
    y = x.transpose(1, 2)
    return y.view(b, t // 2, 2, c), y.view(b, math.floor(t / 2), 2, c)
"""


def test_speech_pattern_found_with_unknown_rank_and_split_quiet():
    findings = lint_source(SPEECH)
    assert [f.line for f in findings] == [7, 9]
    for f in findings:
        assert f.message.endswith("raises RuntimeError unless k == 1 or x.size(1) == 1"), f.message


@pytest.mark.verify
def test_speech_pattern_raises_in_torch():
    torch = pytest.importorskip("torch")
    ns: dict = {}
    exec(compile(SPEECH, "speech", "exec"), ns)
    x = torch.randn(2, 3, 8)
    for k in (2, 4):
        # each lambda is called within this iteration of k
        for call in (lambda: ns["downsample"](x, k)[0], lambda: ns["downsample"](x, k)[1]):  # noqa: B023
            with pytest.raises(RuntimeError):
                call()
    ns["downsample"](x, 1)          # k == 1: legal, so tests with the default pass
    ns["legal_split"](x)


def test_a_view_legal_with_no_more_dims_is_not_reported():
    """With the rank unknown, ``view(b, t, -1)`` is legal when x has three dims: no claim;
    ``view(b, -1)`` raises whatever the rank, unless t or c is 1."""
    sizes, strides = _layout((B, C, T, REST))
    assert VL.view_verdict(sizes, strides, [B, T, None])[0] == VL.UNKNOWN
    verdict, rescues = VL.view_verdict(sizes, strides, [B, None])
    assert verdict == VL.ILLEGAL
    assert {tuple(s.name for s in r) for r in rescues} == {("t",), ("c",)}
