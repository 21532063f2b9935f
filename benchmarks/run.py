"""Performance harness: flake8 with/without flake8-torchcopy, torchcopy-fix vs TorchFix, parse floors.

Every measurement is a child process; CPU time is the child's user + sys
(``os.wait4`` rusage, which includes the worker processes it reaped), wall time
is measured around it, peak memory is ``ru_maxrss`` (the largest single process).
Each figure is the median of ``--runs`` runs.  See benchmarks/README.md.

    python benchmarks/run.py --quick                 # 1/8 sample, 1 run
    python benchmarks/run.py --output docs/perf.md   # full: torch + transformers, 3 runs
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from dataclasses import asdict, dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import fetch_corpora  # noqa: E402

BENCH = os.path.join(REPO, ".bench")
FLAKE8_REQ = "flake8==7.5.0"
# TorchFix 0.7.0 needs flake8, PyYAML and libcst>=1.5,<1.6, not torch (checked in its METADATA);
# were torch ever needed, put "torch==2.13.0" first here so pip never fetches a CUDA build.
TORCHFIX_REQS = ["torchfix==0.7.0"]

# Small programs for the floors; argv[1] is a file holding one path per line.
AST_SNIPPET = r"""
import ast, sys
for p in open(sys.argv[1]).read().splitlines():
    with open(p, 'rb') as f:
        src = f.read()
    try:
        ast.parse(src, p)
    except (SyntaxError, ValueError):
        pass
"""
LIBCST_SNIPPET = r"""
import sys
import libcst
for p in open(sys.argv[1]).read().splitlines():
    with open(p, 'rb') as f:
        src = f.read()
    try:
        libcst.parse_module(src)
    except Exception:
        pass
"""
READ_SNIPPET = r"""
import sys
for p in open(sys.argv[1]).read().splitlines():
    with open(p, 'rb') as f:
        f.read()
"""

FINDING_RE = {
    "trc": re.compile(r":\d+:\d+:? (TRC\d+)"),
    "tor": re.compile(r":\d+:\d+:? (TOR\d+)"),
}


# ---------------------------------------------------------------- measuring


@dataclass
class Sample:
    cpu: float
    wall: float
    maxrss_mb: float
    rc: int


@dataclass
class Result:
    name: str
    jobs: str
    nfiles: int
    samples: List[Sample] = field(default_factory=list)
    findings: Optional[int] = None
    by_code: Dict[str, int] = field(default_factory=dict)
    note: str = ""

    @property
    def cpu(self) -> float:
        return statistics.median(s.cpu for s in self.samples)

    @property
    def wall(self) -> float:
        return statistics.median(s.wall for s in self.samples)

    @property
    def maxrss_mb(self) -> float:
        return max(s.maxrss_mb for s in self.samples)


def measure(cmd: Sequence[str], stdout_path: str = os.devnull, cwd: Optional[str] = None) -> Sample:
    """Run ``cmd`` once; whole-process CPU (user+sys incl. reaped children), wall and max RSS."""
    with open(stdout_path, "wb") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(list(cmd), stdout=out, stderr=subprocess.STDOUT, cwd=cwd)
        _pid, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
    rc = os.waitstatus_to_exitcode(status)
    proc.returncode = rc  # already reaped; keep Popen from waiting again
    # ru_maxrss is in KiB on Linux, bytes on macOS
    rss = ru.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)
    return Sample(cpu=ru.ru_utime + ru.ru_stime, wall=wall, maxrss_mb=rss, rc=rc)


def checked_files(path: str) -> Optional[int]:
    """TorchFix's own count of the files it parsed (it skips files without 'torch')."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        m = re.search(r"Finished checking (\d+) files", fh.read())
    return int(m.group(1)) if m else None


def count_findings(path: str, kind: str) -> Tuple[int, Dict[str, int]]:
    counts: Dict[str, int] = {}
    rx = FINDING_RE[kind]
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            m = rx.search(line)
            if m:
                counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return sum(counts.values()), dict(sorted(counts.items()))


# ---------------------------------------------------------------- environments


def _bin(venv_dir: str, name: str) -> str:
    return os.path.join(venv_dir, "Scripts" if os.name == "nt" else "bin", name)


def _pip(venv_dir: str, *args: str) -> None:
    cmd = [_bin(venv_dir, "python"), "-m", "pip", "install", "-q", *args]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        tail = "\n".join(ln for ln in proc.stdout.splitlines() if "is ignored" not in ln)[-2000:]
        raise RuntimeError(f"pip install {' '.join(args)} failed in {venv_dir}:\n{tail}")


def ensure_venv(name: str, reqs: Sequence[str], log=print) -> str:
    """Create ``.bench/NAME`` with ``reqs`` installed once (a stamp file records them)."""
    d = os.path.join(BENCH, name)
    stamp = os.path.join(d, ".bench-reqs")
    want = "\n".join(reqs)
    if os.path.exists(stamp) and open(stamp).read() == want:
        return d
    log(f"creating {d} with {' '.join(reqs)} ...")
    shutil.rmtree(d, ignore_errors=True)
    venv.create(d, with_pip=True)
    for req in reqs:  # in order, so a pinned torch goes in before what might want it
        _pip(d, req)
    with open(stamp, "w") as fh:
        fh.write(want)
    return d


def source_hash() -> str:
    """Hash of the package sources, to reinstall flake8-torchcopy when they change."""
    h = hashlib.sha256()
    for dirpath, dirs, files in sorted(os.walk(os.path.join(REPO, "flake8_torchcopy"))):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            if f.endswith((".py", ".pyi", ".yaml", ".json", ".toml", ".txt")):
                p = os.path.join(dirpath, f)
                h.update(os.path.relpath(p, REPO).encode())
                with open(p, "rb") as fh:
                    h.update(fh.read())
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as fh:
        h.update(fh.read())
    return h.hexdigest()


def ensure_trc_venv(log=print) -> str:
    d = ensure_venv("venv-trc", [FLAKE8_REQ], log)
    stamp = os.path.join(d, ".bench-src")
    want = source_hash()
    if not (os.path.exists(stamp) and open(stamp).read() == want):
        log("installing this repo (non-editable) into .bench/venv-trc ...")
        _pip(d, "--no-deps", "--force-reinstall", REPO)
        with open(stamp, "w") as fh:
            fh.write(want)
    return d


def plugin_works(venv_dir: str) -> Tuple[bool, str]:
    """True when the installed plugin has rules and lints a snippet."""
    code = (
        "import flake8_torchcopy as m\n"
        "from flake8_torchcopy.rules import ALL_RULES\n"
        "assert ALL_RULES, 'no rules yet'\n"
        "m.lint_source('import torch\\nx = torch.zeros(3).clone().detach()\\n')\n"
        "import flake8_torchcopy.plugin\n"
    )
    proc = subprocess.run([_bin(venv_dir, "python"), "-c", code], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    return proc.returncode == 0, proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""


def pkg_version(venv_dir: str, dist: str) -> str:
    code = f"import importlib.metadata as m; print(m.version({dist!r}))"
    proc = subprocess.run([_bin(venv_dir, "python"), "-c", code], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
    return proc.stdout.strip() or "?"


# ---------------------------------------------------------------- files


def corpus_files(root: str, names: Sequence[str]) -> List[str]:
    """Every .py file of the named corpora (sorted), fetching missing corpora first."""
    missing = [n for n in names if not fetch_corpora.is_complete(root, n)]
    if missing:
        print(f"fetching corpora {', '.join(missing)} into {root} ...")
        fetch_corpora.fetch(root, missing)
    files: List[str] = []
    for n in names:
        base = os.path.join(root, n)
        for dirpath, dirs, fs in os.walk(base):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            files.extend(os.path.join(dirpath, f) for f in sorted(fs) if f.endswith(".py"))
    return files


def fraction(files: List[str], denom: int) -> List[str]:
    """A deterministic 1/denom sample; samples of growing size are nested (same seed)."""
    if denom <= 1:
        return list(files)
    order = list(files)
    random.Random(20261122).shuffle(order)
    k = max(1, len(order) // denom)
    return sorted(order[:k])


def count_lines(files: Sequence[str]) -> int:
    n = 0
    for p in files:
        with open(p, "rb") as fh:
            n += fh.read().count(b"\n")
    return n


# ---------------------------------------------------------------- tools


@dataclass
class Tool:
    name: str
    jobs: str
    cmd: List[str]
    kind: Optional[str] = None  # "trc"/"tor": count findings in its stdout


def build_tools(args, files_list: str, files: List[str], envs: Dict[str, str]) -> List[Tool]:
    want = set(args.tools.split(","))
    tools: List[Tool] = []
    py = sys.executable
    if "read" in want:
        tools.append(Tool("read files (python)", "1", [py, "-c", READ_SNIPPET, files_list]))
    if "ast" in want:
        tools.append(Tool("read + ast.parse (floor)", "1", [py, "-c", AST_SNIPPET, files_list]))
    if "libcst" in want and "libcst" in envs:
        tools.append(Tool("read + libcst.parse_module (floor)", "1",
                          [_bin(envs["libcst"], "python"), "-c", LIBCST_SNIPPET, files_list]))
    flake8_opts = ["--isolated", "--exit-zero"]
    for jobs in args.jobs.split(","):
        if "flake8" in want and "flake8" in envs:
            tools.append(Tool("flake8 (default plugins)", jobs,
                              [_bin(envs["flake8"], "flake8"), *flake8_opts, "-j", jobs, *files]))
        if "flake8-trc" in want and "trc" in envs:
            tools.append(Tool("flake8 + flake8-torchcopy", jobs,
                              [_bin(envs["trc"], "flake8"), *flake8_opts, "-j", jobs, *files]))
    if "torchcopy-fix" in want and "trc" in envs:
        tools.append(Tool("torchcopy-fix --check", "1",
                          [_bin(envs["trc"], "torchcopy-fix"), "--check", "-j", "1", *files], kind="trc"))
    if "torchfix" in want and "torchfix" in envs and getattr(args, "with_torchfix", True):
        tools.append(Tool("torchfix 0.7.0 (no --fix)", "1",
                          [_bin(envs["torchfix"], "torchfix"), "-j", "1", *files], kind="tor"))
    return tools


def run_tools(tools: List[Tool], runs: int, nfiles: int, cwd: str, log=print) -> List[Result]:
    results = []
    for tool in tools:
        res = Result(tool.name, tool.jobs, nfiles)
        for i in range(runs):
            out = tempfile.NamedTemporaryFile(prefix="bench-", suffix=".out", delete=False).name
            try:
                s = measure(tool.cmd, out if tool.kind else os.devnull, cwd=cwd)
                if tool.kind and i == 0:
                    res.findings, res.by_code = count_findings(out, tool.kind)
                    checked = checked_files(out)
                    if checked is not None:
                        res.note = f"checked {checked} files"
                    if s.rc not in (0, 1):
                        res.note = f"exit {s.rc}"  # the table stays readable; the tail goes to the log
                        with open(out, errors="replace") as fh:
                            log(f"  {tool.name}: exit {s.rc}: " + fh.read()[-300:].replace("\n", " "))
            finally:
                os.unlink(out)
            if s.rc < 0:
                # killed from outside (a signal): a time that means nothing; keep it out of the medians
                res.note = f"killed by signal {-s.rc}; run {i + 1} dropped"
                log(f"  {tool.name:38s} -j {tool.jobs:4s} run {i + 1}/{runs}: killed by signal {-s.rc}")
                continue
            if not tool.kind and s.rc != 0:
                res.note = f"exit {s.rc}"
            res.samples.append(s)
            log(f"  {tool.name:38s} -j {tool.jobs:4s} run {i + 1}/{runs}: cpu {s.cpu:8.2f} s  "
                f"wall {s.wall:8.2f} s  rss {s.maxrss_mb:7.1f} MB  rc {s.rc}")
        if res.samples:
            results.append(res)
        else:
            log(f"  {tool.name}: no complete run, left out")
    return results


# ---------------------------------------------------------------- reporting


def _find(results: List[Result], name: str, jobs: str = "1") -> Optional[Result]:
    for r in results:
        if r.name == name and r.jobs == jobs:
            return r
    return None


def _pct(a: float, b: float) -> str:
    return f"{(a - b) / b * 100:+.1f} %" if b > 0 else "n/a"


def markdown(results: List[Result], meta: dict, scaling: Optional[Dict[int, List[Result]]],
             versus: Sequence[Result] = ()) -> str:
    out = []
    out.append(f"Corpora: {meta['corpora']} — {meta['nfiles']} files, {meta['nlines']:,} lines"
               f" ({meta['sample']}); median of {meta['runs']} run(s); CPU = user + sys of the"
               f" whole process tree.\n")
    out.append("| tool | -j | CPU s | wall s | max RSS MB | findings | CPU vs ast floor |")
    out.append("|---|---|---:|---:|---:|---:|---:|")
    floor = _find(results, "read + ast.parse (floor)")
    for r in results:
        ratio = f"{r.cpu / floor.cpu:.1f}x" if floor and floor.cpu > 0 else ""
        finds = "" if r.findings is None else str(r.findings)
        name = r.name + (f" ({r.note})" if r.note else "")
        out.append(f"| {name} | {r.jobs} | {r.cpu:.2f} | {r.wall:.2f} | {r.maxrss_mb:.0f} | {finds} | {ratio} |")
    out.append("")
    derived = []
    for jobs in meta["jobs"]:
        base = _find(results, "flake8 (default plugins)", jobs)
        trc = _find(results, "flake8 + flake8-torchcopy", jobs)
        if base and trc:
            derived.append(f"- flake8-torchcopy overhead in flake8 -j {jobs}: CPU {_pct(trc.cpu, base.cpu)}"
                           f" ({trc.cpu - base.cpu:+.2f} s), wall {_pct(trc.wall, base.wall)}")
    fix = _find(results, "torchcopy-fix --check")
    if fix and fix.by_code:
        derived.append(f"- {fix.name} findings by code: " + ", ".join(f"{k} {v}" for k, v in fix.by_code.items()))
    if derived:
        out.extend(derived)
        out.append("")
    if versus:
        n = versus[0].nfiles
        runs = len(versus[-1].samples)
        out.append(f"torchcopy-fix against TorchFix on the same {n} files (median of {runs} run(s)):\n")
        out.append("| tool | -j | CPU s | wall s | max RSS MB | findings |")
        out.append("|---|---|---:|---:|---:|---:|")
        for r in versus:
            finds = "" if r.findings is None else str(r.findings)
            name = r.name + (f" ({r.note})" if r.note else "")
            out.append(f"| {name} | {r.jobs} | {r.cpu:.2f} | {r.wall:.2f} | {r.maxrss_mb:.0f} | {finds} |")
        out.append("")
        vfix = _find(list(versus), "torchcopy-fix --check")
        vtf = _find(list(versus), "torchfix 0.7.0 (no --fix)")
        if vfix and vtf and vfix.cpu > 0:
            out.append(f"- TorchFix / torchcopy-fix CPU time: {vtf.cpu / vfix.cpu:.1f}x"
                       f" (findings: torchcopy-fix {vfix.findings}, TorchFix {vtf.findings};"
                       f" the two look for different things)")
        if vtf and vtf.by_code:
            out.append("- TorchFix findings by code: " + ", ".join(f"{k} {v}" for k, v in vtf.by_code.items()))
        out.append("")
    if scaling:
        denoms = sorted(scaling, reverse=True)
        out.append("Scaling (CPU s, median; the samples are nested):\n")
        out.append("| tool | -j | " + " | ".join(
            f"1/{d} ({scaling[d][0].nfiles if scaling[d] else 0} files)" if d > 1 else
            f"all ({scaling[d][0].nfiles if scaling[d] else 0} files)" for d in denoms) + " | all / (8 x 1/8) |")
        out.append("|---|---|" + "---:|" * (len(denoms) + 1))
        for r0 in scaling[denoms[0]]:
            cells = []
            for d in denoms:
                r = _find(scaling[d], r0.name, r0.jobs)
                cells.append(f"{r.cpu:.2f}" if r else "")
            first = r0.cpu
            last = _find(scaling[denoms[-1]], r0.name, r0.jobs)
            lin = f"{last.cpu / (first * denoms[0] / denoms[-1]):.2f}" if last and first > 0 else ""
            out.append(f"| {r0.name} | {r0.jobs} | " + " | ".join(cells) + f" | {lin} |")
        out.append("")
    out.append("Versions: " + ", ".join(f"{k} {v}" for k, v in meta["versions"].items()))
    out.append(f"Machine: {meta['machine']}; date {meta['date']}")
    return "\n".join(out) + "\n"


def machine_info() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = ""
    if hasattr(os, "getloadavg"):
        load = ", load avg %.2f at start" % os.getloadavg()[0]
    return (f"{os.cpu_count()} CPUs ({model}), {platform.system()} {platform.release()},"
            f" Python {platform.python_version()}{load}")


# ---------------------------------------------------------------- main


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="torch,transformers",
                    help="comma-separated corpora (default: %(default)s; known: "
                    + ",".join(fetch_corpora.ALL_CORPORA) + ")")
    ap.add_argument("--root", default=fetch_corpora.DEFAULT_ROOT, help="corpora folder (default: %(default)s)")
    ap.add_argument("--runs", type=int, default=3, help="runs per measurement; the median is reported")
    ap.add_argument("--sample", type=int, default=1, help="measure a 1/N sample of the files (default 1: all)")
    ap.add_argument("--quick", action="store_true", help="a 1/8 sample and 1 run, for trying it out")
    ap.add_argument("--scaling", action="store_true",
                    help="also measure 1/8, 1/4, 1/2 of the measured files (-j 1), to see how time grows")
    ap.add_argument("--jobs", default="1,auto", help="flake8 -j values (default: %(default)s)")
    ap.add_argument("--tools", default="read,ast,libcst,flake8,flake8-trc,torchcopy-fix,torchfix",
                    help="which measurements (default: %(default)s)")
    ap.add_argument("--skip-torchfix", action="store_true", help="don't install or run TorchFix")
    ap.add_argument("--torchfix-sample", type=int, default=8,
                    help="compare with TorchFix on a 1/N sample (default 8: it needs ~0.7 s CPU per file)")
    ap.add_argument("--torchfix-runs", type=int, default=1, help="runs for the TorchFix comparison (default 1)")
    ap.add_argument("--output", help="write the markdown table to FILE (raw numbers go to FILE.json)")
    args = ap.parse_args(argv)
    if args.quick:
        args.sample, args.runs = 8, 1
    if args.skip_torchfix:
        args.tools = ",".join(t for t in args.tools.split(",") if t != "torchfix")
    want = set(args.tools.split(","))
    names = [n for n in args.corpus.split(",") if n]
    root = os.path.abspath(args.root)

    all_files = corpus_files(root, names)
    files = fraction(all_files, args.sample)
    os.makedirs(BENCH, exist_ok=True)

    envs: Dict[str, str] = {}
    versions: Dict[str, str] = {"python": platform.python_version()}
    if "flake8" in want:
        envs["flake8"] = ensure_venv("venv-flake8", [FLAKE8_REQ])
        for dist in ("flake8", "pyflakes", "pycodestyle"):
            versions[dist] = pkg_version(envs["flake8"], dist)
    if want & {"flake8-trc", "torchcopy-fix"}:
        d = ensure_trc_venv()
        ok, why = plugin_works(d)
        if ok:
            envs["trc"] = d
            versions["flake8-torchcopy"] = pkg_version(d, "flake8-torchcopy") + " @ " + git_rev()
        else:
            print(f"flake8-torchcopy can't run yet ({why}); skipping its measurements")
    if want & {"torchfix", "libcst"}:
        try:
            envs["torchfix"] = ensure_venv("venv-torchfix", TORCHFIX_REQS)
            envs["libcst"] = envs["torchfix"]
            versions["torchfix"] = pkg_version(envs["torchfix"], "torchfix")
            versions["libcst"] = pkg_version(envs["torchfix"], "libcst")
        except RuntimeError as exc:
            print(f"TorchFix unavailable: {exc}")
        if "torchfix" not in want:
            envs.pop("torchfix", None)

    def measure_set(fs: List[str], runs: int, jobs: str, tools: Optional[str] = None,
                    torchfix: bool = False) -> List[Result]:
        with tempfile.NamedTemporaryFile("w", prefix="bench-files-", suffix=".txt", delete=False) as fh:
            fh.write("\n".join(fs) + "\n")
        try:
            a = argparse.Namespace(**vars(args))
            a.jobs = jobs
            a.with_torchfix = torchfix
            if tools is not None:
                a.tools = tools
            tools = build_tools(a, fh.name, fs, envs)
            return run_tools(tools, runs, len(fs), cwd=root)
        finally:
            os.unlink(fh.name)

    nlines = count_lines(files)
    print(f"{len(files)} files, {nlines:,} lines from {', '.join(names)}; {args.runs} run(s) each")
    results = measure_set(files, args.runs, args.jobs)
    versus: List[Result] = []
    if "torchfix" in envs:
        tf_denom = max(args.sample, args.torchfix_sample)
        tf_files = fraction(all_files, tf_denom)
        print(f"TorchFix comparison on 1/{tf_denom} = {len(tf_files)} files, {args.torchfix_runs} run(s)")
        fix = _find(results, "torchcopy-fix --check")
        if len(tf_files) == len(files) and fix is not None and args.torchfix_runs == args.runs:
            versus = [fix] + measure_set(tf_files, args.torchfix_runs, "1", "torchfix", True)
        else:
            versus = measure_set(tf_files, args.torchfix_runs, "1", "ast,torchcopy-fix,torchfix", True)
    scaling = None
    if args.scaling:
        scaling = {}
        scaling_tools = ",".join(t for t in args.tools.split(",") if t not in ("torchfix", "read"))
        for d in (8, 4, 2, 1):
            sub = fraction(files, d)
            print(f"scaling: 1/{d} of the files = {len(sub)} files")
            if len(sub) == len(files):
                scaling[d] = [r for r in results if r.jobs == "1" and r.name != "read files (python)"]
            else:
                scaling[d] = measure_set(sub, args.runs, "1", scaling_tools)

    meta = {
        "corpora": ", ".join(names),
        "nfiles": len(files),
        "nlines": nlines,
        "sample": "all files" if args.sample <= 1 else f"a 1/{args.sample} sample",
        "runs": args.runs,
        "jobs": args.jobs.split(","),
        "versions": versions,
        "machine": machine_info(),
        "date": time.strftime("%Y-%m-%d"),
    }
    md = markdown(results, meta, scaling, versus)
    print()
    print(md)
    if args.output:
        with open(args.output, "w") as fh:
            fh.write(md)
        with open(args.output + ".json", "w") as fh:
            raw = {"meta": meta, "results": [asdict(r) for r in results]}
            if scaling:
                raw["scaling"] = {str(d): [asdict(r) for r in rs] for d, rs in scaling.items()}
            raw["versus_torchfix"] = [asdict(r) for r in versus]
            json.dump(raw, fh, indent=1)
    return 0


def git_rev() -> str:
    proc = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
    return proc.stdout.strip() or "?"


if __name__ == "__main__":
    sys.exit(main())
