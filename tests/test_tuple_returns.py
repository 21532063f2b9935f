"""Functions whose every ``return`` is a tuple display of one length (``return vals, vecs``):
a call is a tuple with a tensor at each position where every return holds one
(analysis/returnwalker.py ``tuple_length``/``tuple_shape``), through unpacking and literal
indices, in the module and from another module of the package (analysis/project.py; those
reports get unsafe fixes).

The cross-module case reconstructs aradha/recursive_feature_machines rfm/eigenpro.py:61
(``eigvals, eigvecs = nystrom_kernel_svd(...)`` of rfm/svd.py, then
``torch.tensor(eigvals[k])``).  Reported cases warn when run; each look-alike (returns of
different lengths, a return of a non-display, a starred item, a generator, recursion, a
position that is no tensor on one return) is quiet.
"""
import importlib
import sys
import textwrap
import warnings

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")

HEAD = "import torch\n\n"

REPORTED = {
    "unpacked, every return a display": """
        def split(x, c):
            vals, vecs = torch.linalg.eigh(x @ x.T)
            if c:
                return vals.float(), vecs
            return torch.flip(vals, dims=(0,)), None

        def use():
            e, v = split(torch.eye(3), True)
            return torch.tensor(e)
        """,
    "a literal index": """
        def pair():
            a = torch.zeros(2)
            return a * 2, [1.0]

        def use():
            r = pair()
            return torch.tensor(r[0])
        """,
    "a negative index of the call": """
        def pair():
            return [1.0], torch.ones(2) + 1

        def use():
            return torch.tensor(pair()[-1])
        """,
}

QUIET = {
    "a position that is no tensor on one return": ("""
        def split(c):
            if c:
                return torch.zeros(2), 1
            return [0.0, 1.0], 2

        def use():
            e, n = split(False)
            return torch.tensor(e)
        """, True),
    "returns of different lengths": ("""
        def split(c):
            if c:
                return torch.zeros(2), torch.ones(2)
            return [0.0], [1.0], [2.0]

        def use():
            r = split(True)
            return torch.tensor(r[0])
        """, False),
    "a return of a non-display": ("""
        def split(c):
            t = ([0.0], [1.0])
            if c:
                return torch.zeros(2), torch.ones(2)
            return t

        def use():
            e, v = split(False)
            return torch.tensor(e)
        """, True),
    "a starred item": ("""
        def split(items):
            return (*items, torch.ones(2))

        def use():
            e, v = split([[0.0]])
            return torch.tensor(e)
        """, True),
    "a generator": ("""
        def split():
            yield torch.zeros(2), torch.ones(2)
            return torch.zeros(2), torch.ones(2)

        def use():
            e, v = split()
            return torch.tensor(e)
        """, False),
    "recursion that swaps the positions": ("""
        def split(n):
            if n:
                a, b = split(n - 1)
                return b, a
            return torch.zeros(2), [1.0]

        def use():
            e, v = split(1)
            return torch.tensor(e)
        """, True),
    "a slice of the call: a tuple, not an item": ("""
        def pair():
            a = torch.ones(1)
            return a, a

        def use():
            return torch.tensor(pair()[1:])
        """, True),
    "a slice of a torch tuple": ("""
        def use():
            q = torch.linalg.eigh(torch.eye(1))
            return torch.tensor(q[1:])
        """, True),
    "the name bound again": ("""
        def split():
            return torch.zeros(2), torch.ones(2)

        split = lambda: ([0.0], [1.0])

        def use():
            e, v = split()
            return torch.tensor(e)
        """, True),
}


def source(body: str) -> str:
    return HEAD + textwrap.dedent(body).lstrip("\n")


@pytest.mark.parametrize("name", REPORTED)
def test_tensor_positions_of_tuple_returns_are_tensors(name):
    src = source(REPORTED[name])
    (finding,) = lint_source(src)
    assert finding.code == "TRC101" and finding.fix is not None
    assert copies_a_tensor(src)


def test_a_fix_is_safe_where_nothing_unknown_went_in():
    (finding,) = lint_source(source(REPORTED["a literal index"]))
    assert finding.fix.safe


@pytest.mark.parametrize("name", QUIET)
def test_lookalikes_are_quiet(name):
    src, runs = QUIET[name]
    assert lint_source(source(src)) == []
    if runs:
        assert not copies_a_tensor(source(src))


# ----------------------------------------------------------------------- across modules
SVD = """
import torch
import torch.linalg as linalg
from math import sqrt


def nystrom_kernel_svd(samples, kernel_fn, top_q, method='eigh'):
    n_samples, _ = samples.shape
    kmat = kernel_fn(samples, samples)
    scaled_kmat = kmat / n_samples
    if method == 'eigh':
        vals, vecs = linalg.eigh(scaled_kmat)
    else:
        vals, vecs = torch.zeros(n_samples), torch.eye(n_samples)
    eigvals = torch.flip(vals.float(), dims=(0,))[:top_q]
    eigvecs = torch.flip(vecs.float(), dims=(1,))[:, :top_q] / sqrt(n_samples)
    return eigvals.float(), eigvecs.float()


def mixed(n):
    if n:
        return torch.zeros(n), torch.ones(n)
    return torch.zeros(1), torch.ones(1), None
"""

EIGENPRO = """
import torch

from .svd import nystrom_kernel_svd, mixed


def asm_eigenpro_fn(samples, map_fn, top_q):
    eigvals, eigvecs = nystrom_kernel_svd(samples, map_fn, top_q)
    eigvals, tail_eigval = eigvals[:top_q - 1], eigvals[top_q - 1]
    tail_eigval_t = torch.tensor(tail_eigval, dtype=torch.float)
    return tail_eigval_t, eigvecs


def quiet(n):
    a, b = mixed(n)
    return torch.tensor(a)
"""


def test_a_tuple_from_another_module(tmp_path):
    pkg = tmp_path / "rfmx"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "svd.py").write_text(SVD.lstrip("\n"))
    (pkg / "eigenpro.py").write_text(EIGENPRO.lstrip("\n"))
    path = pkg / "eigenpro.py"
    found = lint_source(path.read_text(), str(path))
    assert [(f.code, f.line) for f in found] == [("TRC101", 9)]
    assert found[0].fix is not None and not found[0].fix.safe  # evidence from another module
    sys.path.insert(0, str(tmp_path))
    try:
        mod = importlib.import_module("rfmx.eigenpro")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            mod.asm_eigenpro_fn(torch.randn(6, 2), lambda a, b: a @ b.T, 3)
        assert any("copy construct from a tensor" in str(w.message) for w in caught)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("rfmx")]:
            del sys.modules[name]


def test_a_slice_is_a_tuple_whose_items_stay_known():
    src = source("""
        def pair():
            a = torch.ones(1)
            return a, a

        def use():
            return [torch.tensor(t) for t in pair()[1:]]
        """)
    (finding,) = lint_source(src)
    assert finding.code == "TRC101"
    g = {}
    exec(compile(src, "m", "exec"), g)
    assert g["use"]()[0].shape == (1,)
    assert torch.tensor(g["pair"]()[1:]).shape == (1,)  # the slice is a tuple: torch.tensor takes it
    with pytest.raises(AttributeError):
        g["pair"]()[1:].detach()  # the old fix's call
