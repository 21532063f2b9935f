"""TRC109: time ``torch.tensor(lst)`` of a list of numpy arrays against ``torch.tensor(np.array(lst))``.

    python benchmarks/trc109_speed.py [--sizes 256x64,32x64,1024x64,256x1024] [--repeats 7] [--threads 1]

For each size ``NxM`` (N arrays of M values), dtype float32 and float64, on CPU: the median
time per call of each side over ``--repeats`` repetitions (``torch.utils.benchmark.Timer``,
``blocked_autorange``), the speedup (before / after) of the medians and the range of the
per-repetition speedups.  Prints a markdown table; the figures live in docs/verification.md.
"""
from __future__ import annotations

import argparse
import statistics
import warnings

import numpy as np
import torch
from torch.utils import benchmark


def measure(n: int, m: int, dtype: str, repeats: int, threads: int, min_run_time: float):
    rng = np.random.default_rng(0)
    lst = [rng.standard_normal(m).astype(dtype) for _ in range(n)]
    # the two sides give the same tensor (1-d arrays of one dtype: the safe case)
    assert torch.equal(torch.tensor(lst), torch.tensor(np.array(lst)))
    env = {"torch": torch, "np": np, "lst": lst}
    before, after = [], []
    for _ in range(repeats):  # alternate, so drift hits both sides alike
        for stmt, out in (("torch.tensor(lst)", before), ("torch.tensor(np.array(lst))", after)):
            t = benchmark.Timer(stmt, globals=env, num_threads=threads)
            out.append(t.blocked_autorange(min_run_time=min_run_time).median)
    ratios = [b / a for b, a in zip(before, after)]
    return statistics.median(before), statistics.median(after), min(ratios), max(ratios)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="32x64,256x64,1024x64,256x1024")
    ap.add_argument("--dtypes", default="float32,float64")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--min-run-time", type=float, default=0.2)
    args = ap.parse_args()
    warnings.simplefilter("ignore")  # the "extremely slow" UserWarning, once per process
    print(f"torch {torch.__version__}, numpy {np.__version__}, cpu, {args.threads} threads, "
          f"{args.repeats} repetitions\n")
    print("| arrays x values | dtype | torch.tensor(lst) | torch.tensor(np.array(lst)) | speedup (median) | range |")
    print("|---|---|---|---|---|---|")
    for size in args.sizes.split(","):
        n, m = (int(x) for x in size.split("x"))
        for dtype in args.dtypes.split(","):
            b, a, lo, hi = measure(n, m, dtype, args.repeats, args.threads, args.min_run_time)
            print(f"| {n} x {m} | {dtype} | {b * 1e3:.3f} ms | {a * 1e3:.3f} ms | {b / a:.1f}x | "
                  f"{lo:.1f}x to {hi:.1f}x |")


if __name__ == "__main__":
    main()
