"""The recursion limit is one for the whole interpreter: deep files linted in threads.

A deep walk raises the limit while it runs and puts it back after.  A walk in another
thread may meanwhile go as deep as the raised limit lets it; were the limit lowered
under it, Python 3.11 would abort the whole process at its next call ("Cannot recover
from stack overflow"), so the limit stays raised while any lint is under way.  The
races are driven by events, in a child process, so that an abort fails one test.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

from test_crash_inputs import deep, total

from flake8_torchcopy import lint_source
from flake8_torchcopy.source import recursion_limit, recursion_limit_kept


def test_long_sums_in_threads():
    limit = sys.getrecursionlimit()
    results, errors = [], []

    def work(n):
        try:
            results.append((n, [f.line for f in lint_source(deep(total(n)))]))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    # While one thread's deep walk holds the (interpreter-wide) recursion limit raised, the
    # others may recurse that deep too: they need a C stack for it, as any host that lints
    # deep files in threads does.
    ns = (400, 800, 1200, 1600, 2000, 2400)
    threads = [threading.Thread(target=work, args=(n,)) for n in ns]
    old = threading.stack_size(256 * 2**20)  # read when a thread starts
    try:
        for t in threads:
            t.start()
    finally:
        threading.stack_size(old)
    for t in threads:
        t.join()
    assert not errors
    assert sorted(results) == [(n, [4]) for n in ns]
    assert sys.getrecursionlimit() == limit


def test_recursion_limit_is_raised_and_put_back():
    limit = sys.getrecursionlimit()
    with recursion_limit(limit + 5000):
        assert sys.getrecursionlimit() == limit + 5000
        with recursion_limit(limit + 100):  # never lowered while someone needs more
            assert sys.getrecursionlimit() == limit + 5000
        assert sys.getrecursionlimit() == limit + 5000
    assert sys.getrecursionlimit() == limit


def test_a_kept_limit_is_put_back_by_the_last_one_out():
    limit = sys.getrecursionlimit()
    with recursion_limit_kept():
        with recursion_limit(limit + 5000):
            pass
        assert sys.getrecursionlimit() == limit + 5000  # kept for the walk still inside
    assert sys.getrecursionlimit() == limit


# Thread A raises the limit; thread B goes 5000 calls deep under it (in WALK), waits
# until A has left, then calls once more.
RACE = """
import sys, threading
from flake8_torchcopy.source import recursion_limit
raised, deep, left = threading.Event(), threading.Event(), threading.Event()

def hold():
    with recursion_limit(30000):
        raised.set()
        deep.wait()
    left.set()

def down(n):
    if n:
        return down(n - 1)
    deep.set()
    left.wait()
    return len(str(sys.getrecursionlimit()))

def walk():
    {walk}

def second():
    raised.wait()
    try:
        walk()
        print("returned")
    except RecursionError:
        print("RecursionError")

threading.stack_size(256 * 2**20)
threads = [threading.Thread(target=hold), threading.Thread(target=second)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sys.getrecursionlimit() == {limit})
"""


def race(walk: str) -> subprocess.CompletedProcess:
    code = RACE.format(walk=textwrap.indent(walk, "    ").lstrip(), limit=sys.getrecursionlimit())
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_a_walk_under_the_kept_limit_survives_the_raiser_leaving():
    proc = race("from flake8_torchcopy.source import recursion_limit_kept\n"
                "with recursion_limit_kept():\n    down(5000)")
    assert (proc.returncode, proc.stdout.split()) == (0, ["returned", "True"]), proc.stderr[-2000:]


def test_the_race_aborts_a_walk_that_keeps_nothing():
    """The hazard itself, so that the test above keeps testing something."""
    proc = race("down(5000)")
    assert proc.returncode != 0 and "Cannot recover from stack overflow" in proc.stderr


def test_lint_source_keeps_the_limit_while_it_walks():
    # lint_source's own walk stands in for `down`: the rules are run 5000 calls deep
    proc = race("import flake8_torchcopy.rule_runner as rr\n"
                "real = rr.run_rules\n"
                "def deep_rules(*args, **kwargs):\n"
                "    down(5000)\n"
                "    return real(*args, **kwargs)\n"
                "rr.run_rules = deep_rules\n"
                "from flake8_torchcopy import lint_source\n"
                "assert [f.code for f in lint_source('import torch\\nt = torch.ones(2)\\n"
                "u = torch.tensor(t)\\n')] == ['TRC101']")
    assert (proc.returncode, proc.stdout.split()) == (0, ["returned", "True"]), proc.stderr[-2000:]
