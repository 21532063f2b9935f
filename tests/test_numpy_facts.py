"""The numpy knowledge of analysis/numpyish.py checked against numpy, and the torch facts TRC109's
fix rests on checked against torch.

Each sample expression is run with numpy and analysed: where the analysis calls the value an
array, the value must be exactly a ``numpy.ndarray`` (no subclass, no numpy scalar), of the
dtype (native byte order) and rank the analysis claims.  Every table entry of numpyish has a
sample.  Expressions that are not always arrays must not be called arrays.
"""
from __future__ import annotations

import re
import warnings

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import numpyish
from flake8_torchcopy.verify.bindings import analysed_values

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")

pytestmark = pytest.mark.filterwarnings("ignore")

ARRAYS = [
    "np.zeros(3)", "np.zeros((2, 3))", "np.zeros(3, dtype=np.float32)", "np.ones(4, dtype='int32')",
    "np.ones((2, 2), dtype=np.double)", "np.empty((2, 2))", "np.empty(0)", "np.full(3, 1.5)",
    "np.full((2,), 7, dtype=np.int64)", "np.zeros(())",
    "np.array([1, 2])", "np.array([[1.0]], dtype='float32')", "np.array(1.5)", "np.array(np.zeros(3))",
    "np.array(np.zeros(3, dtype=np.float16))", "np.asarray([1, 2])", "np.asarray(2)",
    "np.asarray(np.ones((2, 2)), dtype=np.float32)", "np.copy(np.zeros(3))", "np.copy(1.0)",
    "np.asfortranarray(np.zeros((2, 2)))", "np.array([np.zeros(3) for _ in range(2)])",
    "np.stack([np.zeros(3), np.ones(3)])", "np.concatenate([np.zeros(3), np.ones(2)])",
    "np.vstack([np.zeros(3), np.ones(3)])", "np.hstack([np.zeros(3), np.ones(3)])",
    "np.column_stack([np.zeros(3), np.ones(3)])", "np.ascontiguousarray(5.0)", "np.atleast_1d(2.0)",
    "np.arange(5)", "np.arange(0.0, 1.0, 0.25)", "np.arange(5, dtype=np.float32)", "np.linspace(0, 1, 5)",
    "np.logspace(0, 1, 5)", "np.geomspace(1, 10, 4)", "np.eye(3)", "np.eye(2, 3)", "np.eye(3, dtype=np.int32)",
    "np.identity(3)", "np.tri(3)", "np.diag([1, 2])", "np.random.permutation(5)",
    "np.random.rand(3)", "np.random.rand(2, 3)", "np.random.randn(4)", "np.random.random(3)",
    "np.random.random((2, 2))", "np.random.random_sample(3)", "np.random.standard_normal(3)",
    "np.random.uniform(0, 1, 3)", "np.random.uniform(0, 1, size=(2, 3))", "np.random.normal(0, 1, 4)",
    "np.random.randint(0, 5, 3)", "np.random.randint(0, 5, size=(2,))", "np.random.choice(5, 3)",
    "np.random.binomial(5, 0.5, 3)", "np.random.poisson(2.0, 3)", "np.random.exponential(1.0, 3)",
    "np.random.uniform(0, 1, size=x.shape)", "np.zeros(x.size(0))", "np.zeros(x.shape)",
    # elementwise functions of arrays of rank >= 1
    "np.abs(np.arange(-2.0, 2.0))", "np.absolute(np.arange(3))", "np.exp(np.zeros(3, dtype=np.float32))",
    "np.log(np.ones(3))", "np.log1p(np.ones(3))", "np.log2(np.ones(3))", "np.log10(np.ones(3))",
    "np.sqrt(np.ones(3))", "np.square(np.arange(3))", "np.sin(np.ones(3))", "np.cos(np.ones(3))",
    "np.tan(np.ones(3))", "np.tanh(np.ones(3))", "np.sign(np.ones(3))", "np.floor(np.ones(3))",
    "np.ceil(np.ones(3))", "np.round(np.ones(3))", "np.clip(np.arange(5), 1, 3)", "np.negative(np.ones(3))",
    "np.exp2(np.ones(3))", "np.expm1(np.ones(3))", "np.reciprocal(np.ones(3))",
    # ndarray methods
    "np.zeros(3).astype(np.int32)", "np.zeros(3).astype('float16')", "np.zeros(3).astype(dtype=np.uint8)",
    "np.array(2.0).astype(np.float32)", "np.zeros(3).copy()", "np.zeros(6).reshape(3, 2)",
    "np.zeros((2, 3)).transpose()", "np.zeros((1, 3)).squeeze()", "np.zeros((2, 3)).swapaxes(0, 1)",
    "np.zeros((2, 3)).flatten()", "np.zeros((2, 3)).ravel()", "np.array(1.0).flatten()",
    # arithmetic of arrays of rank >= 1 and Python numbers
    "np.zeros(3, dtype=np.float32) * 2", "np.zeros(3, dtype=np.float32) / 255.0", "np.arange(3) / 2",
    "np.arange(3) + 1", "np.arange(3) * 1.5", "np.arange(3) // 2", "np.arange(3) % 2",
    "np.zeros((2, 3)) - np.ones(3)", "2 * np.ones(3, dtype=np.float16)", "1.0 - np.zeros(3, dtype=np.float32)",
    "np.zeros(3, dtype=np.int32) + 1", "np.zeros(3, dtype=np.float64) + np.zeros(3, dtype=np.float64)",
    # rows of arrays of rank >= 2
    "[r for r in np.zeros((2, 3), dtype=np.float32)][0]", "list(np.ones((2, 3, 4)))[1]",
    "[r for r in torch.ones(2, 3).numpy()][0]",
    # tensors to numpy
    "x.numpy()", "x.detach().cpu().numpy()", "torch.tensor(2.0).numpy()",
]
# not always arrays: numpy scalars, Python numbers, tuples, unknown files
NOT_ARRAYS = [
    "np.random.rand()", "np.random.randn()", "np.random.random()", "np.random.uniform(0, 1)",
    "np.random.normal()", "np.random.randint(0, 5)", "np.random.choice(5)", "np.random.random(size=n)",
    "np.array(1.5) * 2", "np.sum(np.zeros(3))", "np.mean(np.zeros(3))", "np.where(np.zeros(3) > 0)",
    "np.zeros(3)[0]", "np.abs(np.array(1.0))", "np.zeros(3) + t", "t + np.zeros(3)", "np.zeros(3) * n", "np.zeros(3) @ np.ones(3)",
    "np.asanyarray(np.zeros(3))", "np.zeros_like(np.zeros(3))", "np.array([1], like=np.zeros(1))",
    "np.zeros(*shape)", "u.numpy()", "[r for r in np.zeros(3)][0]", "[r for r in np.array(u)][0]", "np.zeros(3).sum()", "np.zeros(3).tolist()",
    # functions that dispatch on their arguments (__array_function__): a duck array's own type
    "np.stack([u, u])", "np.stack(shape)", "np.concatenate([np.zeros(3), u])", "np.clip(np.zeros(3), u, 1)",
    "np.linspace(u, 1, 3)", "np.copy(u)", "np.exp(u)",
]
SETUP = "import numpy as np\nimport torch\nx = torch.ones(2, 3)\nt = torch.ones(3)\nn = None\nshape = (3,)\nu = object()\n"


def analysed(expr: str):
    src = SETUP + f"v = {expr}\nv\n"
    line = src.count("\n")
    return analysed_values(src, line, line)["v"]


def run(expr: str):
    env = {"np": np, "torch": torch, "x": torch.ones(2, 3), "t": torch.ones(3), "n": None,
           "shape": (3,), "u": type("U", (), {"numpy": lambda self: 1.0})()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return eval(expr, env)  # noqa: S307


@pytest.mark.parametrize("expr", ARRAYS)
def test_arrays_are_plain_ndarrays_of_the_claimed_dtype_and_rank(expr):
    a = analysed(expr).array
    assert a is not None, expr
    value = run(expr)
    assert type(value) is np.ndarray, (expr, type(value))
    if a.dtype is not None:
        assert value.dtype == np.dtype(a.dtype) and value.dtype.isnative, (expr, value.dtype, a.dtype)
    if a.ndim is not None:
        assert value.ndim == a.ndim, (expr, value.ndim, a.ndim)
    if a.ranked:
        assert value.ndim >= 1, expr
    if a.filled:
        assert value.ndim == 0 or min(value.shape) >= 1, (expr, value.shape)


@pytest.mark.parametrize("expr", NOT_ARRAYS)
def test_values_that_may_not_be_arrays_are_not_called_arrays(expr):
    assert analysed(expr).array is None, expr


def test_the_not_arrays_are_really_not_always_arrays():
    # (the ones that run here: each gives something other than an ndarray, or a subclass can)
    for expr in ("np.random.rand()", "np.random.uniform(0, 1)", "np.array(1.5) * 2", "np.sum(np.zeros(3))",
                 "np.where(np.zeros(3) > 0)", "np.zeros(3)[0]", "np.abs(np.array(1.0))", "t + np.zeros(3)",
                 "np.random.random(size=n)", "u.numpy()", "np.zeros(3) @ np.ones(3)"):
        assert type(run(expr)) is not np.ndarray, expr
    assert type(np.asanyarray(np.ma.zeros(3))) is not np.ndarray
    assert type(np.zeros_like(np.ma.zeros(3))) is not np.ndarray


def test_every_table_entry_has_a_sample():
    names = (numpyish._RANKED | numpyish._ARRAYS | numpyish._SHAPED | numpyish._RANDOM_DIMS
             | set(numpyish._RANDOM_SIZED) | numpyish._ELEMENTWISE)
    text = " ".join(ARRAYS)
    missing = [n for n in names if f"np.{n}(" not in text]
    assert not missing
    methods = numpyish._SAME_RANK_METHODS | numpyish._ARRAY_METHODS | numpyish._FLAT_METHODS
    assert not [m for m in methods if not re.search(rf"\)\.{m}\(", text)]


@pytest.mark.parametrize("name", sorted(numpyish.DTYPES | set(numpyish._DTYPE_ALIASES)))
def test_dtype_names(name):
    canonical = numpyish._DTYPE_ALIASES.get(name, name)
    assert np.dtype(getattr(np, name)) == np.dtype(canonical)
    if name in numpyish.DTYPES:
        assert np.dtype(name) == np.dtype(canonical)


def test_dispatching_functions_give_a_duck_arrays_type():
    class Duck:
        def __array_function__(self, func, types, args, kwargs):
            return "duck"

        def __array_ufunc__(self, ufunc, method, *args, **kwargs):
            return "duck"

    d = Duck()
    for name, call in numpyish._DISPATCHING.items():
        f = getattr(np, name)
        args = {"linspace": (d, d), "logspace": (d, d), "geomspace": (d, d), "clip": (d, 0, 1)}.get(
            name, ([d, d],) if name in ("stack", "concatenate", "vstack", "hstack", "column_stack") else (d,))
        assert f(*args) == "duck", name
    assert np.exp(d) == "duck"
    # the factories the analysis trusts without looking at their arguments do not dispatch
    for expr in ("np.array(d)", "np.asarray(d)", "np.zeros(3)", "np.full(3, d)"):
        try:
            value = eval(expr, {"np": np, "d": d})  # noqa: S307
        except Exception:  # noqa: BLE001 - raising is fine: no value
            continue
        assert type(value) is np.ndarray, expr


def test_np_load_is_not_always_an_array(tmp_path):
    p = tmp_path / "a.npz"
    np.savez(p, a=np.zeros(3))
    assert type(np.load(p)) is not np.ndarray  # an NpzFile
    assert analysed("np.load('a.npz')").array is None


# ------------------------------------------------------------- torch facts of TRC109's fix
DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "uint16",
          "uint32", "bool", "complex64", "complex128"]  # uint64: test_where_the_fix_is_not_exact


def _same(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.stride() == b.stride() and torch.equal(a, b)


def _outcome(f):
    try:
        return f()
    except Exception as exc:  # noqa: BLE001 - the type is what is compared
        return type(exc)


@pytest.mark.parametrize("dtype", DTYPES)
def test_one_dtype_1d_arrays_give_the_same_tensor(dtype):
    rng = np.random.default_rng(0)
    float_targets = [None, torch.float32, torch.float64, torch.float16, torch.bfloat16]
    for n in (1, 2, 5):
        for m in (1, 4):
            lst = [(rng.standard_normal(m) * 50).astype(dtype) for _ in range(n)]
            for target in float_targets:
                kw = {} if target is None else {"dtype": target}
                if dtype.startswith("complex") and target is not None:
                    continue
                assert _same(torch.tensor(lst, **kw), torch.tensor(np.array(lst), **kw)), (dtype, n, m, target)
    # zero-length arrays, an empty list (even with a dtype): other strides
    empty = [np.zeros(0, dtype=dtype)] * 2
    assert torch.tensor(empty).stride() == (1, 1) and torch.tensor(np.array(empty)).stride() == (0, 0)
    assert torch.tensor([], dtype=torch.float64).stride() == (1,)
    assert torch.tensor(np.array([]), dtype=torch.float64).stride() == (0,)
    # ragged lengths: the same exception type
    ragged = [np.zeros(2, dtype=dtype), np.zeros(3, dtype=dtype)]
    assert _outcome(lambda: torch.tensor(ragged)) is _outcome(lambda: torch.tensor(np.array(ragged))) is ValueError


def test_where_the_fix_is_not_exact():
    f32, f64, i64 = np.ones(3, np.float32), np.ones(3), np.arange(3)
    # uint64 arrays: element by element raises, through np.array they convert (not with a
    # floating dtype=, where both give the same)
    u64 = [np.array([0, 1, 2**64 - 1], np.uint64)] * 2
    assert _outcome(lambda: torch.tensor(u64)) is TypeError
    assert torch.tensor(np.array(u64)).dtype == torch.uint64
    for target in (torch.float32, torch.float64):
        assert _same(torch.tensor(u64, dtype=target), torch.tensor(np.array(u64), dtype=target))
    # mixed dtypes promote otherwise
    assert torch.tensor([i64, f32]).dtype == torch.float32
    assert torch.tensor(np.array([i64, f32])).dtype == torch.float64
    # bool with int raises only in torch
    assert _outcome(lambda: torch.tensor([np.ones(3, bool), i64])) is TypeError
    assert isinstance(torch.tensor(np.array([np.ones(3, bool), i64])), torch.Tensor)
    # 0-d arrays raise only in torch
    assert _outcome(lambda: torch.tensor([np.array(1.0), np.array(2.0)])) is TypeError
    # different ranks: TypeError against ValueError
    mixed_rank = [np.ones(3), np.ones((3, 1))]
    assert _outcome(lambda: torch.tensor(mixed_rank)) is TypeError
    assert _outcome(lambda: torch.tensor(np.array(mixed_rank))) is ValueError
    # a 2-d array with a zero first dim loses its last dim in torch
    assert torch.tensor([np.zeros((0, 3))] * 2).shape == (2, 0)
    assert torch.tensor(np.array([np.zeros((0, 3))] * 2)).shape == (2, 0, 3)
    # an empty list: float32 against float64
    assert torch.tensor([]).dtype == torch.float32 and torch.tensor(np.array([])).dtype == torch.float64
    # an integer dtype= raises for float arrays only in torch
    assert _outcome(lambda: torch.tensor([f32], dtype=torch.int64)) is TypeError
    assert torch.tensor(np.array([f32]), dtype=torch.int64).dtype == torch.int64
    # as_tensor and legacy constructors share the temporary array's memory: resize_ raises
    for ctor in (torch.as_tensor, torch.Tensor, torch.FloatTensor):
        assert _outcome(lambda: ctor(np.array([f32, f32])).resize_(100)) is RuntimeError
        assert isinstance(ctor([f32, f32]).resize_(100), torch.Tensor)
    assert _outcome(lambda: torch.LongTensor([f32])) is TypeError
    # torch.tensor copies: resizable
    assert isinstance(torch.tensor(np.array([f64, f64])).resize_(100), torch.Tensor)


def test_torch_warns_for_a_list_of_ndarrays():
    import subprocess
    import sys
    for ctor in ("tensor", "as_tensor", "Tensor", "FloatTensor"):
        code = f"import numpy as np, torch\ntorch.{ctor}([np.ones(3), np.ones(3)])\n"
        proc = subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True, text=True)
        assert "list of numpy.ndarrays is extremely slow" in proc.stderr, ctor


def test_the_safe_fixes_are_the_exact_cases():
    src = "import numpy as np\nimport torch\na = np.zeros(3, dtype=np.float32)\nn = len(a) - 3\n"
    cases = {
        "torch.tensor([a, a])": True,
        "torch.tensor([a, a], dtype=torch.float64, device='cpu')": True,
        "torch.tensor([a, a], dtype=torch.int64)": False,
        "torch.tensor([a, a.astype(np.float64)])": False,
        "torch.tensor([a, np.zeros((2, 3), dtype=np.float32)])": False,
        "torch.tensor([a, a], pin_memory=False)": False,
        "torch.as_tensor([a, a])": False,
        "torch.Tensor([a, a])": False,
        "torch.tensor([r for r in [a, a]])": False,
        "torch.tensor([r for r in [a, a]], dtype=torch.float32)": False,  # may be empty
        "torch.tensor([a, np.zeros(n, dtype=np.float32)])": False,  # n may be 0
        "torch.tensor([a, np.zeros(0, dtype=np.float32)])": False,
        "torch.tensor([a * 2, np.ones(3, dtype=np.float32) / 4])": True,
        "torch.tensor([a.astype(np.uint64), np.ones(3, dtype=np.uint64)])": False,  # raises
        "torch.tensor([a.astype(np.uint64), a.astype(np.uint64)], dtype=torch.float64)": True,
    }
    for expr, safe in cases.items():
        findings = [f for f in lint_source(src + f"y = {expr}\n") if f.code == "TRC109"]
        assert len(findings) == 1 and findings[0].fix is not None, expr
        assert findings[0].fix.safe is safe, expr
