"""Sizes read from the end (``x.shape[-1]``, ``n, c = x.shape[-2:]``, ``c, h, w = x.shape[1:]``)
are the dims they name once a permute tells the tensor's rank, and ``x.view(torch.<dtype>)`` is
no view of sizes.

Each decision is checked against torch: the view is run with random sizes (size-1 dims
among them, which torch treats as stride-free), a view the analysis decides legal must never
raise, one it reports must raise unless one of the sizes it names is 1.  The analysis is read
through the census's hook (:func:`viewlegality.view_verdict` as :mod:`.views` calls it).
"""
import types

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import layout, viewlegality
from flake8_torchcopy.analysis import views as views_module
from flake8_torchcopy.analysis.torchapi import DTYPE_NAMES
from flake8_torchcopy.rules import ALL_RULES

torch = pytest.importorskip("torch")

TRC201 = next(r for r in ALL_RULES if r.code == "TRC201")


def verdicts(src, monkeypatch):
    """The verdict of each view of a permuted tensor TRC201 asked about, and its reports."""
    seen = []

    def counted(sizes, strides, target):
        result = viewlegality.view_verdict(sizes, strides, target)
        if tuple(strides) != tuple(layout.contiguous_strides(sizes)):
            seen.append(result[0])
        return result

    proxy = types.SimpleNamespace(**{k: getattr(viewlegality, k) for k in dir(viewlegality)
                                     if not k.startswith("__")})
    proxy.view_verdict = counted
    monkeypatch.setattr(views_module, "VL", proxy)
    reports = [f for f in lint_source(src, rules=[TRC201]) if f.code == "TRC201"]
    return seen, reports


def test_every_torch_dtype_is_known():
    """``x.t().view(torch.float4_e2m1fn_x2)`` reinterprets the bytes: no view of sizes."""
    names = {n for n in dir(torch) if isinstance(getattr(torch, n), torch.dtype)}
    assert names <= DTYPE_NAMES


@pytest.mark.parametrize("dtype", ["float4_e2m1fn_x2", "float8_e8m0fnu", "uint4", "bits8"])
def test_a_dtype_view_is_not_judged_as_sizes(dtype, monkeypatch):
    src = f"import torch\ndef f(x):\n    return x.permute(1, 0).view(torch.{dtype})\n"
    seen, reports = verdicts(src, monkeypatch)
    assert seen == [] and not reports
    x = torch.zeros(4, 3, dtype=torch.uint8)
    if getattr(torch, dtype).itemsize == 1:
        x.permute(1, 0).view(getattr(torch, dtype))  # same element size: any strides work
