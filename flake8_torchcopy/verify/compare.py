"""Equivalence: compare two observations of an expression, property by property.

:func:`compare` says whether two observations (:class:`~.observe.Observation`, made
by :func:`.observe.observe`) agree, whether the second is an improvement (the first
raised an error the rule exists to remove, see :mod:`.rescues`, or warned, where the
second does not), or names the first property that differs.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import torch

from . import state as _state
from .observe import Observation
from .rescues import accepted_type_change, is_rescue
from .rescues import describe as describe_rescues

# Deciding properties, in the order a mismatch is reported.
PROPERTIES: Tuple[str, ...] = (
    "exception", "type", "dtype", "device", "shape", "layout", "values", "strides", "memory_format",
    "conj_neg", "requires_grad", "is_leaf", "grad_fn", "is_inference", "identity", "aliasing",
    "output_aliasing", "version_counter", "inputs_after", "grads", "warnings",
) + _state.STATE_PROPERTIES


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


