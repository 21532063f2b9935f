"""The adversarial harness: does a safe (default) fix ever change what a program does?

For a set of case modules (``cases/*.py``, each defining ``run()`` that returns everything
observable), :func:`evaluate`

1. copies them to a temporary ``orig/`` and ``fixed/`` directory and runs the default fixer
   (``python -m flake8_torchcopy --no-unsafe-fixes``, i.e. ``torchcopy-fix``) on ``fixed/``;
2. runs every case of each directory in a fresh process (``runner.py`` forks one child per
   case from a parent that has only imported torch; the originals and the fixed copies run
   in two such runners side by side), and again under ``python -O`` for cases that set
   ``RUN_OPTIMIZED = True``;
3. gives back, per case, the two sources and the two records, which :func:`differences`
   compares: the outcome (returned, or the exception's type and message), what ``run()``
   returned (tensors by values, dtype, device, layout, shape, strides, requires_grad, leaf,
   grad_fn or not, type, grad, attributes; objects by type and attributes), which returned
   tensors are the same object, share a data pointer or a storage, stdout, the warnings
   raised, and torch's RNG state, grad mode, default dtype and device after the run.

Two differences are allowed, being what the rules exist to remove: the "To copy construct
from a tensor" UserWarning may disappear, and so may a warning a case lists in
``WARNINGS_THE_FIX_REMOVES`` (regular expressions). A case may also say ``EXPECT_FIX = True``
(the fixer must change the file) or ``EXPECT_FIX = False`` (it must leave it byte-identical).
"""
from __future__ import annotations

import ast
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
RUNNER = HERE / "runner.py"
REPO = HERE.parent.parent

COPY_CONSTRUCT_WARNING = re.compile(r"To copy construct from a tensor")


def case_files() -> List[Path]:
    return sorted(CASES_DIR.glob("*.py"))


def case_flags(path: Path) -> Dict[str, object]:
    """The module-level constants a case sets (EXPECT_FIX, RUN_OPTIMIZED, ...), read statically."""
    flags: Dict[str, object] = {}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id.isupper():
            try:
                flags[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return flags


@dataclass
class CaseResult:
    stem: str
    flags: Dict[str, object]
    original_source: str
    fixed_source: str
    original: dict
    fixed: dict
    original_opt: Optional[dict] = None
    fixed_opt: Optional[dict] = None


@dataclass
class Evaluation:
    cases: Dict[str, CaseResult] = field(default_factory=dict)
    fixer_rc: int = 0
    fixer_stdout: str = ""
    fixer_stderr: str = ""


def _python() -> str:
    return sys.executable


def run_fixer(directory: Path):
    """The default fixer on a directory, as a user runs it."""
    cmd = [_python(), "-m", "flake8_torchcopy", "--no-unsafe-fixes", "--show-fixes",
           "--exit-zero", "-j", "1", str(directory)]
    proc = subprocess.run(cmd, cwd=str(directory), capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO) + os.pathsep
                               + os.environ.get("PYTHONPATH", "")})
    return proc.returncode, proc.stdout, proc.stderr


def _start_runner(casedir: Path, stems: List[str], out: Path, optimized: bool):
    cmd = [_python()] + (["-O"] if optimized else []) + [str(RUNNER), str(out), str(casedir)] + stems
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONHASHSEED"] = "0"
    return subprocess.Popen(cmd, cwd=str(casedir), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _collect(proc, out: Path, what: str) -> dict:
    stdout, stderr = proc.communicate(timeout=600)
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError(f"runner for {what} failed ({proc.returncode}):\n{stdout}\n{stderr}")
    with open(out, "rb") as f:
        return pickle.load(f)


def observe(casedir: Path, stems: List[str], optimized: bool = False) -> Dict[str, dict]:
    """Run the cases ``casedir/<stem>.py`` (each in a fresh process) and give their records."""
    with tempfile.TemporaryDirectory(prefix="torchcopy-adv-") as tmp:
        out = Path(tmp) / "records.pickle"
        return _collect(_start_runner(casedir, stems, out, optimized), out, str(casedir))


def evaluate(paths: List[Path]) -> Evaluation:
    ev = Evaluation()
    with tempfile.TemporaryDirectory(prefix="torchcopy-adv-") as tmp:
        tmp = Path(tmp)
        orig, fixed = tmp / "orig", tmp / "fixed"
        orig.mkdir()
        fixed.mkdir()
        for p in paths:
            shutil.copyfile(p, orig / p.name)
            shutil.copyfile(p, fixed / p.name)
        ev.fixer_rc, ev.fixer_stdout, ev.fixer_stderr = run_fixer(fixed)
        stems = [p.stem for p in paths]
        flags = {p.stem: case_flags(p) for p in paths}
        opt_stems = [s for s in stems if flags[s].get("RUN_OPTIMIZED")]
        jobs = [("orig", orig, stems, False), ("fixed", fixed, stems, False)]
        if opt_stems:
            jobs += [("orig-O", orig, opt_stems, True), ("fixed-O", fixed, opt_stems, True)]
        # two runners at a time (the originals and the fixed copies side by side)
        records = {}
        for i in range(0, len(jobs), 2):
            started = []
            for name, d, ss, opt in jobs[i:i + 2]:
                out = tmp / f"{name}.pickle"
                started.append((name, out, _start_runner(d, ss, out, opt)))
            for name, out, proc in started:
                records[name] = _collect(proc, out, name)
        for p in paths:
            s = p.stem
            ev.cases[s] = CaseResult(
                stem=s, flags=flags[s],
                original_source=(orig / p.name).read_text(encoding="utf-8"),
                fixed_source=(fixed / p.name).read_text(encoding="utf-8"),
                original=records["orig"][s], fixed=records["fixed"][s],
                original_opt=records.get("orig-O", {}).get(s),
                fixed_opt=records.get("fixed-O", {}).get(s))
    return ev


def comparable(record: dict, flags: Dict[str, object]) -> dict:
    """What must not change: the record without the traceback's text and the warnings a fix
    may remove."""
    rec = dict(record)
    rec.pop("traceback", None)
    gone = [COPY_CONSTRUCT_WARNING] + [re.compile(p) for p in flags.get("WARNINGS_THE_FIX_REMOVES", ())]
    if "warnings" in rec:
        rec["warnings"] = [w for w in rec["warnings"] if not any(g.search(w[1]) for g in gone)]
    return rec


def differences(before: dict, after: dict, flags: Dict[str, object]) -> List[str]:
    """One line per field that differs (empty: the fix changed nothing observable)."""
    a, b = comparable(before, flags), comparable(after, flags)
    out = []
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            out.append(f"{key}:\n    before: {_short(a.get(key))}\n    after:  {_short(b.get(key))}")
    return out


def _short(value, limit=1500) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + " ..."


def unified_diff(before: str, after: str, name: str) -> str:
    import difflib
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True),
                                        f"a/{name}", f"b/{name}"))
