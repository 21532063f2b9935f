"""Equivalence: run an expression on fresh inputs and compare everything observable.

:func:`observe` evaluates one expression on one case and records an
:class:`Observation`; :func:`compare` says whether two observations agree,
whether the second is an improvement (the first raised or warned where the
second does not), or names the first property that differs.
"""
from __future__ import annotations

import contextlib
import random
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import torch

# Deciding properties, in the order a mismatch is reported.
PROPERTIES: Tuple[str, ...] = (
    "exception", "type", "dtype", "device", "shape", "layout", "values", "strides", "memory_format",
    "conj_neg", "requires_grad", "is_leaf", "grad_fn", "is_inference", "identity", "aliasing",
    "output_aliasing", "version_counter", "inputs_after", "grads", "warnings",
)


# Warnings torch emits for the synthesized inputs themselves, not for what an expression does.
NOISE_WARNINGS: Tuple[str, ...] = ("Sparse CSR tensor support is in beta state",)


@dataclass
class Observation:
    exception: Optional[str] = None  # exception type name
    message: str = ""
    props: Dict[str, Any] = field(default_factory=dict)
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


def _strides(t: torch.Tensor) -> Optional[Tuple[Tuple[int, ...], int]]:
    """Strides of the dims that have more than one element, and the storage offset: what
    decides later ``.view()`` calls and memory access.  None for non-strided layouts and
    empty tensors (no element is ever addressed)."""
    if t.layout != torch.strided or t.numel() == 0:
        return None
    return tuple(st for st, n in zip(t.stride(), t.shape) if n > 1), t.storage_offset()


def _memory_formats(t: torch.Tensor) -> Tuple[str, ...]:
    if t.layout != torch.strided:
        return ()
    formats = (("contiguous", torch.contiguous_format), ("channels_last", torch.channels_last),
               ("channels_last_3d", torch.channels_last_3d))
    return tuple(name for name, fmt in formats
                 if (t.dim() == 4 or fmt != torch.channels_last)
                 and (t.dim() == 5 or fmt != torch.channels_last_3d)
                 and t.is_contiguous(memory_format=fmt))


def _output_aliasing(tensors: List[torch.Tensor]) -> List[Tuple[int, int, str]]:
    """Pairs of outputs that are one object, or share memory."""
    out = []
    for j, a in enumerate(tensors):
        for k in range(j + 1, len(tensors)):
            b = tensors[k]
            if a is b:
                out.append((j, k, "same object"))
            elif _overlap(_span(a), _span(b)):
                out.append((j, k, "shared memory"))
    return out


def _shared_versions(t: torch.Tensor, inputs: Dict[str, Any], names: List[str]) -> Tuple[str, ...]:
    """The inputs whose version counter ``t`` shares (autograd sees in-place writes to one
    as writes to the other).  Tested by moving each input's counter and watching ``t``'s."""
    if t.is_inference() or t.layout != torch.strided:
        return ()
    shared = []
    for n in names:
        x = inputs[n]
        if x.is_inference() or x.layout != torch.strided:
            continue
        before, mine = t._version, x._version
        torch._C._autograd._unsafe_set_version_counter((x,), (mine + 1000,))
        if t._version != before:
            shared.append(n)
        torch._C._autograd._unsafe_set_version_counter((x,), (mine,))
    return tuple(shared)


def _detached_copy(t: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        return t.detach().clone()


_BITS = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def _plain(t: torch.Tensor) -> torch.Tensor:
    """A dense, contiguous CPU copy with conj/neg bits resolved (for value comparison)."""
    t = t.detach()
    if t.layout != torch.strided:
        t = t.to_dense()
    return t.resolve_conj().resolve_neg().cpu().contiguous()


def tensors_equal(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bit-for-bit value equality (NaN equals NaN of the same bits); shapes and dtypes must
    match.  Sparse tensors compare by their dense values (the layout is its own property)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    a, b = _plain(a), _plain(b)
    if a.is_complex():
        a, b = torch.view_as_real(a), torch.view_as_real(b)
    if a.dtype.is_floating_point:
        bits = _BITS[a.element_size()]
        return torch.equal(a.view(bits), b.view(bits))
    return torch.equal(a, b)


def _desc_tensor(t: torch.Tensor) -> str:
    with torch.no_grad():
        flat = _plain(t).reshape(-1)[:6].to(torch.float64 if t.element_size() == 1 and
                                              t.dtype.is_floating_point else t.dtype).tolist()
    more = "..." if t.numel() > 6 else ""
    return f"tensor({flat}{more}, dtype={t.dtype}, shape={list(t.shape)})"


def seed_everything(seed: int) -> None:
    """The same random state before each side: torch, Python's random, numpy."""
    torch.manual_seed(seed)
    random.seed(seed)
    try:
        import numpy

        numpy.random.seed(seed % 2**32)
    except ImportError:  # pragma: no cover - numpy is optional
        pass


@contextlib.contextmanager
def default_dtype(name: str):
    old = torch.get_default_dtype()
    torch.set_default_dtype(getattr(torch, name))
    try:
        yield
    finally:
        torch.set_default_dtype(old)


def observe(code, env: Dict[str, Any], grad_mode: str, weight_seed: int,
            dtype_default: str = "float32") -> Observation:
    """Evaluate compiled ``code`` with ``env`` (the inputs plus globals) and record everything.

    The random state is seeded with ``weight_seed`` first and the default dtype set to
    ``dtype_default`` while the expression runs, so both sides see the same."""
    obs = Observation()
    inputs = {k: v for k, v in env.items() if isinstance(v, torch.Tensor) and not k.startswith("__")}
    input_names = [k for k in env.get("__input_names__", ()) if k in inputs]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            seed_everything(weight_seed)
            with _mode(grad_mode), default_dtype(dtype_default):
                result = eval(code, env)  # noqa: S307 - the user's own expression
        except Exception as exc:  # noqa: BLE001
            obs.exception = type(exc).__name__
            obs.message = str(exc).splitlines()[0][:200] if str(exc) else ""
            result = None
    obs.warnings = [(w.category.__name__, str(w.message)) for w in caught
                    if not str(w.message).startswith(NOISE_WARNINGS)]
    if obs.exception is not None:
        return obs

    leaves: List[Any] = []
    _flatten(result, leaves)
    spans = {n: _span(inputs[n]) for n in input_names}
    tensors = [x for x in leaves if isinstance(x, torch.Tensor)]
    p = obs.props
    p["type"] = repr(type(result).__name__) + "/" + ",".join(type(x).__name__ for x in leaves)
    p.update(
        dtype=[str(x.dtype) for x in tensors],
        device=[str(x.device) for x in tensors],
        shape=[tuple(x.shape) for x in tensors],
        layout=[str(x.layout) for x in tensors],
        strides=[_strides(x) for x in tensors],
        memory_format=[_memory_formats(x) for x in tensors],
        conj_neg=[(x.is_conj(), x.is_neg()) for x in tensors],
        requires_grad=[x.requires_grad for x in tensors],
        is_leaf=[x.is_leaf for x in tensors],
        grad_fn=[x.grad_fn is not None for x in tensors],
        is_inference=[x.is_inference() for x in tensors],
        identity=[tuple(n for n in input_names if x is inputs[n]) for x in tensors],
        aliasing=[tuple(n for n in input_names if _overlap(_span(x), spans[n])) for x in tensors],
        output_aliasing=_output_aliasing(tensors),
        version_counter=[_shared_versions(x, inputs, input_names) for x in tensors],
    )
    for x in leaves:
        if isinstance(x, torch.Tensor):
            obs.tensors.append(_detached_copy(x) if not x.is_inference() else x.detach().clone())
        else:
            try:
                obs.tensors.append(repr(x))
            except Exception:  # noqa: BLE001
                obs.tensors.append(type(x).__name__)

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


def _only_before_failed_backward(before: Dict[str, Any], after: Dict[str, Any]) -> bool:
    return "<backward>" in before and "<backward>" not in after


def compare(before: Observation, after: Observation) -> Tuple[str, List[Tuple[str, str, str]]]:
    """``("equal" | "improved" | "both_raised" | "mismatch", differing properties)``.

    The first differing property is the one to report.  "improved": the original raised
    (in the expression or in backward) or warned where the rewrite did not, all else equal.
    "both_raised" carries the two exceptions (their types may differ: both reject the input).
    """
    if before.exception is not None or after.exception is not None:
        if before.exception is not None and after.exception is not None:
            return "both_raised", [("exception", f"{before.exception}: {before.message}",
                                    f"{after.exception}: {after.message}")]
        if before.exception is not None:
            return "improved", [("exception", f"{before.exception}: {before.message}", "no exception")]
        return "mismatch", [("exception", "no exception", f"{after.exception}: {after.message}")]
    diffs = differences(before, after)
    if not diffs:
        return "equal", []
    if [d[0] for d in diffs] == ["warnings"] and _fewer_warnings(before.warnings, after.warnings):
        return "improved", diffs
    if [d[0] for d in diffs] == ["grads"] and _only_before_failed_backward(before.grads, after.grads):
        return "improved", [("backward", f"{before.grads['<backward>']} in backward", "no exception")]
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
