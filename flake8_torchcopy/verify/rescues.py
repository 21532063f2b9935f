"""The errors a rewrite may remove: where the original raises one of them and the rewrite
returns a value, the case counts as an improvement; any other error of the original turned
into a value is a change of behaviour (a mismatch).

Each rule names the errors it exists to remove (TRC201: the ``RuntimeError`` of a ``.view()``
whose size is not compatible with the input's size and stride; TRC101/TRC102: the
``RuntimeError`` of copy-constructing from a tensor whose dispatch keys name no single
layout or device; TRC104: the ``RuntimeError`` of ``copy_``'s backward into another layout;
TRC107: the errors of ``.numpy()``).  A rewrite whose rule is not known
(``--before``/``--after`` given by hand) may only remove the ``.view()`` error.  The
exception type must be exactly the one named (a subclass is another error), its message
must match, and a rescue of the backward pass only counts there.

Both sides raising different exception types is a change of behaviour, except for the
pairs in :data:`RULE_TYPE_CHANGES` (TRC201: ``view`` and ``reshape`` both refuse a
non-strided layout, with a ``NotImplementedError`` and a ``RuntimeError``): such a case is
counted as rejected by both versions, with a note.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Optional, Tuple


@dataclass(frozen=True)
class Rescue:
    """An error, by exact type and a pattern searched (case-insensitively) in its message."""

    exc_type: type
    pattern: str
    what: str
    backward_only: bool = False  # an error of the backward pass, never of the expression

    def matches(self, exc_type: Optional[type], message: str, in_backward: bool = False) -> bool:
        if self.backward_only and not in_backward:
            return False
        return exc_type is self.exc_type and re.search(self.pattern, message, re.IGNORECASE) is not None


@dataclass(frozen=True)
class TypeChange:
    """Both sides raise, with different exception types, for one reason: the original's
    error (``before``) and the rewrite's (``after``), each by exact type and pattern."""

    before: Rescue
    after: Rescue
    what: str

    def matches(self, before: Tuple[Optional[type], str], after: Tuple[Optional[type], str]) -> bool:
        return self.before.matches(*before) and self.after.matches(*after)


VIEW_INCOMPATIBLE = Rescue(
    RuntimeError, r"view size is not compatible with input tensor's size and stride|use \.reshape",
    "the RuntimeError of a .view() whose size is not compatible with the input's size and stride")
NUMPY_ERRORS: Tuple[Rescue, ...] = (
    Rescue(RuntimeError, r"can't call numpy\(\) on tensor that",
           "the RuntimeError of .numpy() on a tensor that requires grad or has its conj/neg bit set"),
    Rescue(TypeError, r"can't convert .* to numpy|got unsupported scalartype",
           "the TypeError of .numpy() on a CUDA or sparse tensor or a dtype numpy lacks"),
)

# ``x.new_tensor(t)`` / ``torch.tensor(t)`` take the layout and device of the new tensor from
# a tensor's dispatch keys; for a sparse CSR-family tensor or a conj/neg view there is no
# single one, and the copy-construction raises.  The rewrite (``t.detach()...``) copies
# without constructing from scratch: that is the error TRC101/TRC102 exist to remove.
COPY_CONSTRUCT_ERRORS: Tuple[Rescue, ...] = (
    Rescue(RuntimeError, r"^Cannot map DispatchKey Sparse(Csr|Bsr|Csc|Bsc)\w* to a unique layout",
           "the RuntimeError of copy-constructing from a sparse compressed (CSR...) tensor"),
    Rescue(RuntimeError, r"^DispatchKey (Negative|Conjugate) doesn't correspond to a device",
           "the RuntimeError of copy-constructing from a neg or conj view"),
)
# ``torch.empty_like(t).copy_(t)``: for a sparse ``t`` the backward of ``copy_`` converts the
# strided gradient to the source's layout and raises; ``t.clone()``'s backward does not.
COPY_BACKWARD_LAYOUT = Rescue(
    RuntimeError, r"^to\(options\) doesn't support converting to a different layout",
    "the RuntimeError of copy_'s backward converting a gradient to a sparse layout (in backward)",
    backward_only=True)

RULE_RESCUES: Dict[str, Tuple[Rescue, ...]] = {
    "TRC101": COPY_CONSTRUCT_ERRORS,
    "TRC102": COPY_CONSTRUCT_ERRORS,
    "TRC104": (COPY_BACKWARD_LAYOUT,),
    "TRC201": (VIEW_INCOMPATIBLE,),
    "TRC107": NUMPY_ERRORS,
}
UNKNOWN_RULE: Tuple[Rescue, ...] = (VIEW_INCOMPATIBLE,)

# Both raise on a non-strided layout, types differ: ``.view()`` has no kernel for a sparse
# backend (``NotImplementedError``), ``.reshape()`` refuses sparse input itself
# (``RuntimeError``).  The rewrite rejects exactly the inputs the original rejected.
VIEW_RESHAPE_SPARSE = TypeChange(
    Rescue(NotImplementedError,
           r"^Could not run 'aten::(_unsafe_)?view' with arguments from the 'Sparse\w*' backend", ".view()"),
    Rescue(RuntimeError,
           r"^(reshape is not implemented for sparse tensors"
           r"|Sparse (CSR|CSC|BSR|BSC) tensors do not have is_contiguous)", ".reshape()"),
    "both raise on a non-strided (sparse) layout, types differ: .view() a NotImplementedError, "
    ".reshape() a RuntimeError")

RULE_TYPE_CHANGES: Dict[str, Tuple[TypeChange, ...]] = {
    "TRC201": (VIEW_RESHAPE_SPARSE,),
}
# With no rule known, as for the rescues: what TRC201 (view -> reshape) allows.
UNKNOWN_RULE_TYPE_CHANGES: Tuple[TypeChange, ...] = (VIEW_RESHAPE_SPARSE,)


def rescues(rule: Optional[str]) -> Tuple[Rescue, ...]:
    """The errors a rewrite from ``rule`` may remove (None: the rule is not known)."""
    if rule is None:
        return UNKNOWN_RULE
    return RULE_RESCUES.get(rule.strip().upper(), ())


def is_rescue(rule: Optional[str], exc_type: Optional[type], message: str,
              in_backward: bool = False) -> bool:
    """Whether the original's error (raised in backward when ``in_backward``) is one the
    rewrite from ``rule`` may remove."""
    return any(r.matches(exc_type, message, in_backward) for r in rescues(rule))


def type_changes(rule: Optional[str]) -> Tuple[TypeChange, ...]:
    """The pairs of different errors both sides may raise for ``rule`` (None: not known)."""
    if rule is None:
        return UNKNOWN_RULE_TYPE_CHANGES
    return RULE_TYPE_CHANGES.get(rule.strip().upper(), ())


def accepted_type_change(rule: Optional[str], before: Tuple[Optional[type], str],
                         after: Tuple[Optional[type], str]) -> Optional[str]:
    """Why both sides raising these different errors is accepted for ``rule`` (each error
    as ``(type, message)``), or None: a mismatch."""
    for change in type_changes(rule):
        if change.matches(before, after):
            return change.what
    return None


def describe(rule: Optional[str]) -> str:
    """Which original errors count as removed, in words (for reports)."""
    allowed = rescues(rule)
    who = "with no rule named" if rule is None else f"for {rule}"
    if not allowed:
        return f"{who} no error of the original may be removed"
    return f"{who} only " + " or ".join(r.what for r in allowed) + " may be removed"
