"""Timing: before against after with ``torch.utils.benchmark.Timer``, and a log-log plot.

For each device, size and requires_grad setting both expressions run on the
same contiguous float32 inputs; medians of ``blocked_autorange`` are kept with
their ratio (before / after, above 1 means the rewrite is faster).  On CUDA the
statement synchronises and the peak extra memory of one call is recorded.
"""
from __future__ import annotations

import math
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch
import torch.utils.benchmark as benchmark

from .inputs import InputSpec, bench_inputs

DEFAULT_SIZES: Tuple[int, ...] = tuple(2 ** k for k in (0, 4, 10, 16, 20, 24))
RULES_SIZES: Tuple[int, ...] = tuple(2 ** k for k in (0, 4, 10, 16, 20))


def parse_sizes(text: str) -> Tuple[int, ...]:
    """``"1,16,2^10"`` -> (1, 16, 1024)."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "^" in part:
            b, e = part.split("^", 1)
            out.append(int(b) ** int(e))
        else:
            out.append(int(part))
    if not out or any(n < 1 for n in out):
        raise ValueError(f"bad --sizes {text!r}")
    return tuple(out)


def _sync(device: str) -> None:
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def _peak_extra(fn, device: str) -> Optional[int]:
    """Bytes allocated above the starting point during one call (CUDA only)."""
    if not device.startswith("cuda"):
        return None
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    out = fn()
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated() - base
    del out
    return int(peak)


def time_one(code, env: Dict[str, Any], device: str, min_run_time: float) -> Dict[str, Any]:
    """Median seconds of one compiled expression, or the error it raised."""
    def fn():
        return eval(code, env)  # noqa: S307

    try:
        fn()
        _sync(device)
    except Exception as exc:  # noqa: BLE001
        return {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:120] if str(exc) else ''}"}
    stmt = "fn(); sync()" if device.startswith("cuda") else "fn()"
    timer = benchmark.Timer(stmt=stmt, globals={"fn": fn, "sync": torch.cuda.synchronize})
    m = timer.blocked_autorange(min_run_time=min_run_time)
    res: Dict[str, Any] = {"median": m.median, "iqr": m.iqr, "runs": len(m.times)}
    peak = _peak_extra(fn, device)
    if peak is not None:
        res["peak_extra_bytes"] = peak
    return res


def bench_pair(
    before_code,
    after_code,
    specs: Dict[str, InputSpec],
    devices: Sequence[str],
    sizes: Sequence[int],
    glb: Dict[str, Any],
    min_run_time: float = 0.2,
) -> Tuple[Dict[str, Dict[str, float]], Dict[str, Any]]:
    """(speedup, timings).  ``speedup[device][size]`` is the geometric mean of the
    before/after ratio over requires_grad False and True (those that ran);
    ``timings[device]["requires_grad=..."][size]`` holds both medians and the ratio."""
    speedup: Dict[str, Dict[str, float]] = {}
    timings: Dict[str, Any] = {}
    for dev in devices:
        speedup[dev] = {}
        timings[dev] = {}
        for rg in (False, True):
            key = f"requires_grad={rg}"
            timings[dev][key] = {}
            for n in sizes:
                try:
                    env_b = {**glb, **bench_inputs(specs, n, dev, rg)}
                    env_a = {**glb, **bench_inputs(specs, n, dev, rg)}
                except Exception as exc:  # noqa: BLE001
                    timings[dev][key][str(n)] = {"error": f"inputs: {type(exc).__name__}: {exc}"}
                    continue
                with torch.enable_grad(), warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # torch.tensor(t) warns on every call
                    # Alternate twice and keep the faster median of each: less drift bias.
                    tb = time_one(before_code, env_b, dev, min_run_time)
                    ta = time_one(after_code, env_a, dev, min_run_time)
                    if "median" in tb and "median" in ta:
                        tb2 = time_one(before_code, env_b, dev, min_run_time)
                        ta2 = time_one(after_code, env_a, dev, min_run_time)
                        tb = min(tb, tb2, key=lambda r: r.get("median", float("inf")))
                        ta = min(ta, ta2, key=lambda r: r.get("median", float("inf")))
                entry: Dict[str, Any] = {"before": tb, "after": ta}
                if "median" in tb and "median" in ta and ta["median"] > 0:
                    entry["ratio"] = tb["median"] / ta["median"]
                timings[dev][key][str(n)] = entry
                del env_b, env_a
        for n in sizes:
            ratios = [timings[dev][f"requires_grad={rg}"][str(n)].get("ratio") for rg in (False, True)]
            ratios = [r for r in ratios if r]
            if ratios:
                speedup[dev][str(n)] = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    return speedup, timings


def plot_timings(timings: Dict[str, Any], path: str, title: str = "") -> None:
    """Before/after median time against size, log axes, one panel per device."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError("--plot needs matplotlib: pip install 'flake8-torchcopy[verify]'") from exc
    devs = list(timings)
    if not devs:
        raise RuntimeError("nothing was timed, so there is nothing to plot (use --bench)")
    fig, axes = plt.subplots(1, len(devs), figsize=(6 * len(devs), 4.5), squeeze=False)
    for ax, dev in zip(axes[0], devs):
        for rg, style in (("requires_grad=False", "-"), ("requires_grad=True", "--")):
            rows = timings[dev].get(rg, {})
            for side, colour in (("before", "tab:red"), ("after", "tab:blue")):
                pts: List[Tuple[int, float]] = [
                    (int(n), e[side]["median"]) for n, e in rows.items()
                    if isinstance(e.get(side), dict) and "median" in e[side]
                ]
                if pts:
                    xs, ys = zip(*sorted(pts))
                    ax.plot(xs, ys, style, marker="o", color=colour, label=f"{side} ({rg})")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("elements (float32)")
        ax.set_ylabel("median time per call (s)")
        ax.set_title(dev)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    if title:
        fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
