"""Timing: before against after with ``torch.utils.benchmark.Timer``, and log-log plots.

For each device, size and requires_grad setting both expressions run on the same
contiguous float32 inputs, alternately, ``repeats`` times; each repetition is one
``blocked_autorange`` median.  The entry keeps the median over repetitions with its
range, and the before/after ratio (median of the per-repetition ratios, with their
range; above 1 the rewrite is faster).  Where a side raises, its error is kept instead:
a fix whose original raises only "makes code run", and is given no ratio.  Inputs that
are all 0-d have no size axis: they are timed once, under the size "0-d".  On CUDA the
statement synchronises and the peak extra memory of one call is recorded.
"""
from __future__ import annotations

import math
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch
import torch.utils.benchmark as benchmark

from .specs import InputSpec, eval_shape, int_or_range, with_exprs

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
    """Median seconds of one compiled expression (one ``blocked_autorange``), or its error."""
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
    res: Dict[str, Any] = {"median": m.median}
    peak = _peak_extra(fn, device)
    if peak is not None:
        res["peak_extra_bytes"] = peak
    return res


def _median(xs: Sequence[float]) -> float:
    ys = sorted(xs)
    mid = len(ys) // 2
    return ys[mid] if len(ys) % 2 else (ys[mid - 1] + ys[mid]) / 2


def _summary(runs: List[Dict[str, Any]]) -> Dict[str, Any]:
    times = [r["median"] for r in runs]
    out: Dict[str, Any] = {"median": _median(times), "range": [min(times), max(times)], "repeats": len(times)}
    peaks = [r["peak_extra_bytes"] for r in runs if "peak_extra_bytes" in r]
    if peaks:
        out["peak_extra_bytes"] = max(peaks)
    return out


def time_pair(before_code, after_code, env_b, env_a, device: str, min_run_time: float,
              repeats: int) -> Dict[str, Any]:
    """Both sides alternately ``repeats`` times: medians with their range, and the ratio."""
    first_b = time_one(before_code, env_b, device, min_run_time)
    first_a = time_one(after_code, env_a, device, min_run_time)
    if "error" in first_b or "error" in first_a:
        return {"before": first_b, "after": first_a}
    runs_b, runs_a = [first_b], [first_a]
    for _ in range(repeats - 1):
        runs_b.append(time_one(before_code, env_b, device, min_run_time))
        runs_a.append(time_one(after_code, env_a, device, min_run_time))
    ratios = [b["median"] / a["median"] for b, a in zip(runs_b, runs_a)]
    return {"before": _summary(runs_b), "after": _summary(runs_a),
            "ratio": _median(ratios), "ratio_range": [min(ratios), max(ratios)]}


def bench_inputs(specs: Dict[str, InputSpec], numel: int, device: str, requires_grad: bool) -> Dict[str, Any]:
    """Contiguous float32 inputs of about ``numel`` elements for timing."""
    gen = torch.Generator().manual_seed(0)
    vals: Dict[str, Any] = {}
    for n, s in specs.items():
        if s.kind == "int":
            vals[n] = int(s.low)
        elif s.kind == "float":
            vals[n] = float(s.low)
        elif s.kind == "bool":
            vals[n] = False
        elif s.kind == "dtype":
            vals[n] = getattr(torch, s.choices[0])
        elif s.kind == "value":
            vals[n] = eval(s.choices[0], {"torch": torch, "__builtins__": __builtins__})  # noqa: S307
    vals = with_exprs(specs, vals)
    out: Dict[str, Any] = {}
    for n, s in specs.items():
        if s.kind != "tensor":
            continue
        if s.opt("shape"):
            shape = eval_shape(s.opt("shape") or "", vals)
        else:
            ranks = int_or_range(s.opt("rank"), (1,))
            shape = bench_shape(numel, max(1, ranks[0]) if ranks[0] else 0)
        t = torch.randn(shape, generator=gen).to(device)  # noqa: TRC112  (gen is a CPU generator)
        out[n] = t.requires_grad_(requires_grad)
    out.update(vals)
    return out


def bench_shape(numel: int, rank: int) -> Tuple[int, ...]:
    """Split a power-of-two element count over ``rank`` dims."""
    if rank == 0:
        return ()
    k = max(0, int(numel).bit_length() - 1)
    dims = [k // rank] * rank
    for i in range(k % rank):
        dims[i] += 1
    return tuple(2 ** d for d in dims)


def has_size_axis(specs: Dict[str, InputSpec]) -> bool:
    """False when every tensor input is 0-d: the element count means nothing then."""
    tensors = [s for s in specs.values() if s.kind == "tensor"]
    return not tensors or any(s.opt("rank") != "0" for s in tensors)


def bench_pair(
    before_code,
    after_code,
    specs: Dict[str, InputSpec],
    devices: Sequence[str],
    sizes: Sequence[int],
    glb: Dict[str, Any],
    min_run_time: float = 0.05,
    repeats: int = 5,
) -> Tuple[Dict[str, Dict[str, float]], Dict[str, Any]]:
    """(speedup, timings).  ``speedup[device][size]`` is the geometric mean of the median
    before/after ratio over requires_grad False and True (those where both sides ran);
    ``timings[device]["requires_grad=..."][size]`` is :func:`time_pair`'s entry."""
    keys = [str(n) for n in sizes] if has_size_axis(specs) else ["0-d"]
    numels = dict(zip(keys, sizes)) if keys[0] != "0-d" else {"0-d": 1}
    speedup: Dict[str, Dict[str, float]] = {}
    timings: Dict[str, Any] = {}
    for dev in devices:
        speedup[dev] = {}
        timings[dev] = {}
        for rg in (False, True):
            key = f"requires_grad={rg}"
            timings[dev][key] = {}
            for size_key in keys:
                try:
                    env_b = {**glb, **bench_inputs(specs, numels[size_key], dev, rg)}
                    env_a = {**glb, **bench_inputs(specs, numels[size_key], dev, rg)}
                except Exception as exc:  # noqa: BLE001
                    timings[dev][key][size_key] = {"error": f"inputs: {type(exc).__name__}: {exc}"}
                    continue
                with torch.enable_grad(), warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # torch.tensor(t) warns on every call
                    timings[dev][key][size_key] = time_pair(before_code, after_code, env_b, env_a, dev,
                                                            min_run_time, repeats)
                del env_b, env_a
        for size_key in keys:
            ratios = [timings[dev][f"requires_grad={rg}"][size_key].get("ratio") for rg in (False, True)]
            ratios = [r for r in ratios if r]
            if ratios:
                speedup[dev][size_key] = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    return speedup, timings


def makes_code_run(timings: Dict[str, Any], device: str) -> List[str]:
    """The sizes where the original raised and the rewrite ran (no ratio there)."""
    out = []
    for rows in timings.get(device, {}).values():
        for size, e in rows.items():
            if "error" in e.get("before", {}) and "median" in e.get("after", {}) and size not in out:
                out.append(size)
    return out


def plot_timings(panels: Sequence[Tuple[str, Dict[str, Any]]], path: str, title: str = "") -> None:
    """Before/after median time (with its range over repetitions) against size, log axes:
    one row per (title, timings) panel, one column per device.  A side that raised is drawn
    as a red or blue cross along the top of the panel, labelled "raises"."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError("--plot needs matplotlib: pip install 'flake8-torchcopy[verify]'") from exc
    devs = sorted({d for _, timings in panels for d in timings})
    if not devs:
        raise RuntimeError("nothing was timed, so there is nothing to plot (use --bench)")
    fig, axes = plt.subplots(len(panels), len(devs), figsize=(6 * len(devs), 4.2 * len(panels)), squeeze=False)
    for row, (panel_title, timings) in enumerate(panels):
        for ax, dev in zip(axes[row], devs):
            _draw(ax, timings.get(dev, {}), f"{panel_title} [{dev}]")
    if title:
        fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _draw(ax, rows: Dict[str, Any], title: str) -> None:
    numeric = all(k != "0-d" for r in rows.values() for k in r)
    xpos = (lambda k: int(k)) if numeric else (lambda k: 0)
    raised: List[Tuple[int, str, str]] = []
    for rg, style in (("requires_grad=False", "-"), ("requires_grad=True", "--")):
        for side, colour in (("before", "tab:red"), ("after", "tab:blue")):
            pts = []
            for n, e in rows.get(rg, {}).items():
                res = e.get(side, {})
                if "median" in res:
                    lo, hi = res.get("range", [res["median"]] * 2)
                    pts.append((xpos(n), res["median"], lo, hi))
                elif "error" in res:
                    raised.append((xpos(n), side, colour))
            if pts:
                pts.sort()
                xs, ys, los, his = zip(*pts)
                ax.errorbar(xs, ys, yerr=[[y - lo for y, lo in zip(ys, los)], [hi - y for y, hi in zip(ys, his)]],
                            fmt=style, marker="o", color=colour, capsize=3, label=f"{side} ({rg})")
    if raised:
        top = ax.get_ylim()[1] if ax.lines else 1.0
        for side in ("before", "after"):
            raised_xs = [x for x, s, _ in raised if s == side]
            if raised_xs:
                colour = "tab:red" if side == "before" else "tab:blue"
                ax.scatter(raised_xs, [top] * len(raised_xs), marker="x", s=60, color=colour, label=f"{side} raises")
    if numeric:
        ax.set_xscale("log", base=2)
        ax.set_xlabel("elements (float32)")
    else:
        ax.set_xticks([0])
        ax.set_xticklabels(["0-d inputs"])
    ax.set_yscale("log")
    ax.set_ylabel("median time per call (s), range over repetitions")
    ax.set_title(title, fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
