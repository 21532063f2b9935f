"""Input synthesis: a covering set of test cases for the SPECs (see :mod:`.specs`).

A case is a plain description (dtype, rank, layout, autograd kind, grad mode, and
values for non-tensor inputs); :func:`build_inputs` turns it into fresh objects
on a device, so the expression before and after a fix each get their own copy.
"""
from __future__ import annotations

import random
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import torch

from .specs import (
    COMPLEX_DTYPES,
    DTYPES,
    FLOAT_DTYPES,
    LAYOUT_RANKS,
    LAYOUTS,
    InputSpec,
    SpecError,
    eval_shape,
    int_or_range,
    with_exprs,
)

RANKS: Tuple[int, ...] = (0, 1, 2, 3, 4)
# (requires_grad, kind): kind is "leaf", "nonleaf", "param" or "inference" (made in inference mode).
AUTOGRAD: Tuple[Tuple[bool, str], ...] = (
    (False, "leaf"), (False, "param"), (False, "inference"), (True, "leaf"), (True, "nonleaf"),
    (True, "param"),
)
GRAD_MODES: Tuple[str, ...] = ("grad", "no_grad", "inference")
SIZES = (1, 3, 5, 2)  # small, mostly odd, size-1 dims included
# Values put into float tensors every few cases: NaN/inf/-0.0, subnormals, values near the max.
SPECIALS: Tuple[str, ...] = ("nan/inf", "subnormal", "large")
DEFAULT_DTYPES: Tuple[str, ...] = ("float32", "float64")

@dataclass
class TensorCase:
    dtype: str
    rank: int
    layout: str
    shape: Tuple[int, ...]
    requires_grad: bool = False
    kind: str = "leaf"
    special: str = ""  # one of SPECIALS, or "" for plain random values
    strides: Optional[Tuple[int, ...]] = None  # with layout "strided": these exact strides

    def describe(self) -> str:
        ag = {"leaf": "leaf", "nonleaf": "non-leaf", "param": "Parameter", "inference": "inference tensor"}[self.kind]
        rg = " requires_grad" if self.requires_grad else ""
        sp = f" +{self.special}" if self.special else ""
        return f"{self.dtype}{list(self.shape)} {self.layout} {ag}{rg}{sp}"


@dataclass
class Case:
    tensors: Dict[str, TensorCase]
    values: Dict[str, Any] = field(default_factory=dict)
    grad_mode: str = "grad"
    index: int = 0
    default_dtype: str = "float32"

    def describe(self) -> str:
        parts = [f"{n}={tc.describe()}" for n, tc in self.tensors.items()]
        parts += [f"{n}={v!r}" for n, v in self.values.items()]
        dd = "" if self.default_dtype == "float32" else f", default dtype {self.default_dtype}"
        return f"#{self.index} " + ", ".join(parts) + f" [{self.grad_mode}{dd}]"


def _shape_for(rank: int, rng: random.Random, layout: str = "contiguous", empty: bool = False) -> Tuple[int, ...]:
    """Sizes from SIZES; channels_last(_3d) get channel and spatial dims above 1 (so the
    layout is real), and ``empty`` puts a zero-size dim in."""
    if layout in ("channels_last", "channels_last_3d"):
        shape = [rng.choice(SIZES)] + [rng.choice((2, 3, 5)) for _ in range(rank - 1)]
    else:
        shape = [rng.choice(SIZES) for _ in range(rank)]
        if rank >= 2 and all(s == 1 for s in shape):
            shape[-1] = 3
    if empty and rank >= 1:
        shape[rng.randrange(rank)] = 0
    return tuple(shape)


def layout_applies(layout: str, dtype: str, rank: int) -> bool:
    ranks = LAYOUT_RANKS.get(layout)
    if layout == "conj" and dtype not in COMPLEX_DTYPES:
        return False
    return ranks is None or rank in ranks


def make_cases(specs: Dict[str, InputSpec], seed: int = 0, max_cases: Optional[int] = None) -> List[Case]:
    """A seeded covering design: every dtype x layout x rank for the (first) tensor
    input, and every autograd kind x grad mode combination among the float cases.

    With several tensor inputs they share dtype and shape (the common need of
    binary expressions); a few extra cases give them different shapes.
    """
    rng = random.Random(seed)
    tensor_names = [n for n, s in specs.items() if s.kind == "tensor"]
    other = {n: s for n, s in specs.items() if s.kind != "tensor"}

    def values_for(i: int) -> Dict[str, Any]:
        vals: Dict[str, Any] = {}
        for n, s in other.items():
            if s.kind == "int":
                span = list(range(int(s.low), int(s.high) + 1))
                vals[n] = span[(i + rng.randrange(len(span))) % len(span)] if i else span[0]
            elif s.kind == "float":
                vals[n] = round(rng.uniform(s.low, s.high), 3)
            elif s.kind == "bool":
                vals[n] = bool((i + rng.randrange(2)) % 2)
            elif s.kind == "dtype":
                vals[n] = getattr(torch, s.choices[i % len(s.choices)])
            elif s.kind == "value":
                vals[n] = eval(s.choices[0], {"torch": torch, "__builtins__": __builtins__})  # noqa: S307
        return with_exprs(other, vals)

    if not tensor_names:
        n = max(1, min(8, max_cases or 8))
        return [Case({}, values_for(i), GRAD_MODES[i % 3], i) for i in range(n)]

    first = specs[tensor_names[0]]
    dtypes = tuple((first.opt("dtype") or "|".join(DTYPES)).split("|"))
    # channels_last_3d needs rank 5: it is in the default ranks for that layout only.
    ranks = int_or_range(first.opt("rank"), RANKS + (5,))
    layouts = tuple((first.opt("layout") or "|".join(LAYOUTS)).split("|"))
    if first.opt("strides"):
        layouts = ("strided",)
    for d in dtypes:
        if d not in DTYPES and not isinstance(getattr(torch, d, None), torch.dtype):
            raise SpecError(f"unknown dtype {d!r}")
    unrestricted_rank = first.opt("rank") is None
    combos = [(d, layout, r) for d in dtypes for layout in layouts for r in ranks
              if (layout_applies(layout, d, r) or layout not in LAYOUT_RANKS)
              and (r < 5 or layout == "channels_last_3d" or not unrestricted_rank)]
    if not combos:  # a restriction no layout fits: plain tensors of those ranks
        combos = [(d, "contiguous", r) for d in dtypes for r in ranks]
    rng.shuffle(combos)

    rg_opt = first.opt("requires_grad")
    float_ag = [(rg, k, g) for rg, k in AUTOGRAD for g in GRAD_MODES]
    plain_ag: List[Tuple[bool, str, str]] = [(rg, k, g) for rg, k in AUTOGRAD if not rg for g in GRAD_MODES]
    if rg_opt is not None:
        want = rg_opt.lower() in ("1", "true", "yes")
        float_ag = [c for c in float_ag if c[0] == want] or float_ag
        # Forced requires_grad applies to every dtype; integer cases then fail to
        # construct and are skipped.
        plain_ag = [c for c in plain_ag if c[0] == want] or list(float_ag)
    rng.shuffle(float_ag)
    rng.shuffle(plain_ag)

    cases: List[Case] = []
    fi = pi = 0
    for i, (dtype, layout, rank) in enumerate(combos):
        vals = values_for(i)
        if dtype in FLOAT_DTYPES:
            rg, kind, gmode = float_ag[fi % len(float_ag)]
            fi += 1
        else:
            rg, kind, gmode = plain_ag[pi % len(plain_ag)]
            pi += 1
        special = SPECIALS[(i // 5) % len(SPECIALS)] if i % 5 == 3 else ""
        empty = i % 6 == 2
        tensors: Dict[str, TensorCase] = {}
        shape_cache: Optional[Tuple[int, ...]] = None
        for j, name in enumerate(tensor_names):
            s = specs[name]
            if s.opt("shape"):
                shape = eval_shape(s.opt("shape") or "", vals)
            elif j == 0 or shape_cache is None:
                shape = _shape_for(rank, rng, layout, empty)
            else:
                shape = shape_cache
            if j == 0:
                shape_cache = shape
            n_layouts = (s.opt("layout") or "|".join(LAYOUTS)).split("|")
            lay = layout if j == 0 else n_layouts[(LAYOUTS.index(layout) + j) % len(n_layouts)] \
                if layout in LAYOUTS else layout
            dt = dtype
            if j > 0 and s.opt("dtype"):
                dt = s.opt("dtype").split("|")[i % len(s.opt("dtype").split("|"))]  # type: ignore[union-attr]  # tested
            elif j > 0 and i % 3 == 1:  # mixed dtypes across inputs
                dt = DTYPES[(DTYPES.index(dtype) + 5 * j) % len(DTYPES)] if dtype in DTYPES else dtype
            strides = eval_shape(s.opt("strides") or "", vals) if s.opt("strides") else None
            tensors[name] = TensorCase(dt, len(shape), "strided" if strides else lay, shape,
                                       rg and dt in FLOAT_DTYPES, kind, special=special, strides=strides)
        cases.append(Case(tensors, vals, gmode, len(cases), DEFAULT_DTYPES[i % 4 == 1]))

    # A few cases where several tensor inputs have different shapes / ranks, each within
    # what its own spec allows (its dtypes, layouts, ranks; a fixed shape or strides stay).
    if len(tensor_names) > 1:
        for i in range(12):
            vals = values_for(i)
            tensors = {}
            for name in tensor_names:
                s = specs[name]
                dts = tuple(s.opt("dtype").split("|")) if s.opt("dtype") else ("float32", "float64", "int64")  # type: ignore[union-attr]  # noqa: E501
                lays = tuple(s.opt("layout").split("|")) if s.opt("layout") else LAYOUTS  # type: ignore[union-attr]
                dt, lay, strides = rng.choice(dts), rng.choice(lays), None
                if s.opt("strides"):
                    shp = eval_shape(s.opt("shape") or "", vals)
                    lay, strides = "strided", eval_shape(s.opt("strides") or "", vals)
                elif s.opt("shape"):
                    shp = eval_shape(s.opt("shape") or "", vals)
                else:
                    shp = _shape_for(rng.choice(int_or_range(s.opt("rank"), ranks)), rng)
                rg = (s.opt("requires_grad") or "").lower() in ("1", "true", "yes")
                tensors[name] = TensorCase(dt, len(shp), lay, shp, rg and dt in FLOAT_DTYPES, strides=strides)
            cases.append(Case(tensors, vals, rng.choice(GRAD_MODES), len(cases)))

    if max_cases is not None and len(cases) > max_cases:
        cases = cases[:max_cases]
    return cases


def _special_values(dtype: torch.dtype, special: str) -> List[float]:
    info = torch.finfo(dtype)
    if special == "subnormal":
        return [info.tiny / 4, -info.tiny / 2, info.tiny * 0.75]
    if special == "large":
        return [info.max * 0.75, -info.max, info.max]
    return [float("nan"), float("inf"), -0.0, float("-inf")]


def _values(shape: Tuple[int, ...], dtype: torch.dtype, gen: torch.Generator, special: str) -> torch.Tensor:
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=gen).bool()
    if dtype == torch.uint8:
        return torch.randint(0, 256, shape, generator=gen).to(dtype)  # noqa: TRC112  (the same draws for every dtype)
    if not (dtype.is_floating_point or dtype.is_complex):
        return torch.randint(-50, 50, shape, generator=gen).to(dtype)  # noqa: TRC112  (the same draws for every dtype)
    if dtype.is_complex:
        t = torch.complex(torch.randn(shape, generator=gen), torch.randn(shape, generator=gen)).to(dtype)
    else:
        t = torch.randn(shape, generator=gen, dtype=torch.float64).to(dtype)
    if special and t.numel() >= 1:
        flat = t.view(-1)
        specials = _special_values(t.real.dtype if dtype.is_complex else dtype, special)
        for k in range(min(len(specials), flat.numel())):
            flat[k] = specials[k]
    return t


def _neg_view(t: torch.Tensor) -> torch.Tensor:
    """A tensor with the negative bit set; raises where its dtype has no negation (bool,
    float8), so that case counts as unsupported rather than failing inside a comparison."""
    view = torch._neg_view(t)
    view.resolve_neg()
    return view


def _layout(base_shape: Tuple[int, ...], layout: str, strides: Optional[Tuple[int, ...]] = None):
    """(storage shape, function from storage tensor to a tensor of ``base_shape``)."""
    shape = tuple(base_shape)
    r = len(shape)
    if layout == "strided" and strides is not None:
        span = 1 + sum((n - 1) * st for n, st in zip(shape, strides)) if 0 not in shape else 0
        return (span,), lambda t: t.as_strided(shape, strides)
    if layout == "transposed" and r >= 2:
        st = shape[:-2] + (shape[-1], shape[-2])
        return st, lambda t: t.transpose(-1, -2)
    if layout == "permuted" and r >= 2:
        perm = tuple(reversed(range(r)))
        st = tuple(shape[p] for p in perm)
        return st, lambda t: t.permute(*perm)  # reversed permutation is its own inverse
    if layout == "channels_last" and r == 4:
        n, c, h, w = shape
        return (n, h, w, c), lambda t: t.permute(0, 3, 1, 2)
    if layout == "channels_last_3d" and r == 5:
        n, c, d, h, w = shape
        return (n, d, h, w, c), lambda t: t.permute(0, 4, 1, 2, 3)
    if layout == "conj":
        return shape, lambda t: t.conj()
    if layout == "neg":
        return shape, _neg_view
    if layout == "sparse_coo" and r >= 1:
        return shape, lambda t: t.to_sparse()
    if layout == "sparse_csr" and r == 2:
        return shape, lambda t: t.to_sparse_csr()
    if layout == "expanded" and r >= 1:
        d = max(range(r), key=lambda i: shape[i])
        st = shape[:d] + (1,) + shape[d + 1:]
        return st, lambda t: t.expand(*shape)
    if layout == "stepped" and r >= 1:
        st = shape[:-1] + (2 * shape[-1],)
        return st, lambda t: t[..., ::2]
    if layout == "offset":
        if r == 0:
            return (2,), lambda t: t[1]
        st = (shape[0] + 1,) + shape[1:]
        return st, lambda t: t[1:]
    return shape, lambda t: t


def build_tensor(tc: TensorCase, device: str, gen: torch.Generator) -> torch.Tensor:
    dtype = getattr(torch, tc.dtype)
    storage_shape, view = _layout(tc.shape, tc.layout, tc.strides)
    data = _values(storage_shape, dtype, gen, tc.special).to(device)
    if tc.kind == "inference":
        with torch.inference_mode():
            return view(data.clone())
    if tc.kind == "param":
        return torch.nn.Parameter(view(data), requires_grad=tc.requires_grad)
    if not tc.requires_grad:
        return view(data)
    if tc.kind == "nonleaf":
        leaf = data.requires_grad_(True)
        with torch.enable_grad():
            out = view(leaf)
            if out._base is None and out is leaf:
                out = leaf.view(leaf.shape)
        out.retain_grad()
        return out
    return view(data).detach().requires_grad_(True)


def build_inputs(case: Case, device: str, seed: int) -> Dict[str, Any]:
    """Fresh inputs for one case; raises when the case cannot be constructed."""
    gen = torch.Generator().manual_seed(seed * 1_000_003 + case.index)
    out: Dict[str, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sparse CSR's "beta state" warning
        for name, tc in case.tensors.items():
            out[name] = build_tensor(tc, device, gen)
    out.update(case.values)
    return out
