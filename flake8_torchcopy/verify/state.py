"""Process-wide state an expression can change: random generators, grad mode, default
dtype and device, the deterministic-algorithms flag and a few other torch switches.

:func:`capture` takes what :func:`restore` puts back; :func:`fingerprint` turns it into
comparable text per deciding property (a generator's state by a digest), so a rewrite that
draws a random number, reseeds, turns grad off or changes the default dtype differs from
one that does not.  Output to ``sys.stdout``/``sys.stderr`` is captured separately (see
:func:`.observe.observe`).
"""
from __future__ import annotations

import hashlib
import random
from typing import Any, Dict, Tuple

import torch

try:  # numpy is optional
    import numpy
except ImportError:  # pragma: no cover
    numpy = None  # type: ignore[assignment]

# Deciding properties of the global state, in the order a mismatch is reported.
STATE_PROPERTIES: Tuple[str, ...] = (
    "rng_state", "grad_mode", "default_dtype", "default_device", "deterministic_algorithms",
    "torch_flags", "stdout", "stderr",
)

WHAT_CHANGES = {
    "rng_state": "a random generator's state (a random draw or a reseed)",
    "grad_mode": "grad mode",
    "default_dtype": "torch's default dtype",
    "default_device": "torch's default device",
    "deterministic_algorithms": "the deterministic-algorithms setting",
    "torch_flags": "a torch setting",
    "stdout": "what is printed to stdout",
    "stderr": "what is printed to stderr",
}


def _digest(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()[:12]


def _cuda_ready() -> bool:
    try:
        return torch.cuda.is_available()
    except Exception:  # noqa: BLE001 - a broken driver is no device
        return False


def _device_context() -> Any:
    holder = getattr(torch, "_GLOBAL_DEVICE_CONTEXT", None)
    return getattr(holder, "device_context", None) if holder is not None else None


def _default_device() -> str:
    get = getattr(torch, "get_default_device", None)
    try:
        return str(get()) if get is not None else "cpu"
    except Exception:  # noqa: BLE001
        return "?"


def _flags() -> Dict[str, Any]:
    cudnn = torch.backends.cudnn
    return {
        "anomaly_detection": torch.is_anomaly_enabled(),
        "warn_always": torch.is_warn_always_enabled(),
        "float32_matmul_precision": torch.get_float32_matmul_precision(),
        "num_threads": torch.get_num_threads(),
        "cudnn.benchmark": bool(cudnn.benchmark),
        "cudnn.deterministic": bool(cudnn.deterministic),
    }


def capture(rng: bool = True) -> Dict[str, Any]:
    """Everything :func:`restore` needs, as it is now (without the random generators when
    ``rng`` is False: reading numpy's costs most)."""
    raw: Dict[str, Any] = {
        "grad_enabled": torch.is_grad_enabled(),
        "inference_mode": torch.is_inference_mode_enabled(),
        "default_dtype": torch.get_default_dtype(),
        "device_context": _device_context(),
        "default_device": _default_device(),
        "deterministic": (torch.are_deterministic_algorithms_enabled(),
                          torch.is_deterministic_algorithms_warn_only_enabled()),
        "flags": _flags(),
    }
    if rng:
        raw["rng"] = {
            "torch": torch.get_rng_state(),
            "cuda": torch.cuda.get_rng_state_all() if _cuda_ready() else None,
            "random": random.getstate(),
            "numpy": numpy.random.get_state() if numpy is not None else None,
        }
    return raw


def rng_fingerprint(rng: Dict[str, Any]) -> Dict[str, str]:
    """A digest per random generator."""
    out = {"torch": _digest(rng["torch"].numpy().tobytes()),
           "random": _digest(repr(hash(rng["random"])).encode())}
    if rng["cuda"] is not None:
        out["cuda"] = _digest(b"".join(s.numpy().tobytes() for s in rng["cuda"]))
    if rng["numpy"] is not None:
        st = rng["numpy"]
        out["numpy"] = _digest(repr((st[0], st[2], st[3], st[4])).encode() + st[1].tobytes())
    return out


def fingerprint(raw: Dict[str, Any]) -> Dict[str, Any]:
    """Comparable values per state property (not stdout/stderr)."""
    out: Dict[str, Any] = {
        "grad_mode": {"grad_enabled": raw["grad_enabled"], "inference_mode": raw["inference_mode"]},
        "default_dtype": str(raw["default_dtype"]),
        "default_device": raw["default_device"],
        "deterministic_algorithms": {"enabled": raw["deterministic"][0], "warn_only": raw["deterministic"][1]},
        "torch_flags": dict(raw["flags"]),
    }
    if "rng" in raw:
        out["rng_state"] = rng_fingerprint(raw["rng"])
    return out


def restore(raw: Dict[str, Any]) -> None:
    """Put back what :func:`capture` took (inference mode belongs to the context manager
    that set it: an expression cannot leave one)."""
    rng = raw.get("rng")
    if rng is not None:
        torch.set_rng_state(rng["torch"])
        if rng["cuda"] is not None:
            torch.cuda.set_rng_state_all(rng["cuda"])
        random.setstate(rng["random"])
        if rng["numpy"] is not None:
            numpy.random.set_state(rng["numpy"])
    torch.set_grad_enabled(raw["grad_enabled"])
    if torch.get_default_dtype() != raw["default_dtype"]:
        torch.set_default_dtype(raw["default_dtype"])
    if _device_context() is not raw["device_context"] or _default_device() != raw["default_device"]:
        if hasattr(torch, "set_default_device"):
            torch.set_default_device(None if raw["device_context"] is None else raw["default_device"])
    if (torch.are_deterministic_algorithms_enabled(),
            torch.is_deterministic_algorithms_warn_only_enabled()) != raw["deterministic"]:
        torch.use_deterministic_algorithms(raw["deterministic"][0], warn_only=raw["deterministic"][1])
    flags = raw["flags"]
    if _flags() != flags:
        torch.set_anomaly_enabled(flags["anomaly_detection"])
        torch.set_warn_always(flags["warn_always"])
        torch.set_float32_matmul_precision(flags["float32_matmul_precision"])
        if torch.get_num_threads() != flags["num_threads"]:
            torch.set_num_threads(flags["num_threads"])
        torch.backends.cudnn.benchmark = flags["cudnn.benchmark"]
        torch.backends.cudnn.deterministic = flags["cudnn.deterministic"]
