"""The benchmark harness's own pieces (no timings are checked here)."""
import os
import sys
import zipfile

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))

import fetch_corpora  # noqa: E402  (a broken harness must fail here, not skip)
import run  # noqa: E402


def test_fractions_are_deterministic_and_nested():
    files = [f"f{i:04d}.py" for i in range(1000)]
    eighth, quarter, half = run.fraction(files, 8), run.fraction(files, 4), run.fraction(files, 2)
    assert len(eighth) == 125 and len(quarter) == 250 and len(half) == 500
    assert set(eighth) < set(quarter) < set(half)
    assert run.fraction(files, 1) == files


def test_count_findings_and_checked_files(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text(
        "a/b.py:3:5: TRC101 use x\n"
        "a/c.py:10:1: TRC201 view\n"
        "a/c.py:11:1: TRC201 view\n"
        "x.py:2:5: TOR102 [*] `torch.load` without weights_only\n"
        "--- not a finding TRC101\n"
        "Finished checking 7 files.\n"
    )
    assert run.count_findings(str(out), "trc") == (3, {"TRC101": 1, "TRC201": 2})
    assert run.count_findings(str(out), "tor") == (1, {"TOR102": 1})
    assert run.checked_files(str(out)) == 7


CHILD = """
import subprocess, sys, time
n = 0
for i in range(300_000):
    n += i
if sys.argv[1] == "parent":
    out = subprocess.run([sys.executable, __file__, "child"], capture_output=True, text=True).stdout
    print(float(out) + time.process_time())
    raise SystemExit(3)
block = b"x" * (64 * 1024 * 1024)  # written, so resident: it counts in the peak size
print(time.process_time())
"""


def test_measure_counts_reaped_children_memory_and_exit_code(tmp_path):
    """CPU covers the process and the children it waited for; peak RSS is in MiB; rc is the exit status."""
    script = tmp_path / "busy.py"
    script.write_text(CHILD)
    out = tmp_path / "out.txt"
    sample = run.measure([sys.executable, str(script), "parent"], stdout_path=str(out), cwd=str(tmp_path))
    assert sample.rc == 3
    own_cpu = float(out.read_text())  # what parent and child say they used themselves
    assert sample.cpu >= own_cpu - 0.01  # rusage ticks vs process_time: a hundredth of slack
    assert sample.wall >= own_cpu - 0.01  # parent and child ran one after the other
    assert 64 <= sample.maxrss_mb < 64 * 1024  # the child's 64 MiB, in MiB (not KiB or bytes)


def test_fetch_corpora_pins_and_extracts_a_downloaded_wheel(tmp_path):
    """Every corpus is an exact pin; a wheel already in _dl is extracted without a download."""
    assert all(req.count("==") == 1 for req in fetch_corpora.PACKAGES.values())
    assert fetch_corpora.ALL_CORPORA == ["torch", *fetch_corpora.PACKAGES]
    # the research-style group: exact pins too, fetched by default, names distinct from the first
    assert all(req.count("==") == 1 for req in fetch_corpora.RESEARCH_PACKAGES.values())
    assert fetch_corpora.RESEARCH_CORPORA == list(fetch_corpora.RESEARCH_PACKAGES)
    assert fetch_corpora.KNOWN_CORPORA == fetch_corpora.ALL_CORPORA + fetch_corpora.RESEARCH_CORPORA
    assert not set(fetch_corpora.ALL_CORPORA) & set(fetch_corpora.RESEARCH_CORPORA)
    name = "torch_geometric"  # its requirement is spelled torch-geometric
    dist, version = fetch_corpora.PACKAGES[name].split("==")
    dl = tmp_path / "_dl"
    dl.mkdir()
    for v in ("0.0.1", version):  # another version of it lies there too
        with zipfile.ZipFile(dl / f"{dist.replace('-', '_')}-{v}-py3-none-any.whl", "w") as zf:
            zf.writestr(f"{name}/{v.replace('.', '_')}.py", "x = 1\n")
            zf.writestr(f"{name}/data.json", "{}")
    assert not fetch_corpora.is_complete(str(tmp_path), name)
    assert fetch_corpora.fetch_package(str(tmp_path), name, python="/nonexistent/python")
    assert fetch_corpora.is_complete(str(tmp_path), name)
    assert sorted(os.listdir(tmp_path / name / name)) == sorted(["data.json", version.replace(".", "_") + ".py"])
    assert fetch_corpora.count_py(str(tmp_path / name)) == 1
    with pytest.raises(SystemExit, match="unknown corpus"):
        fetch_corpora.fetch(str(tmp_path), ["no_such_corpus"], verbose=False)


def test_fetch_corpora_extracts_a_research_wheel(tmp_path):
    """A corpus of the second group is found under its own pin (open-clip-torch -> open_clip_torch-*.whl)."""
    name = "open_clip_torch"
    dist, version = fetch_corpora.RESEARCH_PACKAGES[name].split("==")
    dl = tmp_path / "_dl"
    dl.mkdir()
    with zipfile.ZipFile(dl / f"{dist.replace('-', '_')}-{version}-py3-none-any.whl", "w") as zf:
        zf.writestr("open_clip/model.py", "x = 1\n")
    assert fetch_corpora.fetch(str(tmp_path), [name], verbose=False) == {name: True}
    assert fetch_corpora.count_py(str(tmp_path / name)) == 1
    assert fetch_corpora.fetch(str(tmp_path), [name], verbose=False) == {name: True}  # idempotent
