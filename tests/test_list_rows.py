"""TRC108 on a local list of rows built by appends of displays (torchgeo's
``boxes_list.append([xmin, ymin, xmax, ymax])``, issue 18): reported without a fix (nested
lists), each run with torch; and the look-alikes where a row may be changed unseen, each
with a control that the cause named is what keeps it quiet (analysis/locallists.py
``rows_fresh``, per-position joins in analysis/values.py)."""
import textwrap

import pytest

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")

HEAD = "import torch\n\n"

REPORTED = {
    "torchgeo's boxes": """
        def use(masks):
            boxes_list = []
            for mask in masks:
                pos = torch.where(mask)
                xmin = torch.min(pos[1])
                xmax = torch.max(pos[1])
                boxes_list.append([xmin, xmax])
            return torch.tensor(boxes_list)
        """,
    "tuples appended on two paths": """
        def use(masks):
            rows = []
            for mask in masks:
                if mask.any():
                    rows.append((torch.sum(mask), torch.mean(mask.float())))
                else:
                    rows.append((torch.zeros(()), torch.ones(())))
            return torch.as_tensor(rows)
        """,
}

# name -> (program, (the text that keeps it quiet, a replacement without which it is reported))
QUIET = {
    "a row changed while iterating": ("""
        def use(masks):
            rows = []
            for mask in masks:
                rows.append([torch.sum(mask), torch.sum(mask)])
            for r in rows:
                r.append(1)
            return torch.tensor(rows)
        """, ("    for r in rows:\n        r.append(1)\n", "")),
    "a row held by a name": ("""
        def use(masks):
            rows = []
            for mask in masks:
                row = [torch.sum(mask), torch.sum(mask)]
                rows.append(row)
                row[0] = 1
            return torch.tensor(rows)
        """, ("rows.append(row)", "rows.append([torch.sum(mask), torch.sum(mask)])")),
    "an item of a row stored through a subscript": ("""
        def use(masks):
            rows = []
            for mask in masks:
                rows.append([torch.sum(mask), torch.sum(mask)])
            rows[0][0] = 1
            return torch.tensor(rows)
        """, ("rows[0][0] = 1", "pass")),
    "the list handed to a function": ("""
        def use(masks):
            rows = []
            for mask in masks:
                rows.append([torch.sum(mask), torch.sum(mask)])
            fill(rows)
            return torch.tensor(rows)

        def fill(rows):
            rows[0][0] = 1
        """, ("    fill(rows)\n", "")),
}


def _masks():
    m = torch.zeros(2, 4, 4, dtype=torch.bool)
    m[0, 1:3, 2] = True
    m[1, 0, 0] = True
    return m


def _spy_run(src):
    """Run ``use`` and return what it handed to torch.tensor / torch.as_tensor."""
    ns: dict = {}
    exec(compile(src, "<case>", "exec"), ns)
    captured = []
    real = torch.tensor, torch.as_tensor

    def spy(fn):
        def call(data, *a, **k):
            captured.append(data)
            return fn(data, *a, **k)
        return call

    masks = _masks()
    torch.tensor, torch.as_tensor = spy(real[0]), spy(real[1])
    try:
        out = ns["use"](masks)
    finally:
        torch.tensor, torch.as_tensor = real
    return captured, out


@pytest.mark.parametrize("name", REPORTED)
def test_rows_of_tensors_are_reported_without_a_fix(name):
    src = HEAD + textwrap.dedent(REPORTED[name]).lstrip("\n")
    (f,) = [f for f in lint_source(src) if f.code == "TRC108"]
    assert f.fix is None and "nested lists of tensors" in f.message
    (data,), out = _spy_run(src)
    assert data and all(isinstance(i, torch.Tensor) and i.dim() == 0 for row in data for i in row)
    assert torch.equal(out.to(torch.float64), torch.stack([torch.stack(list(r)) for r in data]).to(torch.float64))
    big = [[torch.ones(2)] for _ in data]  # what the message says of larger tensors
    with pytest.raises((ValueError, RuntimeError, TypeError)):
        torch.tensor(big)


@pytest.mark.parametrize("name", QUIET)
def test_rows_that_may_change_unseen_are_quiet(name):
    body, (cause, instead) = QUIET[name]
    src = HEAD + textwrap.dedent(body).lstrip("\n")
    assert [f for f in lint_source(src) if f.code == "TRC108"] == []
    control = src.replace(cause, instead)
    assert control != src and [f.code for f in lint_source(control) if f.code == "TRC108"] == ["TRC108"]
    (data,), _ = _spy_run(src)
    assert not all(isinstance(i, torch.Tensor) for row in data for i in row)  # a number got in
