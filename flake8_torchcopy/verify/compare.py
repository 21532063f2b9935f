"""Equivalence: run an expression on fresh inputs and compare everything observable.

:func:`observe` evaluates one expression on one case and records an
:class:`Observation`; :func:`compare` says whether two observations agree,
whether the second is an improvement (the first raised or warned where the
second does not), or names the first property that differs.
"""
from __future__ import annotations

import contextlib
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import torch

# Deciding properties, in the order a mismatch is reported.
PROPERTIES: Tuple[str, ...] = (
    "exception", "type", "dtype", "device", "shape", "values", "requires_grad", "is_leaf",
    "grad_fn", "is_inference", "aliasing", "inputs_after", "grads", "warnings",
)


@dataclass
class Observation:
    exception: Optional[str] = None  # exception type name
    message: str = ""
    props: Dict[str, Any] = field(default_factory=dict)
    info: Dict[str, Any] = field(default_factory=dict)  # reported, never deciding (strides)
    warnings: List[Tuple[str, str]] = field(default_factory=list)
    tensors: List[Any] = field(default_factory=list)  # output leaves (for value compare)
    grads: Dict[str, Any] = field(default_factory=dict)
    inputs_after: Dict[str, Any] = field(default_factory=dict)


def _mode(name: str):
    if name == "no_grad":
        return torch.no_grad()
    if name == "inference":
        return torch.inference_mode()
    return torch.enable_grad()


def _flatten(obj: Any, out: List[Any]) -> None:
    if isinstance(obj, (list, tuple)):
        for o in obj:
            _flatten(o, out)
    elif isinstance(obj, dict):
        for k in sorted(obj, key=repr):
            _flatten(obj[k], out)
    else:
        out.append(obj)


def _span(t: torch.Tensor) -> Optional[Tuple[int, int]]:
    try:
        st = t.untyped_storage()
        n = st.nbytes()
        p = st.data_ptr()
    except Exception:  # noqa: BLE001 - sparse / meta / inference edge cases
        return None
    if n == 0 or p == 0:
        return None
    return (p, p + n)


def _overlap(a: Optional[Tuple[int, int]], b: Optional[Tuple[int, int]]) -> bool:
    return a is not None and b is not None and a[0] < b[1] and b[0] < a[1]


def _detached_copy(t: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        return t.detach().clone()


def tensors_equal(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bit-for-bit value equality (NaN equals NaN of the same bits); shapes must match."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    a = a.detach().cpu().contiguous()
    b = b.detach().cpu().contiguous()
    if a.is_complex():
        a, b = torch.view_as_real(a), torch.view_as_real(b)
    if a.dtype.is_floating_point:
        bits = {2: torch.int16, 4: torch.int32, 8: torch.int64}[a.element_size()]
        return torch.equal(a.view(bits), b.view(bits))
    return torch.equal(a, b)


def _desc_tensor(t: torch.Tensor) -> str:
    with torch.no_grad():
        flat = t.detach().reshape(-1)[:6].cpu().tolist()
    more = "..." if t.numel() > 6 else ""
    return f"tensor({flat}{more}, dtype={t.dtype}, shape={list(t.shape)})"


def observe(code, env: Dict[str, Any], grad_mode: str, weight_seed: int) -> Observation:
    """Evaluate compiled ``code`` with ``env`` (the inputs plus globals) and record everything."""
    obs = Observation()
    inputs = {k: v for k, v in env.items() if isinstance(v, torch.Tensor) and not k.startswith("__")}
    input_names = [k for k in env.get("__input_names__", ()) if k in inputs]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with _mode(grad_mode):
                result = eval(code, env)  # noqa: S307 - the user's own expression
        except Exception as exc:  # noqa: BLE001
            obs.exception = type(exc).__name__
            obs.message = str(exc).splitlines()[0][:200] if str(exc) else ""
            result = None
    obs.warnings = [(w.category.__name__, str(w.message)) for w in caught]
    if obs.exception is not None:
        return obs

    leaves: List[Any] = []
    _flatten(result, leaves)
    spans = {n: _span(inputs[n]) for n in input_names}
    p = obs.props
    p["type"] = repr(type(result).__name__) + "/" + ",".join(type(x).__name__ for x in leaves)
    dt, dev, shp, rg, leaf, gfn, inf, alias, strides = [], [], [], [], [], [], [], [], []
    for x in leaves:
        if isinstance(x, torch.Tensor):
            dt.append(str(x.dtype))
            dev.append(str(x.device))
            shp.append(tuple(x.shape))
            rg.append(x.requires_grad)
            leaf.append(x.is_leaf)
            gfn.append(x.grad_fn is not None)
            inf.append(x.is_inference())
            sp = _span(x)
            alias.append(tuple(n for n in input_names if _overlap(sp, spans[n])))
            strides.append((tuple(x.stride()), x.storage_offset(), x.is_contiguous()))
            obs.tensors.append(_detached_copy(x) if not x.is_inference() else x.detach().clone())
        else:
            try:
                obs.tensors.append(repr(x))
            except Exception:  # noqa: BLE001
                obs.tensors.append(type(x).__name__)
    p.update(dtype=dt, device=dev, shape=shp, requires_grad=rg, is_leaf=leaf, grad_fn=gfn,
             is_inference=inf, aliasing=alias)
    obs.info["strides(stride, offset, contiguous)"] = strides

    # Gradients: backward of a fixed random weighting of every output that has a graph.
    outs = [x for x in leaves if isinstance(x, torch.Tensor) and x.requires_grad]
    if outs and any(inputs[n].requires_grad for n in input_names):
        gen = torch.Generator().manual_seed(weight_seed)
        weights = []
        for x in outs:
            w = torch.randn(tuple(x.shape), generator=gen, dtype=torch.float64)
            if x.is_complex():
                w = torch.complex(w, torch.randn(tuple(x.shape), generator=gen, dtype=torch.float64))
            weights.append(w.to(dtype=x.dtype, device=x.device))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                torch.autograd.backward(outs, weights)
            for n in input_names:
                g = inputs[n].grad
                obs.grads[n] = None if g is None else g.detach().clone()
        except Exception as exc:  # noqa: BLE001
            obs.grads["<backward>"] = type(exc).__name__
    for n in input_names:
        t = inputs[n]
        try:
            obs.inputs_after[n] = t.detach().clone()
        except Exception:  # noqa: BLE001
            obs.inputs_after[n] = None
    return obs


def _eq(a: Any, b: Any) -> bool:
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return tensors_equal(a, b)
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return False
    return a == b


def _show(v: Any) -> str:
    if isinstance(v, torch.Tensor):
        return _desc_tensor(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_show(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    s = repr(v)
    return s if len(s) < 400 else s[:400] + "..."


def _map_eq(a: Dict[str, Any], b: Dict[str, Any]) -> bool:
    return a.keys() == b.keys() and all(_eq(a[k], b[k]) for k in a)


def differences(before: Observation, after: Observation) -> List[Tuple[str, str, str]]:
    """Every deciding property that differs, in report order (both ran)."""
    out: List[Tuple[str, str, str]] = []
    for prop in PROPERTIES[1:]:
        if prop == "values":
            a, b = before.tensors, after.tensors
            same = len(a) == len(b) and all(_eq(x, y) for x, y in zip(a, b))
        elif prop == "grads":
            a, b = before.grads, after.grads
            same = _map_eq(a, b)
        elif prop == "inputs_after":
            a, b = before.inputs_after, after.inputs_after
            same = _map_eq(a, b)
        elif prop == "warnings":
            a, b = before.warnings, after.warnings
            same = a == b
        else:
            a, b = before.props.get(prop), after.props.get(prop)
            same = a == b
        if not same:
            out.append((prop, _show(a), _show(b)))
    return out


def _fewer_warnings(before: List[Tuple[str, str]], after: List[Tuple[str, str]]) -> bool:
    rest = list(before)
    for w in after:
        if w not in rest:
            return False
        rest.remove(w)
    return bool(rest)


def compare(before: Observation, after: Observation) -> Tuple[str, List[Tuple[str, str, str]]]:
    """``("equal" | "improved" | "both_raised" | "mismatch", differing properties)``.

    The first differing property is the one to report.
    """
    if before.exception is not None or after.exception is not None:
        if before.exception is not None and after.exception is not None:
            if before.exception == after.exception:
                return "both_raised", []
            return "mismatch", [("exception", f"{before.exception}: {before.message}",
                                 f"{after.exception}: {after.message}")]
        if before.exception is not None:
            return "improved", [("exception", f"{before.exception}: {before.message}", "no exception")]
        return "mismatch", [("exception", "no exception", f"{after.exception}: {after.message}")]
    diffs = differences(before, after)
    if not diffs:
        return "equal", []
    if [d[0] for d in diffs] == ["warnings"] and _fewer_warnings(before.warnings, after.warnings):
        return "improved", diffs
    return "mismatch", diffs


@contextlib.contextmanager
def warn_always():
    """Make torch's warn-once warnings fire on every call, so order cannot hide one."""
    old = torch.is_warn_always_enabled()
    torch.set_warn_always(True)
    try:
        yield
    finally:
        torch.set_warn_always(old)
