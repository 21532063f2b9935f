"""Calls whose result torch lays out otherwise though every input is contiguous
(``torchfacts.STRIDED_RESULT_FUNCTIONS`` / ``STRIDED_RESULT_METHODS``, measured by
tools/gen_torch_facts.py on samples): LAPACK's column-major matrices (``linalg.inv``,
``linalg.qr``'s Q, ``svd``'s U, ``cholesky``...), einsum's permuted bmm, stft's frames.
Their results are never taken for contiguous: ``torch.inverse(a).transpose(1, 2)`` is
contiguous, and its view works.  Before, each form below was reported by TRC201 (a wrong
report, found while rebuilding a real site whose einsum output raised a view).

Each case runs with torch: the view works, and no TRC201 is reported.
"""
import textwrap
import warnings

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import torchfacts as facts

torch = pytest.importorskip("torch")

FORMS = {
    "torch.linalg.qr": "y, r = torch.linalg.qr(A)", "torch.linalg.svd": "y, s, vh = torch.linalg.svd(A)",
    "torch.linalg.eigh": "w, y = torch.linalg.eigh(S)", "torch.linalg.lu_factor": "y, p = torch.linalg.lu_factor(A)",
    "torch.geqrf": "y, t = torch.geqrf(A)", ".inverse": "y = A.inverse()", ".cholesky": "y = S.cholesky()",
    "torch.inverse": "y = torch.inverse(A)", ".qr": "y, r = A.qr()", "torch.qr": "y, r = torch.qr(A)",
    "torch.svd": "y, s, v = torch.svd(A)", ".svd": "y, s, v = A.svd()",
    "torch.linalg.eig": "w, y = torch.linalg.eig(A)",
    "torch.linalg.inv": "y = torch.linalg.inv(A)", "torch.linalg.solve": "y = torch.linalg.solve(A, v)",
    ".cholesky_solve": "y = v.cholesky_solve(L)", "torch.triangular_solve": "y, c = torch.triangular_solve(v, U)",
    ".triangular_solve": "y, c = v.triangular_solve(U)", "torch.linalg.lstsq": "y = torch.linalg.lstsq(A, v)[0]",
    "torch.einsum": 'y = torch.einsum("bij->bji", A)',
    "torch.einsum, a list": 'y = torch.einsum("bik,ji->bjk", [a3, m45])',
    "torch.stft": "y = torch.stft(sig, 64, return_complex=True)", "torch.rot90": "y = torch.rot90(A, 1, [1, 2])",
    ".rot90": "y = A.rot90(1, [1, 2])", "torch.lu_solve": "y = torch.lu_solve(v, LU, piv)",
    ".lu_solve": "y = v.lu_solve(LU, piv)", "torch.cholesky_solve": "y = torch.cholesky_solve(v, L)",
    "torch.cholesky": "y = torch.cholesky(S)", "torch.orgqr": "y = torch.orgqr(A, tau)", ".orgqr": "y = A.orgqr(tau)",
    "torch.ormqr": "y = torch.ormqr(A, tau4, v)",
    "torch.linalg.householder_product": "y = torch.linalg.householder_product(A, tau)",
}

HEAD = textwrap.dedent('''
    import torch
    def f(A, S, U, L, v, a3, m45, tau, tau4, LU, piv, sig, ints):
        CALL
        return y.transpose(1, 2).view(VIEW)
''')


def _inputs():
    g = torch.Generator().manual_seed(0)
    a = torch.randn(2, 4, 4, generator=g)
    s = a @ a.mT + 4 * torch.eye(4)
    lu, piv = torch.linalg.lu_factor(a)
    return (a, s, a.triu() + 4 * torch.eye(4), torch.linalg.cholesky(s), torch.randn(2, 4, 3, generator=g),
            torch.randn(2, 5, 3, generator=g), torch.randn(4, 5, generator=g), torch.rand(2, 3, generator=g),
            torch.rand(2, 4, generator=g), lu, piv, torch.randn(2, 400, generator=g),
            torch.randint(0, 3, (2, 4, 5), generator=g))


@pytest.mark.parametrize("key", sorted(FORMS))
def test_a_strided_result_transposed_back_is_viewed_quietly(key):
    name = key.split(",")[0]
    assert name in facts.STRIDED_RESULT_FUNCTIONS or name[1:] in facts.STRIDED_RESULT_METHODS
    for view in ("y.size(0), -1", "-1"):
        src = HEAD.replace("CALL", FORMS[key]).replace("VIEW", view)
        scope: dict = {}
        exec(compile(src, key, "exec"), scope)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = scope["f"](*_inputs())  # the view works
        assert out.numel() > 0
        assert [f for f in lint_source(src) if f.code == "TRC201"] == [], (key, view)


def test_the_samples_measure_what_torch_does():
    """The listed calls return non-contiguous tensors from contiguous inputs (the samples of
    tools/gen_torch_facts.py, run here again): never assuming them contiguous is needed."""
    a = torch.randn(2, 4, 4)
    assert not torch.linalg.inv(a).is_contiguous() and torch.linalg.inv(a).mT.is_contiguous()
    assert not torch.einsum("bik,ji->bjk", torch.randn(2, 5, 3), torch.randn(4, 5)).is_contiguous()
    assert not torch.linalg.qr(a)[0].is_contiguous()
    assert {"torch.einsum", "torch.linalg.inv", "torch.linalg.qr", "torch.stft"} <= facts.STRIDED_RESULT_FUNCTIONS
    assert {"inverse", "svd", "qr", "cholesky"} <= facts.STRIDED_RESULT_METHODS
