"""Input SPECs: the vocabulary (dtypes, layouts) and the parsing of ``NAME=SPEC`` strings,
and the evaluation of the int expressions a SPEC may hold (shapes, strides, ``expr:``)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch

DTYPES: Tuple[str, ...] = tuple(d for d in (
    "float32", "float64", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2",
    "int64", "int32", "int16", "int8", "uint8", "bool", "complex64", "complex128",
) if isinstance(getattr(torch, d, None), torch.dtype))
FLOAT_DTYPES = frozenset(d for d in DTYPES if d.startswith(("float", "bfloat", "complex")))
COMPLEX_DTYPES = frozenset(d for d in DTYPES if d.startswith("complex"))
# A layout applies to the ranks listed (None: every rank) and, for conj, to complex dtypes only.
LAYOUT_RANKS: Dict[str, Optional[Tuple[int, ...]]] = {
    "contiguous": None, "transposed": (2, 3, 4), "permuted": (2, 3, 4), "channels_last": (4,),
    "channels_last_3d": (5,), "expanded": (1, 2, 3, 4), "stepped": (1, 2, 3, 4), "offset": None,
    "conj": None, "neg": None, "sparse_coo": (1, 2, 3), "sparse_csr": (2,),
}
LAYOUTS: Tuple[str, ...] = tuple(LAYOUT_RANKS)

IGNORED_NAMES = frozenset({"torch", "copy", "deepcopy", "np", "numpy", "math", "nn", "F"})


class SpecError(ValueError):
    """An input SPEC string that cannot be understood."""


@dataclass(frozen=True)
class InputSpec:
    """What kind of value an input name stands for.

    ``kind`` is one of ``tensor``, ``int``, ``float``, ``bool``, ``dtype``,
    ``value``.  Tensor options (all optional): ``rank`` (int or ``a..b``),
    ``dtype`` (``float32|float64``), ``layout``, ``requires_grad``, ``shape``
    (``[2,N,3]``; names refer to int inputs), ``strides`` (``[1,N]``, with ``shape``:
    the tensor is that strided view of a fresh buffer, and no other layout is tried).
    """

    kind: str = "tensor"
    options: Tuple[Tuple[str, str], ...] = ()
    low: float = 0
    high: float = 0
    choices: Tuple[str, ...] = ()
    text: str = "tensor"

    def opt(self, key: str, default: Optional[str] = None) -> Optional[str]:
        for k, v in self.options:
            if k == key:
                return v
        return default


def _split_top(text: str, sep: str = ",") -> List[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def _range(text: str, cast) -> Tuple[Any, Any]:
    if ".." in text:
        lo, hi = text.split("..", 1)
        return cast(lo), cast(hi)
    return cast(text), cast(text)


DTYPE_GROUPS = {
    "float": "float32|float64|float16|bfloat16",
    "floating": "float32|float64|float16|bfloat16",
    "int": "int64|int32|uint8",
    "integer": "int64|int32|uint8",
    "complex": "complex64",
}


def _bare_option(word: str) -> Tuple[str, str]:
    """``tensor:float`` / ``tensor:int64`` / ``tensor:transposed`` shorthands."""
    w = word.strip().lower()
    if w in DTYPE_GROUPS:
        return ("dtype", DTYPE_GROUPS[w])
    if w in DTYPES or isinstance(getattr(torch, w, None), torch.dtype):
        return ("dtype", w)
    if w in LAYOUTS:
        return ("layout", w)
    raise SpecError(f"tensor option {word!r}: want KEY=VALUE, a dtype (group) or a layout")


def parse_spec(spec: str) -> InputSpec:
    """Parse ``tensor:rank=3``, ``int:1..4``, ``float:0..1``, ``bool``, ``dtype:float32|int64``,
    ``value:PYTHON-EXPR``, ``expr:INT-EXPR-OF-OTHER-INPUTS`` (``expr:c // h``)."""
    spec = spec.strip()
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    try:
        if kind == "tensor":
            opts = []
            for part in _split_top(rest):
                if "=" not in part:
                    opts.append(_bare_option(part))
                    continue
                k, v = part.split("=", 1)
                k = k.strip()
                if k not in ("rank", "dtype", "layout", "requires_grad", "shape", "strides"):
                    raise SpecError(f"unknown tensor option {k!r}")
                opts.append((k, v.strip()))
            return InputSpec("tensor", tuple(opts), text=spec)
        if kind == "int":
            lo, hi = _range(rest or "1..4", int)
            return InputSpec("int", low=lo, high=hi, text=spec)
        if kind == "float":
            lo, hi = _range(rest or "0..1", float)
            return InputSpec("float", low=lo, high=hi, text=spec)
        if kind == "bool":
            return InputSpec("bool", text=spec)
        if kind == "dtype":
            names = tuple(n.strip() for n in (rest or "float32").split("|") if n.strip())
            for n in names:
                if not isinstance(getattr(torch, n, None), torch.dtype):
                    raise SpecError(f"unknown dtype {n!r}")
            return InputSpec("dtype", choices=names, text=spec)
        if kind == "value":
            if not rest:
                raise SpecError("value: needs a Python expression")
            return InputSpec("value", choices=(rest,), text=spec)
        if kind == "expr":
            if not rest:
                raise SpecError("expr: needs an int expression of other inputs")
            return InputSpec("expr", choices=(rest,), text=spec)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, SpecError):
            raise
        raise SpecError(f"bad SPEC {spec!r}: {exc}") from exc
    raise SpecError(f"unknown input kind {kind!r} in {spec!r}")


def int_or_range(text: Optional[str], default: Sequence[int]) -> Tuple[int, ...]:
    if text is None:
        return tuple(default)
    lo, hi = _range(text, int)
    return tuple(range(lo, hi + 1))


def with_exprs(specs: Dict[str, InputSpec], values: Dict[str, Any]) -> Dict[str, Any]:
    """``values`` plus the ``expr:`` inputs, computed from them (a zero divisor gives 0)."""
    out = dict(values)
    for n, s in specs.items():
        if s.kind == "expr":
            try:
                out[n] = int(eval(s.choices[0], {"__builtins__": {}}, dict(out)))  # noqa: S307
            except ZeroDivisionError:
                out[n] = 0
    return out


def eval_shape(text: str, values: Dict[str, Any]) -> Tuple[int, ...]:
    inner = text.strip()
    if inner[:1] + inner[-1:] in ("[]", "()"):
        inner = inner[1:-1]
    dims = []
    for part in _split_top(inner):
        try:
            dims.append(int(eval(part, {"__builtins__": {}}, dict(values))))  # noqa: S307
        except ZeroDivisionError:
            dims.append(0)
    return tuple(dims)


_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def parse_input_args(items: Sequence[str]) -> Dict[str, InputSpec]:
    """``["n=int:1..4", "x=tensor:rank=3"]`` -> specs."""
    out: Dict[str, InputSpec] = {}
    for item in items:
        name, sep, spec = item.partition("=")
        name = name.strip()
        if not sep or not _NAME_RE.match(name):
            raise SpecError(f"--input wants NAME=SPEC, got {item!r}")
        out[name] = parse_spec(spec)
    return out
