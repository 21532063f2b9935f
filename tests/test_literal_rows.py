"""``torch.tensor(pairs)`` of a local list filled only with ``[i, j]`` displays: ``(E, 2)``.

Each judgement the analysis makes here is checked against torch by building the list
the code builds and running the view."""
import random

import pytest

SMILES = """
import torch
def edges(bonds):
    edge_indices, edge_attrs = [], []
    for i, j in bonds:
        edge_indices += [[i, j], [j, i]]
        edge_attrs += [[i], [j]]
    edge_index = torch.tensor(edge_indices)
    return edge_index.t().to(torch.long).view(2, -1)
"""

APPENDED = """
import torch
def edges(bonds):
    pairs = []
    for i, j in bonds:
        pairs.append((i, j))
    if not pairs:
        print(len(pairs))
    return torch.tensor(pairs).permute(1, 0).view(2, -1)
"""

# forms that may change the rows' length: none may be judged legal
GROWN = """
import torch
def edges(bonds):
    pairs = []
    for i, j in bonds:
        pairs += [[i, j]]
    for p in pairs:
        p.append(0)
    return torch.tensor(pairs).t().view(2, -1)
"""
ESCAPES = """
import torch
def edges(bonds, grow):
    pairs = []
    for i, j in bonds:
        pairs += [[i, j]]
    grow(pairs)
    return torch.tensor(pairs).t().view(2, -1)
"""
OTHER_ITEMS = """
import torch
def edges(bonds, more):
    pairs = []
    for i, j in bonds:
        pairs += [[i, j]]
    pairs += more
    return torch.tensor(pairs).t().view(2, -1)
"""
MIXED = """
import torch
def edges(bonds):
    pairs = [[0, 1, 2]]
    for i, j in bonds:
        pairs.append([i, j])
    return torch.tensor(pairs).t().view(2, -1)
"""
NESTED_ROWS = """
import torch
def edges(bonds):
    pairs = []
    for i, j in bonds:
        pairs += [[i, j]]
    return torch.tensor(pairs).transpose(0, 1).view(2, -1)
"""


def _quiet_verdicts(view_verdicts, src):
    verdicts, findings = view_verdicts(src)
    assert findings == []
    return verdicts


def test_rows_of_pairs_make_the_view_of_the_transpose_legal(view_verdicts):
    assert _quiet_verdicts(view_verdicts, SMILES) == ["legal"]
    assert _quiet_verdicts(view_verdicts, APPENDED) == ["legal"]


@pytest.mark.parametrize("src", [GROWN, ESCAPES, OTHER_ITEMS, MIXED, NESTED_ROWS])
def test_rows_not_proven_are_not_judged_legal(view_verdicts, src):
    assert "legal" not in _quiet_verdicts(view_verdicts, src)


@pytest.mark.verify
def test_the_legal_forms_never_raise_in_torch():
    torch = pytest.importorskip("torch")
    rng = random.Random(18)
    for _ in range(200):
        e = rng.randrange(0, 6)
        bonds = [(rng.randrange(9), rng.randrange(9)) for _ in range(e)]
        for src in (SMILES, APPENDED):
            scope = {}
            exec(compile(src, "m.py", "exec"), scope)
            if not bonds and src is APPENDED:  # (0,): permute(1, 0) raises, before the view
                with pytest.raises(RuntimeError, match="permute"):
                    scope["edges"](bonds)
                continue
            got = scope["edges"](bonds)
            want = torch.tensor([p for i, j in bonds for p in ([[i, j], [j, i]] if src is SMILES
                                                                  else [[i, j]])])
            assert torch.equal(got, want.t().reshape(2, -1).to(got.dtype))
        # a scalar that is a 0-dim tensor keeps the rank
        pairs = [[torch.tensor(i), torch.tensor(j)] for i, j in bonds]
        if pairs:
            assert torch.tensor(pairs).t().view(2, -1).shape == (2, len(pairs))


@pytest.mark.verify
def test_why_the_refused_forms_are_refused_in_torch():
    torch = pytest.importorskip("torch")
    grown = [[0, 1, 0], [1, 2, 0]]  # GROWN: the rows got a third item
    with pytest.raises(RuntimeError):
        torch.tensor(grown).t().view(2, -1)
    nested = [[[0, 1], [1, 0]], [[2, 3], [3, 2]]]  # items that are lists: (E, 2, 2)
    with pytest.raises(RuntimeError):
        torch.tensor(nested).transpose(0, 1).view(2, -1)
    with pytest.raises(RuntimeError):
        torch.tensor(nested).t()  # t() takes two dims at most: the rank is closed by it
