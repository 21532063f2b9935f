"""Observation: run an expression on fresh inputs and record everything observable.

:func:`observe` evaluates one expression on one case (under a grad mode, with every
random generator seeded and warnings caught, :func:`warn_always` making warn-once
warnings fire) and records an :class:`Observation`: the exception or the result's
properties (type, dtype, device, shape, strides, memory format, autograd facts, aliasing
of inputs and outputs, version counters), the inputs after the call, gradients, warnings
and global state (random generators, grad mode, default dtype and device, printed output:
see :mod:`.state`).  Comparing two observations is :mod:`.compare`'s.
"""
from __future__ import annotations

import contextlib
import io
import random
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import torch

from . import state as _state

# Warnings torch emits for the synthesized inputs themselves, not for what an expression does.
NOISE_WARNINGS: Tuple[str, ...] = ("Sparse CSR tensor support is in beta state",)


@dataclass
class Observation:
    exception: Optional[str] = None  # exception type name
    message: str = ""  # its first line, shortened (for reports)
    exc_type: Optional[type] = None
    full_message: str = ""
    backward_error: Optional[Tuple[type, str]] = None  # type and message of an error in backward
    state: Dict[str, Any] = field(default_factory=dict)  # global state after the expression
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
    return tuple(st for st, n in zip(t.stride(), t.shape) if n > 1), int(t.storage_offset())


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


_SEEDED: Dict[int, Dict[str, str]] = {}  # seed -> the generators' digests right after seeding


def _seeded_rng(seed: int) -> Dict[str, str]:
    """The digests of the generators as :func:`seed_everything` just left them (the same for
    both sides of a case: computed once)."""
    if seed not in _SEEDED:
        if len(_SEEDED) > 4:
            _SEEDED.clear()
        _SEEDED[seed] = _state.rng_fingerprint(_state.capture()["rng"])
    return _SEEDED[seed]


def _state_after(seeded: Dict[str, str], out: str, err: str) -> Dict[str, Any]:
    """The global state now, per deciding property; a generator's state as "as seeded"
    when the expression left it as it found it (else its digest)."""
    now = _state.fingerprint(_state.capture())
    now["rng_state"] = {k: "as seeded" if v == seeded.get(k) else f"changed ({v})"
                        for k, v in now["rng_state"].items()}
    now["stdout"], now["stderr"] = out, err
    return now


def observe(code, env: Dict[str, Any], grad_mode: str, weight_seed: int,
            dtype_default: str = "float32") -> Observation:
    """Evaluate compiled ``code`` with ``env`` (the inputs plus globals) and record everything.

    The random state is seeded with ``weight_seed`` first and the default dtype set to
    ``dtype_default`` while the expression runs, so both sides start from the same state;
    what the expression prints is captured, and the global state after it is recorded
    (``Observation.state``) and then put back as it was before the call (the random
    generators are left seeded, as the next call seeds them again)."""
    obs = Observation()
    inputs = {k: v for k, v in env.items() if isinstance(v, torch.Tensor) and not k.startswith("__")}
    input_names = [k for k in env.get("__input_names__", ()) if k in inputs]
    entry = _state.capture(rng=False)
    try:
        result = _run(code, env, grad_mode, weight_seed, dtype_default, obs)
    finally:
        _state.restore(entry)
    if obs.exception is not None:
        return obs
    try:
        _record(obs, result, inputs, input_names, weight_seed)
    finally:
        _state.restore(entry)
    return obs


def _run(code, env: Dict[str, Any], grad_mode: str, weight_seed: int, dtype_default: str,
         obs: Observation) -> Any:
    """Evaluate the expression under the case's modes; exceptions, warnings, printed output
    and the global state after it go into ``obs``."""
    out, err = io.StringIO(), io.StringIO()
    result = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seed_everything(weight_seed)
        seeded = _seeded_rng(weight_seed)
        with _mode(grad_mode), default_dtype(dtype_default):
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    result = eval(code, env)  # noqa: S307 - the user's own expression
            except Exception as exc:  # noqa: BLE001
                obs.exception = type(exc).__name__
                obs.exc_type = type(exc)
                obs.full_message = str(exc)
                obs.message = str(exc).splitlines()[0][:200] if str(exc) else ""
            obs.state = _state_after(seeded, out.getvalue(), err.getvalue())
    obs.warnings = [(w.category.__name__, str(w.message)) for w in caught
                    if not str(w.message).startswith(NOISE_WARNINGS)]
    return result


def _record(obs: Observation, result: Any, inputs: Dict[str, Any], input_names: List[str],
            weight_seed: int) -> None:
    """The properties of a result, its gradients and the inputs afterwards."""
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
            obs.backward_error = (type(exc), str(exc))
    for n in input_names:
        t = inputs[n]
        try:
            obs.inputs_after[n] = t.detach().clone()
        except Exception:  # noqa: BLE001
            obs.inputs_after[n] = None


@contextlib.contextmanager
def warn_always():
    """Make torch's warn-once warnings fire on every call, so order cannot hide one."""
    old = torch.is_warn_always_enabled()
    torch.set_warn_always(True)
    try:
        yield
    finally:
        torch.set_warn_always(old)
