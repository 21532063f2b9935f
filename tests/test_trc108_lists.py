"""TRC108 on lists the analysis follows beyond a flat display (a local list filled by
appends, a comprehension, nested displays, the legacy constructors, the rows of a tensor)
and on look-alikes it must leave alone; every torch behaviour the rule claims is run."""
import textwrap

import pytest

from flake8_torchcopy import fix_source, lint_source

torch = pytest.importorskip("torch")

HEAD = "import numpy as np\nimport torch\n"


def trc108(body, **options):
    return [f for f in lint_source(HEAD + textwrap.dedent(body), **options) if f.code == "TRC108"]


# (body, "fix" / "none": the kind of fix expected)
REPORTED = [
    # torchmetrics detection/helpers.py:780: 1-element tensors appended in a loop
    ("""
     def f(ids, stats):
         out = []
         for i in ids:
             out.append(torch.tensor([stats[i]]))
         return torch.tensor(out, dtype=torch.float32)
     """, "none"),
    ("""
     def f():
         x = torch.randn(4, 3)
         out = []
         for row in x:
             out.append(row.sum())
         return torch.tensor(out)
     """, "fix"),
    # torchtune apply_scaling's form, with the tensor proven: its rows are 0-d tensors
    ("""
     def f(scale):
         freqs = torch.arange(8.0)
         new_freqs = []
         for freq in freqs:
             if freq < 2:
                 new_freqs.append(freq)
             else:
                 new_freqs.append(freq * 2)
         return torch.tensor(new_freqs, dtype=freqs.dtype)
     """, "none"),
    # appended on one path only: the list may be empty, else it holds tensors
    ("def f(c):\n    x = torch.ones(2)\n    out = []\n    if c:\n        out.append(x.sum())\n"
     "    return torch.tensor(out)\n", "fix"),
    ("def f():\n    x = torch.ones(2)\n    out = []\n    while len(out) < 3:\n        out.append(x.sum())\n"
     "    return torch.as_tensor(out)\n", "fix"),
    # a literal bound to a local name
    ("def f():\n    x = torch.ones(2)\n    out = [x.sum(), x.mean()]\n    return torch.tensor(out)\n", "fix"),
    # comprehensions: iterating a tensor yields tensors
    ("x = torch.randn(3)\ny = torch.tensor([v * 2 for v in x])\n", "fix"),
    ("x = torch.randn(3)\ny = torch.as_tensor([v for v in x if v > 0])\n", "fix"),
    ("x = torch.randn(2, 3)\ny = torch.tensor([r.sum() for r in x])\n", "fix"),
    # nested displays
    ("x = torch.randn(3)\ny = torch.tensor([[x.sum(), x.mean()]])\n", "none"),
    ("x = torch.randn(3)\ny = torch.tensor([[x[0], 1.0], [0.0, x[1]]])\n", "none"),
    ("x = torch.randn(3)\ny = torch.tensor([[v for v in x]])\n", "none"),
    # torch_geometric_signed_directed prob_imbalance_loss.py:113: the list is also read by
    # item (an item, never the list) and iterated by a comprehension
    ("""
     def f(xs, sel):
         imbalance = []
         for x in xs:
             curr = torch.abs(x.sum()) / 2
             imbalance.append(curr)
         values = [curr.item() for curr in imbalance]
         result = torch.zeros(1)
         for ind in np.argsort(values)[:sel]:
             result += imbalance[ind]
         if len(imbalance) > 0:
             return torch.mean(torch.FloatTensor(imbalance))
         return result
     """, "none"),
    ("def f():\n    x = torch.ones(2)\n    out = [x.sum()]\n    out[0].add_(1)\n    y = out[-1] * 2\n"
     "    return torch.tensor(out)\n", "fix"),
    # legacy constructors of the host
    ("x = torch.randn(3)\ny = torch.Tensor([x.sum(), x.mean()])\n", "none"),
    ("x = torch.randn(3)\ny = torch.FloatTensor([[[x[0], x[1], x[0] + x[2]]]])\n", "none"),
    ("x = torch.randn(3)\ny = torch.DoubleTensor([v for v in x])\n", "none"),
]

SOME_PATHS = [
    # a tensor, or a value not known, appended
    "def f(v, c):\n    x = torch.ones(2)\n    out = []\n    out.append(x.sum())\n    if c:\n        out.append(v)\n"
    "    return torch.tensor(out)\n",
    "def f(vs):\n    x = torch.ones(2)\n    return torch.tensor([x.sum() if v else v for v in vs])\n",
]

QUIET = [
    # numbers, .item() results, numpy arrays and scalars
    "def f(xs):\n    out = []\n    for x in xs:\n        out.append(float(x))\n    return torch.tensor(out)\n",
    "def f():\n    out = []\n    for v in torch.randn(3):\n        out.append(v.item())\n"
    "    return torch.tensor(out)\n",
    "y = torch.tensor([v.item() for v in torch.randn(3)])\n",
    "def f():\n    out = []\n    for i in range(3):\n        out.append(np.zeros(3))\n    return torch.tensor(out)\n",
    "def f():\n    out = []\n    for i in range(3):\n        out.append(np.float32(i))\n    return torch.tensor(out)\n",
    "y = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\ny = torch.Tensor([1.0, 2.0])\ny = torch.FloatTensor([[1, 2]])\n",
    # items not known: a parameter's rows, a parameter's sum
    "def f(x):\n    return torch.tensor([v * 2 for v in x])\n",
    "def f(xs):\n    return torch.tensor([s.sum() for s in xs])\n",
    "def f(v, c):\n    out = []\n    if c:\n        out.append(v)\n    return torch.tensor(out)\n",
    # the list escapes, is aliased, or is filled in ways not followed
    "def f():\n    x = torch.ones(2)\n    out = [x.sum()]\n    g(out)\n    return torch.tensor(out)\n",
    "def f():\n    x = torch.ones(2)\n    out = [x.sum()]\n    return torch.tensor(out), out\n",
    "def f(v):\n    x = torch.ones(2)\n    out = [x.sum()]\n    o = out\n    o.append(v)\n"
    "    return torch.tensor(out)\n",
    "def f(vs):\n    x = torch.ones(2)\n    out = [x.sum()]\n    out.extend(vs)\n    return torch.tensor(out)\n",
    "def f(vs):\n    x = torch.ones(2)\n    out = [x.sum()]\n    out.append(*vs)\n    return torch.tensor(out)\n",
    "def f(vs):\n    x = torch.ones(2)\n    out = [x.sum()]\n    out += vs\n    return torch.tensor(out)\n",
    "def f(out):\n    x = torch.ones(2)\n    out.append(x.sum())\n    return torch.tensor(out)\n",
    "def f(v):\n    x = torch.ones(2)\n    out = [x.sum()]\n    def g():\n        out.append(v)\n    g()\n"
    "    return torch.tensor(out)\n",
    "def f(v, code):\n    x = torch.ones(2)\n    out = [x.sum()]\n    eval(code)\n    return torch.tensor(out)\n",
    "def f(v):\n    import sys\n    x = torch.ones(2)\n    out = [x.sum()]\n    sys._getframe().f_locals['out'] = [v]\n"
    "    return torch.tensor(out)\n",
    # an item read from a list of rows may be stored into: what the rows hold is not known
    "def f(xs):\n    r = []\n    for x in xs:\n        r.append([x.sum(), 1])\n    r[0][0] = 5\n"
    "    return torch.tensor(r)\n",
    "def f(xs, g):\n    r = [[torch.ones(()), 1]]\n    g(r[0])\n    return torch.tensor(r)\n",
    "def f():\n    x = torch.ones(2)\n    out = [x.sum()]\n    out[0] += 1\n    del out[0]\n"
    "    return torch.tensor(out)\n",
    # a CUDA legacy constructor is not the host's
    "x = torch.randn(3)\ny = torch.cuda.FloatTensor([x.sum(), x.mean()])\n",
    # a list times an int tensor is a list (diffusers processor_omnigen's create_position)
    "def f(mask, n):\n    out = []\n    for m in mask:\n        k = torch.sum(m)\n"
    "        out.append([0] * (n - k) + list(range(k + 1)))\n    return torch.LongTensor(out)\n",
]


@pytest.mark.parametrize("body,fix", REPORTED)
def test_reported(body, fix):
    (finding,) = trc108(body)
    assert "on some paths" not in finding.message
    if fix == "fix":
        assert finding.fix is not None and not finding.fix.safe
    else:
        assert finding.fix is None


@pytest.mark.parametrize("body", SOME_PATHS)
def test_some_paths_reported_without_fix(body):
    (finding,) = trc108(body)
    assert "on some paths" in finding.message and finding.fix is None


@pytest.mark.parametrize("body", QUIET)
def test_quiet(body):
    assert trc108(body) == []


def test_a_list_filled_in_a_function_calling_model_eval_is_followed():
    """``model.eval()`` and ``cocoeval(...)`` are not the builtin ``eval``."""
    body = ("def f(model, ids):\n    model.eval()\n    x = torch.ones(2)\n    out = []\n"
            "    for i in ids:\n        out.append(x[i])\n    return torch.tensor(out)\n")
    assert len(trc108(body)) == 1


def test_the_local_list_fix():
    src = HEAD + "x = torch.randn(4, 3)\nout = []\nfor r in x:\n    out.append(r.sum())\ny = torch.tensor(out)\n"
    assert fix_source(src, True).endswith("y = torch.stack(out).detach()\n")
    assert fix_source(src) == src


# --- what torch does: every claim above, run -------------------------------------


def test_iterating_a_tensor_yields_tensors_of_one_dim_less():
    assert all(type(v) is torch.Tensor and v.dim() == 0 for v in torch.arange(3.0))
    assert all(type(r) is torch.Tensor and r.shape == (3,) for r in torch.zeros(2, 3))
    with pytest.raises(TypeError):
        list(torch.tensor(1.0))


@pytest.mark.filterwarnings("ignore:Converting a tensor with requires_grad")
@pytest.mark.parametrize("build", [
    lambda items: torch.tensor(items), lambda items: torch.as_tensor(items),
    lambda items: torch.Tensor(items), lambda items: torch.FloatTensor(items),
    lambda items: torch.DoubleTensor(items),
])
def test_every_constructor_converts_one_scalar_at_a_time(build):
    x = torch.randn(3, requires_grad=True)
    for items in ([x.sum(), x.mean()], [x[:1], x[1:2]], [[x.sum(), x.mean()]]):
        y = build(items)
        assert not y.requires_grad and y.grad_fn is None  # the graph is cut
        assert y.numel() == 2
    with pytest.raises(ValueError, match="only one element tensors"):
        build([x, x])


def test_an_item_read_from_a_list_of_tensors_stays_a_tensor():
    """``xs[k]`` hands out the item, never the list: whatever is done to a tensor item, the
    list still holds tensors; a row read from a list of rows can be emptied of them."""
    xs = [torch.ones(()), torch.zeros(())]
    xs[0].add_(1)
    xs[1][...] = 3
    y = xs[0] * 2
    y += xs[1]
    assert all(type(v) is torch.Tensor for v in xs) and torch.FloatTensor(xs).tolist() == [2.0, 3.0]
    rows = [[torch.ones(()), 1]]
    rows[0][0] = 5
    assert not any(isinstance(v, torch.Tensor) for r in rows for v in r)


def test_legacy_constructors_make_their_own_dtype():
    t = [torch.tensor(1.5, dtype=torch.float64), torch.tensor(2.5, dtype=torch.float64)]
    assert torch.Tensor(t).dtype == torch.get_default_dtype()
    assert torch.FloatTensor(t).dtype == torch.float32
    assert torch.stack(t).dtype == torch.float64
    with pytest.raises(TypeError):
        torch.LongTensor(t)


def test_the_fix_is_not_exact():
    """Why the fix is unsafe, and why none is offered with keywords."""
    a, b = torch.tensor([1.0]), torch.tensor([2.0])
    assert torch.tensor([a, b]).shape == (2,) and torch.stack([a, b]).shape == (2, 1)
    assert torch.tensor([]).shape == (0,)
    with pytest.raises(RuntimeError):
        torch.stack([])
    assert torch.tensor([a, b.sum()]).shape == (2,)
    with pytest.raises(RuntimeError):
        torch.stack([a, b.sum()])  # a 1-element 1-d and a 0-d tensor
    i = torch.tensor(1)
    assert torch.tensor([i, i], dtype=torch.float32).dtype == torch.float32
    assert torch.stack([i, i]).dtype == torch.int64
    # exact for 0-d tensors of one dtype: values, dtype, device, requires_grad
    x = torch.randn(3, requires_grad=True)
    before, after = torch.tensor([v * 2 for v in x]), torch.stack([v * 2 for v in x]).detach()
    assert torch.equal(before, after) and before.dtype == after.dtype
    assert before.device == after.device and before.requires_grad == after.requires_grad


def test_a_list_times_an_int_tensor_is_a_list():
    k = torch.tensor(2)
    assert [0] * k == [0, 0] and type(k * (1,)) is tuple
    with pytest.raises(TypeError):
        [0] + k
    with pytest.raises(TypeError):
        torch.ones(2) * [2]


@pytest.mark.parametrize("src,code", [
    ("k = torch.tensor(2)\ny = torch.Tensor([0] * k)\n", "TRC106"),
    ("import copy\nk = torch.tensor(2)\ny = copy.deepcopy((1,) * k)\n", "TRC105"),
    ("k = torch.tensor(2)\ny = torch.Tensor(k * [0])\n", "TRC106"),
])
def test_a_sequence_times_a_tensor_is_no_tensor_to_other_rules(src, code):
    assert [f for f in lint_source(HEAD + src) if f.code == code] == []


def test_advice_without_fix_names_cat_for_one_element_rows():
    """lightly gaussian_mixture_masks_transform.py:73: `torch.tensor((u0, v0), device=d)` of
    `torch.randint(0, U, (1,))` results; torch.stack gives shape (2, 1) there, torch.cat (2,)."""
    (f,) = trc108("""
    def f(freq_image, U, V):
        u0 = torch.randint(0, U, (1,), device=freq_image.device)
        v0 = torch.randint(0, V, (1,), device=freq_image.device)
        return torch.tensor((u0, v0), device=freq_image.device)
    """)
    assert f.fix is None and "torch.cat for 1-element 1-d tensors" in f.message
    u0, v0 = torch.randint(0, 5, (1,)), torch.randint(0, 5, (1,))
    assert torch.tensor((u0, v0)).shape == torch.cat([u0, v0]).shape == (2,)
    assert torch.stack([u0, v0]).shape == (2, 1)
