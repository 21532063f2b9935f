"""Equivalence: run an expression on fresh inputs and compare everything observable.

:func:`observe` evaluates one expression on one case and records an
:class:`Observation`, global state included (random generators, grad mode, default
dtype and device, printed output: see :mod:`.state`); :func:`compare` says whether two
observations agree, whether the second is an improvement (the first raised an error the
rule exists to remove, see :mod:`.rescues`, or warned, where the second does not), or
names the first property that differs.
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
from .rescues import accepted_type_change, is_rescue
from .rescues import describe as describe_rescues

# Deciding properties, in the order a mismatch is reported.
PROPERTIES: Tuple[str, ...] = (
    "exception", "type", "dtype", "device", "shape", "layout", "values", "strides", "memory_format",
    "conj_neg", "requires_grad", "is_leaf", "grad_fn", "is_inference", "identity", "aliasing",
    "output_aliasing", "version_counter", "inputs_after", "grads", "warnings",
) + _state.STATE_PROPERTIES


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
    a: Any
    b: Any
    for prop in PROPERTIES[1:]:
        if prop in _state.STATE_PROPERTIES:
            continue  # compared for every case, by state_differences
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


def state_differences(before: Observation, after: Observation) -> List[Tuple[str, str, str, str]]:
    """The global state after each side (both start from the same): random generators,
    grad mode, default dtype and device, deterministic algorithms, other torch settings,
    printed output.  Each difference is (property, before, after, why)."""
    out: List[Tuple[str, str, str, str]] = []
    for prop in _state.STATE_PROPERTIES:
        a, b = before.state.get(prop), after.state.get(prop)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            keys = [k for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)]
            a, b = ({k: d.get(k) for k in keys} for d in (a, b))
        out.append((prop, _show(a), _show(b),
                    f"changes global state: {_state.WHAT_CHANGES[prop]} differs after the rewrite"))
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


def _raised(obs: Observation) -> str:
    return f"{obs.exception}: {obs.message}" if obs.message else str(obs.exception)


def compare(before: Observation, after: Observation,
            rule: Optional[str] = None) -> Tuple[str, List[Tuple[str, ...]]]:
    """``("equal" | "improved" | "both_raised" | "mismatch", differing properties)``.

    Each difference is ``(property, before, after)``, or with a fourth item saying why it
    is a change of behaviour; the first one is the one to report.

    - The global state after each side (see :func:`state_differences`) must agree, in
      every case, whichever side raised.
    - Both raised: "both_raised" (the case is not compared) only when the exception types
      are the same; a different type is a mismatch, unless the pair of errors is one the
      ``rule`` accepts (see :func:`.rescues.accepted_type_change`: TRC201's ``view`` and
      ``reshape`` both refusing a sparse layout), when the "both_raised" difference carries
      a fourth item, the note saying why.  Messages are not compared otherwise (torch's
      name the operator, which a respelling changes).
    - Only the original raised, in the expression or in backward: "improved" only when its
      error is one the rewrite's ``rule`` exists to remove (``None``: the rule is not
      known; see :mod:`.rescues`); any other error turned into a value is a mismatch.
    - Both ran: "improved" when the rewrite only warns less, else equal or a mismatch.
    """
    state: List[Tuple[str, ...]] = list(state_differences(before, after))
    if before.exception is not None or after.exception is not None:
        if before.exception is not None and after.exception is not None:
            pair = ("exception", _raised(before), _raised(after))
            if before.exc_type is not after.exc_type:
                note = accepted_type_change(rule, (before.exc_type, before.full_message),
                                            (after.exc_type, after.full_message))
                if note is None:
                    why = (f"changes behaviour: the original raised {before.exception}, the rewrite "
                           f"{after.exception} (the exception types must be the same)")
                    return "mismatch", [pair + (why,)] + state
                if state:
                    return "mismatch", state
                return "both_raised", [pair + (note,)]
            if state:
                return "mismatch", state
            return "both_raised", [pair]
        if before.exception is not None:
            if not is_rescue(rule, before.exc_type, before.full_message):
                why = (f"changes behaviour: the original raised {before.exception}, the rewrite "
                       f"returns a value ({describe_rescues(rule)})")
                return "mismatch", [("exception", _raised(before), "returns a value", why)] + state
            if state:
                return "mismatch", state
            return "improved", [("exception", _raised(before), "no exception")]
        return "mismatch", [("exception", "no exception", _raised(after))] + state
    diffs: List[Tuple[str, ...]] = list(differences(before, after))
    if [d[0] for d in diffs] == ["grads"] and _only_before_failed_backward(before.grads, after.grads):
        exc_type, message = before.backward_error or (None, "")
        name = before.grads["<backward>"]
        if not state and is_rescue(rule, exc_type, message, in_backward=True):
            return "improved", [("backward", f"{name} in backward", "no exception")]
        why = (f"changes behaviour: the original's backward raised {name}, the rewrite's "
               f"returns gradients ({describe_rescues(rule)})")
        shown = f"{name} in backward: {message.splitlines()[0][:200] if message else ''}"
        return "mismatch", [("backward", shown, "gradients", why)] + state
    diffs += state
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
