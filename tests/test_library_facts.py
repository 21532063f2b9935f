"""Every fact of the library tables (analysis/torchapi.py, analysis/yields.py, the constructors of
analysis/torchsem.py) checked against the torch the tests pin (2.13).

A table says what a call returns "for every valid call"; here each name must exist, and calling it
on sample arguments must return what the table claims, at every call that succeeds: a generic
checker tries a fixed list of argument sets (plain tensors of several kinds and ranks, ints,
sizes, lists of tensors) on every entry, and explicit samples cover the entries none of them
fits.  A table entry with no successful call fails the test unless it is listed, with the
reason, as checkable only on an accelerator.  ``torch.where(cond)`` (a tuple) is the kind of
exception the "every call that succeeds" rule catches.
"""
from __future__ import annotations

import builtins
import functools
import importlib
import inspect
import sys
import types
import warnings

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import torchapi as api
from flake8_torchcopy.analysis import torchfacts as facts
from flake8_torchcopy.analysis import torchsem, yields

torch = pytest.importorskip("torch")
F = torch.nn.functional

pytestmark = [pytest.mark.filterwarnings("ignore"), pytest.mark.verify]


# ------------------------------------------------------------------ samples (fresh per call)
def _f():
    return torch.rand(2, 3) + 0.5  # positive float, 2x3


def _p():
    return torch.rand(2, 3)  # probabilities


def _sq():
    return torch.rand(3, 3) + 0.5


def _v():
    return torch.arange(1.0, 4.0)  # sorted, 1-d, 3 elements


def _i():
    return torch.tensor([[0, 1, 0], [1, 0, 1]])  # valid indices into either dim of _f()


def _b():
    return torch.tensor([[True, False, True], [False, True, False]])


def _c():
    return torch.rand(2, 3, dtype=torch.complex64)


def _t3():
    return torch.rand(1, 2, 4) + 0.5


def _t4():
    return torch.rand(1, 4, 2, 2) + 0.5


def _s():
    return _f().to_sparse()


def _z():
    return torch.tensor(2.0)


_FACTORIES = {"F": _f, "P": _p, "SQ": _sq, "V": _v, "I": _i, "B": _b, "C": _c, "T3": _t3, "T4": _t4,
              "S": _s, "Z": _z}


def _make(spec):
    """Materialise an argument spec: a factory's name becomes a fresh tensor; lists and tuples
    are made element by element; anything else is itself."""
    if isinstance(spec, str) and spec in _FACTORIES:
        return _FACTORIES[spec]()
    if isinstance(spec, list):
        return [_make(s) for s in spec]
    if isinstance(spec, tuple):
        return tuple(_make(s) for s in spec)
    return spec


#: argument sets tried on every torch function (the tensor argument included)
FUNCTION_ARGS = [
    (), (2,), (2, 3), (3, 3), (2, 3, 4), ((2, 3),), ((2, 3), 2.0), (2, (2, 3)),
    ("F",), ("F", 0), ("F", 1), ("F", 2), ("F", 2.0), ("F", 0, 1), ("F", (1, 0)), ("F", (3,)),
    ("F", (-1,)), ("F", (1, 1)), ("F", (2, 3)), ("F", "F"), ("F", "F", "F"), ("F", "B"),
    ("F", "B", 2.0), ("F", 0, "I"), ("F", 0, "I", "F"), ("F", "I"), ("F", "V"), ("F", "I", 0),
    ("P",), ("P", "P"), ("SQ",), ("SQ", "SQ"), ("SQ", "SQ", "SQ"), ("SQ", "V"), ("V",), ("V", "V"),
    ("V", "F"), ("V", "SQ", "V"), ("B",), ("B", "F", "F"), ("I",), ("I", "I"), ("I", "F"), ("C",),
    ("T3",), ("T3", 2), ("T3", "T3", "T3"), ("T4",), ("T4", 1), ("T4", 2), ("T4", 2, 2),
    (["F", "F"],), (["F", "F"], 0), (("F", "F"),), ("Z",), (1, "F"),
]

#: argument sets tried on every tensor method (after the receiver)
METHOD_ARGS = [
    (), (0,), (1,), (2,), (0, 1), (1, 0), ((1, 0),), ((3,),), ((-1,),), ((2, 3),), (2, 3), (3, 2),
    ("F",), ("SQ",), ("V",), ("I",), ("B",), ("B", 2.0), (0, "I"), (0, "I", "F"), ("F", "F"), ("SQ", "SQ"),
    (torch.float64,), ("cpu",), (2.0,), ("F", 0.5), ([1, 2],), ([[1.0]],), ((2, 3), 2.0),
]

#: receivers of the tensor methods
RECEIVERS = ["F", "SQ", "V", "I", "B", "C", "S", "Z", "T3", "T4"]


def _calls(fn, arg_sets):
    """``(args, result)`` for each argument set with which ``fn`` returns normally (a dict
    at the end of a set holds keyword arguments)."""
    out = []
    for spec in arg_sets:
        args = _make(spec)
        kwargs = args[-1] if args and isinstance(args[-1], dict) else {}
        if kwargs:
            args = args[:-1]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                result = fn(*args, **kwargs)
            except Exception:  # an invalid call: the table speaks of valid ones
                continue
        out.append((spec, result))
    return out


def _method_calls(name, receivers=RECEIVERS, arg_sets=METHOD_ARGS):
    out = []
    for r in receivers:
        # _calls runs the lambda before the loop moves on, so binding r late is right
        for spec, result in _calls(lambda *a: getattr(_make(r), name)(*a), arg_sets):  # noqa: B023
            out.append(((r,) + tuple(spec), result))
    return out


def _is_tensor(x):
    return isinstance(x, torch.Tensor)


def _not_tensor(x):
    return not isinstance(x, torch.Tensor)


def _tensor_tuple(x):
    return isinstance(x, tuple) and all(isinstance(e, torch.Tensor) for e in x)


def _check(successes, claim, what, proven=False):
    """Every successful call returns what ``claim`` accepts, and one succeeded, unless the entry
    is ``proven`` by torch's own schemas or annotations (analysis/torchfacts.py, which
    tests/test_torch_facts.py checks is what this torch gives)."""
    assert successes or proven, f"{what}: no sample call succeeded (add an explicit sample)"
    wrong = [(args, type(r).__name__) for args, r in successes if not claim(r)]
    assert not wrong, f"{what}: returns what the table does not claim: {wrong[:3]}"


# --------------------------------------------------------------------------- explicit samples
def _conv_samples(n):
    x = torch.rand((1, 1) + (4,) * n)
    w = torch.rand((1, 1) + (2,) * n)
    return [(x, w)]


EXPLICIT_FUNCTIONS = {
    "frombuffer": lambda: [(bytearray(8), {"dtype": torch.float32})],
    "from_numpy": lambda: [(__import__("numpy").zeros(3),)],
    "empty_strided": lambda: [((2, 3), (3, 1))],
    "linspace": lambda: [(0.0, 1.0, 5)],
    "logspace": lambda: [(0.0, 1.0, 5)],
    "randint": lambda: [(3, (2, 3)), (0, 3, (2,))],
    "bmm": lambda: [(torch.rand(2, 2, 3), torch.rand(2, 3, 4))],
    "baddbmm": lambda: [(torch.rand(2, 2, 4), torch.rand(2, 2, 3), torch.rand(2, 3, 4))],
    "addbmm": lambda: [(torch.rand(2, 4), torch.rand(2, 2, 3), torch.rand(2, 3, 4))],
    "einsum": lambda: [("ij->ji", _f()), ("ij,kj->ik", _f(), _f())],
    "view_as_complex": lambda: [(torch.rand(2, 2),)],
    "view_as_real": lambda: [(_c(),)],
    "narrow": lambda: [(_f(), 0, 0, 1)],
    "index_select": lambda: [(_f(), 0, torch.tensor([0, 1]))],
    "gather": lambda: [(_f(), 0, _i())],
    "take_along_dim": lambda: [(_f(), _i(), 0)],
    "tile": lambda: [(_f(), (2,))],
    "flip": lambda: [(_f(), (0,))],
    "polar": lambda: [(_f(), _f())],
    "complex": lambda: [(_f(), _f())],
    "conv1d": lambda: _conv_samples(1),
    "conv2d": lambda: _conv_samples(2),
    "conv3d": lambda: _conv_samples(3),
    "conv_transpose1d": lambda: _conv_samples(1),
    "conv_transpose2d": lambda: _conv_samples(2),
    "conv_transpose3d": lambda: _conv_samples(3),
    "dropout": lambda: [(_f(), 0.5, True)],
    "batch_norm": lambda: [(_f(), None, None, torch.zeros(3), torch.ones(3), True, 0.1, 1e-5, False)],
    "instance_norm": lambda: [(_t3(), None, None, None, None, True, 0.1, 1e-5, False)],
    "bilinear": lambda: [(_f(), _f(), torch.rand(4, 3, 3), None)],
    "embedding": lambda: [(_f(), _i())],
    "lerp": lambda: [(_f(), _f(), 0.5)],
    "polygamma": lambda: [(1, _f())],
    "normal": lambda: [(_f(), _f()), (0.0, 1.0, (2, 3))],
    "addmv": lambda: [(_v(), _sq(), _v())],
}

EXPLICIT_FUNCTIONAL = {
    "bilinear": lambda: [(_f(), _f(), torch.rand(4, 3, 3))],
    "avg_pool3d": lambda: [(torch.rand(1, 1, 2, 2, 2), 1)],
    "lp_pool1d": lambda: [(_t3(), 2.0, 2)],
    "prelu": lambda: [(_f(), torch.tensor([0.25]))],
    "interpolate": lambda: [(_t3(), None, 2.0)],
    "upsample": lambda: [(_t3(), None, 2.0)],
    "upsample_nearest": lambda: [(_t3(), None, 2)],
    "upsample_bilinear": lambda: [(_t4(), None, 2)],
    "grid_sample": lambda: [(_t4(), torch.rand(1, 2, 2, 2) * 2 - 1)],
    "affine_grid": lambda: [(torch.rand(1, 2, 3), [1, 1, 2, 2])],
    "cross_entropy": lambda: [(_f(), torch.tensor([0, 2]))],
    "nll_loss": lambda: [(_f(), torch.tensor([0, 2]))],
    "ctc_loss": lambda: [(torch.rand(5, 1, 3).log_softmax(2), torch.tensor([[1, 2]]), (5,), (2,))],
    "fold": lambda: [(torch.rand(1, 4, 4), (3, 3), 2)],
    "batch_norm": lambda: [(_f(), torch.zeros(3), torch.ones(3))],
    "embedding_bag": lambda: [(torch.tensor([[0, 1]]), _f())],
    "conv1d": lambda: _conv_samples(1),
    "conv2d": lambda: _conv_samples(2),
    "conv3d": lambda: _conv_samples(3),
    "conv_transpose1d": lambda: _conv_samples(1),
    "conv_transpose2d": lambda: _conv_samples(2),
    "conv_transpose3d": lambda: _conv_samples(3),
}

EXPLICIT_METHODS = {
    "scatter_add_": lambda: [(_f(), 0, _i(), _f())],
    "addmm": lambda: [(_sq(), _sq(), _sq())],
    "baddbmm": lambda: [(torch.rand(2, 2, 4), torch.rand(2, 2, 3), torch.rand(2, 3, 4))],
    "bmm": lambda: [(torch.rand(2, 2, 3), torch.rand(2, 3, 4))],
    "index_select": lambda: [(_f(), 0, torch.tensor([0, 1]))],
    "narrow": lambda: [(_f(), 0, 0, 1)],
    "lerp": lambda: [(_f(), _f(), 0.5)],
    "new_full": lambda: [(_f(), (2, 3), 2.0)],
    "expand": lambda: [(torch.rand(1, 3), 2, 3)],
    "unflatten": lambda: [(_f(), 1, (3, 1))],
    "where": lambda: [(_f(), _b(), _f()), (_f(), _b(), 0.0)],
}

#: the only calls that need an accelerator: checked for existence here, and called where one
#: is present
NEEDS_ACCELERATOR = {"cuda", "pin_memory"}


def _explicit(fn, table, name):
    """The explicit samples of ``name``: each must succeed."""
    make = table.get(name)
    out = []
    for args in make() if make else ():
        kwargs = args[-1] if args and isinstance(args[-1], dict) else {}
        args = args[:-1] if kwargs else args
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out.append((args, fn(*args, **kwargs)))
    return out


# ------------------------------------------------------------------ functions returning tensors
@pytest.mark.parametrize("name", sorted(api.TENSOR_FUNCTIONS))
def test_torch_function_returns_a_tensor(name):
    assert hasattr(torch, name), f"torch.{name} does not exist"
    fn = getattr(torch, name)
    _check(_calls(fn, FUNCTION_ARGS) + _explicit(fn, EXPLICIT_FUNCTIONS, name), _is_tensor, f"torch.{name}",
           proven=f"torch.{name}" in facts.TENSOR_FUNCTIONS)


@pytest.mark.parametrize("name", sorted(api.FUNCTIONAL_TENSOR_FUNCTIONS))
def test_functional_returns_a_tensor(name):
    assert hasattr(F, name), f"torch.nn.functional.{name} does not exist"
    fn = getattr(F, name)
    _check(_calls(fn, FUNCTION_ARGS) + _explicit(fn, EXPLICIT_FUNCTIONAL, name), _is_tensor, f"F.{name}",
           proven=f"torch.nn.functional.{name}" in facts.TENSOR_FUNCTIONS)


def test_torch_where_with_one_argument_is_a_tuple():
    """Why ``where`` is not in TENSOR_FUNCTIONS: ``torch.where(cond)`` is ``nonzero(as_tuple=True)``."""
    assert "where" not in api.TENSOR_FUNCTIONS
    assert isinstance(torch.where(_b()), tuple)


@pytest.mark.parametrize("name", sorted(torchsem.TENSOR_CONSTRUCTORS))
def test_constructors_return_tensors(name):
    obj = torch
    for part in name.split(".")[1:]:
        assert hasattr(obj, part), f"{name} does not exist"
        obj = getattr(obj, part)
    if name.startswith("torch.nn."):
        assert _is_tensor(obj(_f()))
    # the torch.<function> ones are the TENSOR_FUNCTIONS checked above


# -------------------------------------------------------------------------- tensor methods
@pytest.mark.parametrize("name", sorted(api.TENSOR_METHODS))
def test_tensor_method_returns_a_tensor(name):
    assert hasattr(torch.Tensor, name), f"Tensor.{name} does not exist"
    calls = _method_calls(name) + _explicit(lambda r, *a: getattr(r, name)(*a), EXPLICIT_METHODS, name)
    if name in NEEDS_ACCELERATOR and not torch.cuda.is_available():
        assert not calls or all(_is_tensor(r) for _, r in calls)
        return
    _check(calls, _is_tensor, f"Tensor.{name}", proven=name in facts.TENSOR_METHODS)


@pytest.mark.parametrize("name", sorted(api.NON_TENSOR_METHODS))
def test_non_tensor_method_returns_no_tensor(name):
    assert hasattr(torch.Tensor, name), f"Tensor.{name} does not exist"
    _check(_method_calls(name), _not_tensor, f"Tensor.{name}", proven=name in facts.NON_TENSOR_METHODS)


@pytest.mark.parametrize("name", sorted(api.TENSOR_ATTRIBUTES))
def test_tensor_attribute_is_a_tensor(name):
    values = []
    for r in RECEIVERS:
        try:
            values.append((r, getattr(_make(r), name)))
        except Exception:
            continue
    _check(values, _is_tensor, f"Tensor.{name}")


@pytest.mark.parametrize("name", sorted(api.NON_TENSOR_ATTRIBUTES))
def test_non_tensor_attribute_is_no_tensor(name):
    values = []
    for r in RECEIVERS:
        try:
            values.append((r, getattr(_make(r), name)))
        except Exception:
            continue
    _check(values, _not_tensor, f"Tensor.{name}")


@functools.lru_cache(maxsize=None)
def _torch_classes():
    """Every class reachable from torch's loaded modules (and numpy's array types)."""
    return tuple(_each_torch_class())


def _each_torch_class():
    for m in ("torch.nn", "torch.nn.utils.rnn", "torch.distributions", "torch.optim", "torch.utils.data",
              "torch.amp", "torch.nested", "torch.masked", "torch.sparse", "torch.fx", "torch.autograd",
              "torch.distributed", "torch.jit", "torch.export", "torch.utils.checkpoint", "torch.func",
              "torch.nn.utils.parametrize", "torch.ao.quantization"):
        try:
            importlib.import_module(m)
        except Exception:  # pragma: no cover - a build without it
            pass
    seen = set()
    for name, mod in list(sys.modules.items()):
        if mod is None or not (name == "torch" or name.startswith("torch.")):
            continue
        for v in list(vars(mod).values()):
            if inspect.isclass(v) and v not in seen:
                seen.add(v)
                yield v
    np = pytest.importorskip("numpy")
    yield np.ndarray
    yield np.generic
    yield torch.Size


def _stands_for_a_tensor(c) -> bool:
    """Classes whose instances are tensors or stand in for them, or that user code does not
    hold: the legacy type objects (``torch.FloatTensor``: their instances are tensors), fx
    proxies (stand-ins for tensors during symbolic tracing), TorchScript type objects and
    symbolic-shape nodes (compiler internals), ``torch._C._VariableFunctions`` (the namespace
    ``torch.<function>`` comes from: reached only as an import), private classes."""
    if issubclass(c, torch._C.TensorBase) or type(c).__name__ == "tensortype":
        return True
    mod = c.__module__ or ""
    return (mod.startswith("torch.fx") or c.__name__.startswith("_")
            or any(p.startswith("_") for p in mod.split(".")[1:])
            or (mod in ("torch", "torch._C") and c.__name__.endswith("Type"))
            or "SymNode" in c.__name__)


#: classes of other libraries that torch's modules import, with a method of the same name, that
#: no copy idiom accepts: every idiom raises on an io stream as it is, so a fix changes nothing
#: (``_io.StringIO`` is in a torch module's namespace once ``torch.jit.trace`` has run)
OTHER_LIBRARIES = {"detach": ("io.BufferedIOBase", "_io.StringIO")}


@pytest.mark.parametrize("name", sorted(api.TENSOR_ONLY_METHODS | api.TENSOR_ONLY_TUPLE_METHODS))
def test_tensor_only_methods_are_methods_of_tensors_only(name):
    """A call ``x.m()`` that returned is evidence that ``x`` is a tensor only if no other class
    has a method ``m``: no class of torch (storages, ``torch.Size``, PackedSequence, nn.Module)
    or numpy does.  Not checked: classes of other libraries (``io.BufferedIOBase.detach`` is
    one; a stream is never a valid argument of a copy idiom)."""
    assert hasattr(torch.Tensor, name)
    others = []
    for c in _torch_classes():
        try:
            if _stands_for_a_tensor(c):
                continue
            attr = inspect.getattr_static(c, name)
        except (AttributeError, TypeError):
            continue
        if isinstance(attr, (property, types.MemberDescriptorType, types.GetSetDescriptorType)) \
                or type(attr).__name__ == "_tuplegetter":
            continue  # a field (``Shard.dim``, ``dtype.is_complex``): calling it raises
        others.append(f"{c.__module__}.{c.__qualname__}")
    others = [c for c in others if c not in OTHER_LIBRARIES.get(name, ())]
    assert not others, f"{name} is also a method of {others[:5]}"


def test_module_lookalike_methods_are_not_tensor_only():
    """The comment's claims: nn.Module has cuda/cpu/to/float/half/double/bfloat16/
    requires_grad_; torch.Size has numel; storages have data_ptr/element_size/long/pin_memory;
    PackedSequence has long/pin_memory: none of them is evidence."""
    for m in "cuda cpu to float half double bfloat16 requires_grad_".split():
        assert hasattr(torch.nn.Module, m) and m not in api.TENSOR_ONLY_METHODS
    assert torch.Size([2, 3]).numel() == 6 and "numel" not in api.TENSOR_ONLY_METHODS
    storage = torch.zeros(2).untyped_storage()
    for m in "data_ptr element_size long pin_memory".split():
        assert hasattr(storage, m) and m not in api.TENSOR_ONLY_METHODS
    for m in "long pin_memory".split():
        assert hasattr(torch.nn.utils.rnn.PackedSequence, m)


# ------------------------------------------------------------------------- layouts
def _permuted():
    # shape (2, 3), strides (1, 2): dense, not contiguous, and not a view
    return torch.empty_strided((2, 3), (1, 2)).uniform_(0.5, 1.5)


#: arguments for the layout checks (a contiguous tensor argument: the receiver decides)
LAYOUT_ARGS = {
    "to": [(torch.float64,), ("cpu",), ()], "type_as": [(torch.zeros(1, dtype=torch.int64),)],
    "pow": [(2,), (torch.rand(2, 3),)], "clamp": [(0.6,), (torch.rand(2, 3),)], "clip": [(0.6,)],
    "mul": [(2.0,), (torch.rand(2, 3),), (torch.rand(3),)], "div": [(2.0,), (torch.rand(2, 3) + 1,)],
    "add": [(2.0,), (torch.rand(2, 3),), (torch.rand(2, 1),)], "sub": [(2.0,), (torch.rand(2, 3),)],
    "masked_fill": [(torch.zeros(2, 3, dtype=torch.bool), 0.0), (torch.zeros(3, dtype=torch.bool), 0.0)],
    "masked_fill_": [(torch.zeros(2, 3, dtype=torch.bool), 0.0), (torch.zeros(3, dtype=torch.bool), 0.0)],
    "add_": [(2.0,), (torch.rand(2, 3),)], "sub_": [(2.0,)], "mul_": [(2.0,), (torch.rand(2, 3),)],
    "div_": [(2.0,)], "clamp_": [(0.6,)], "fill_": [(2.0,)], "float_power": [(2,)],
    "lerp": [(torch.rand(2, 3), 0.5)],
}


@pytest.mark.parametrize("name", sorted(api.LAYOUT_PRESERVING_METHODS))
def test_layout_preserving_methods_keep_sizes_and_strides(name):
    if name == "cuda" and not torch.cuda.is_available():
        pytest.skip("needs an accelerator")
    arg_sets = LAYOUT_ARGS.get(name, [()])
    done = 0
    for args in arg_sets:
        x = _permuted()
        if name.startswith("requires_grad"):
            x = x.float()
        y = getattr(x, name)(*args)
        assert y.shape == x.shape and y.stride() == x.stride(), (name, args, y.stride())
        done += 1
    assert done


SHAPE_ARGS = {"softmax": (0,), "log_softmax": (0,), "cumsum": (0,), "cumprod": (0,), "flip": ((0,),),
              "roll": (1,), "tril": (), "triu": (), "masked_fill": (torch.zeros(3, dtype=torch.bool), 0.0)}


@pytest.mark.parametrize("name", sorted(api.SHAPE_PRESERVING_METHODS))
def test_shape_preserving_methods_keep_sizes(name):
    x = _permuted()
    assert getattr(x, name)(*SHAPE_ARGS[name]).shape == x.shape


@pytest.mark.parametrize("name", sorted(api.SIZE_FACTORIES))
def test_size_factories_take_sizes_either_way(name):
    for args in ((2, 3), ((2, 3),), ([2, 3],)):
        t = getattr(torch, name)(*args)
        assert t.shape == (2, 3) and t.is_contiguous()


# ----------------------------------------------------------------------- not tensors
@pytest.mark.parametrize("name", sorted(api.NON_TENSOR_TORCH_ATTRIBUTES))
def test_torch_attribute_is_no_tensor(name):
    assert hasattr(torch, name)
    assert not _is_tensor(getattr(torch, name))


#: explicit calls of the not-a-tensor torch functions (some change global state: restored)
NON_TENSOR_FUNCTION_CALLS = {
    "finfo": [(torch.float32,), ()], "iinfo": [(torch.int32,)], "is_tensor": [(_f(),), ([1],)],
    "is_floating_point": [(_f(),), (_i(),)], "numel": [(_f(),)], "device": [("cpu",)],
    "Size": [((2, 3),), ()], "get_default_dtype": [()], "manual_seed": [(0,)],
    "is_grad_enabled": [()], "no_grad": [()], "enable_grad": [()], "inference_mode": [()],
    "get_default_device": [()], "is_complex": [(_f(),), (_c(),)],
    "set_default_dtype": [(torch.float32,)], "set_default_device": [(None,)],
    "cuda.is_available": [()],
}


@pytest.mark.parametrize("name", sorted(api.NON_TENSOR_TORCH_FUNCTIONS))
def test_torch_non_tensor_function_returns_no_tensor(name):
    obj = torch
    for part in name.split("."):
        assert hasattr(obj, part), f"torch.{name} does not exist"
        obj = getattr(obj, part)
    if name == "dtype":
        with pytest.raises(TypeError):  # no constructor: calling it never returns
            obj()
        return
    if name not in NON_TENSOR_FUNCTION_CALLS:
        # proven by torch's schemas or annotations (some set global state: not called here)
        assert f"torch.{name}" in facts.NON_TENSOR_FUNCTIONS, f"torch.{name}: add a sample call"
        return
    dtype = torch.get_default_dtype()
    try:
        results = [obj(*args) for args in NON_TENSOR_FUNCTION_CALLS[name]]
    finally:
        torch.set_default_dtype(dtype)
        torch.set_default_device(None)  # the tests run with none set
    assert results and not any(_is_tensor(r) for r in results)


#: builtins called on tensors (the analysis applies NON_TENSOR_BUILTINS to any argument)
BUILTIN_CALLS = {
    "len": [("F",)], "int": [("Z",)], "float": [("Z",)], "bool": [("Z",)], "str": [("F",)],
    "repr": [("F",)], "list": [("F",)], "tuple": [("F",)], "dict": [([(1, _f())],)], "set": [("V",)],
    "frozenset": [("V",)], "range": [(torch.tensor(3),)], "enumerate": [("F",)], "zip": [("F", "F")],
    "sorted": [("V",)], "isinstance": [("F", torch.Tensor)], "issubclass": [(torch.Tensor, object)],
    "hasattr": [("F", "shape")], "type": [("F",)], "id": [("F",)], "hash": [("F",)],
}


@pytest.mark.parametrize("name", sorted(api.NON_TENSOR_BUILTINS))
def test_builtin_returns_no_tensor(name):
    fn = getattr(builtins, name)
    _check(_calls(fn, BUILTIN_CALLS[name]), _not_tensor, name)


class _Dunders:
    """A value whose dunders return tensors (what ``round``/``divmod`` hand back unchecked)."""

    def __round__(self, n=None):
        return torch.zeros(1)

    def __divmod__(self, other):
        return torch.zeros(1)


@pytest.mark.parametrize("name", ["abs", "min", "max", "sum", "round", "getattr", "divmod"])
def test_builtins_left_out_may_return_tensors(name):
    """Why they are not in NON_TENSOR_BUILTINS."""
    assert name not in api.NON_TENSOR_BUILTINS
    samples = {"abs": ("F",), "min": ("Z", 3.0), "max": ("Z", 1.0), "sum": (["F", "F"],),
               "round": (_Dunders(),), "getattr": ("F", "T"), "divmod": (_Dunders(), 2)}
    assert _is_tensor(getattr(builtins, name)(*_make(samples[name])))


def test_builtins_carrying_items():
    """``list``/``tuple``/``iter``/``zip``/``enumerate`` of a tensor are no tensors and yield its
    rows; ``reversed`` of a tensor is a tensor (``Tensor.__reversed__`` flips it): it carries the
    items, and its own kind stays unknown."""
    for name in ("list", "tuple", "iter"):
        out = getattr(builtins, name)(_f())
        assert not _is_tensor(out) and all(_is_tensor(r) for r in out)
    assert all(_is_tensor(b) for _, b in zip(_f(), _f())) and all(_is_tensor(r) for _, r in enumerate(_f()))
    assert _is_tensor(reversed(_f()))
    from flake8_torchcopy.analysis.values import NOT, TENSOR, UNKNOWN, Value

    rows = Value(TENSOR)
    assert yields.builtin_yield("reversed", [rows]).kind == UNKNOWN
    assert all(yields.builtin_yield(n, [rows]).kind == NOT for n in ("list", "tuple", "iter", "enumerate", "zip"))
    assert yields._PASS_THROUGH | {"zip", "enumerate", "range"} == yields.BUILTINS
    assert yields.builtin_yield("range", [Value(NOT)]).item.kind == NOT  # range yields ints


# ------------------------------------------------------------------------------ dtypes
@pytest.mark.parametrize("name", sorted(api.DTYPE_NAMES))
def test_dtype_names_are_dtypes(name):
    assert isinstance(getattr(torch, name), torch.dtype)


@pytest.mark.parametrize("name", sorted(api.NON_FLOAT_DTYPES))
def test_non_float_dtypes_are_refused_by_module_to(name):
    """``x.to(torch.int32)`` proves x a tensor: nn.Module.to raises for these dtypes."""
    d = getattr(torch, name)
    assert not d.is_floating_point and not d.is_complex
    with pytest.raises(TypeError):
        torch.nn.Linear(1, 1).to(d)
    with pytest.raises(TypeError):
        torch.nn.Linear(1, 1).to(dtype=d)
    assert _is_tensor(_f().to(d))


_LEGACY_DTYPES = {"Tensor": torch.float32, "FloatTensor": torch.float32, "DoubleTensor": torch.float64,
                  "HalfTensor": torch.float16, "BFloat16Tensor": torch.bfloat16, "LongTensor": torch.int64,
                  "IntTensor": torch.int32, "ShortTensor": torch.int16, "CharTensor": torch.int8,
                  "ByteTensor": torch.uint8, "BoolTensor": torch.bool}


@pytest.mark.parametrize("name", sorted(api.LEGACY_CONSTRUCTORS))
def test_legacy_constructors_alias_their_argument(name):
    assert hasattr(torch, name), f"torch.{name} does not exist"
    t = torch.zeros(2, 3, dtype=_LEGACY_DTYPES[name])
    out = getattr(torch, name)(t)
    assert out.data_ptr() == t.data_ptr() and out.shape == t.shape  # an alias, not a copy


# ------------------------------------------------------------------------------ yields
def test_every_yields_receiver_is_one_the_analysis_proves():
    """Each entry applies to a receiver the analysis proves (a tensor) or to a mapping whose
    values it knows: nothing is assumed of a receiver of unknown kind."""
    assert {receiver for receiver, _ in yields.YIELDS.values()} <= {"tensor", "mapping"}


@pytest.mark.parametrize("name", sorted(m for m, (r, _) in yields.YIELDS.items() if r == "tensor"))
def test_tensor_pieces_are_tuples_of_tensors(name):
    arg_sets = [(), (1,), (0,), (2,), (1, 1), ([1, 2], 1), ([1, 1], 0)]
    proven = name in facts.TENSOR_LIST_METHODS or name in facts.TUPLE_METHODS
    _check(_method_calls(name, receivers=["F", "SQ", "V", "T3"], arg_sets=arg_sets), _tensor_tuple,
           f"Tensor.{name}", proven=proven)


@pytest.mark.parametrize("name", sorted(yields.TORCH_FUNCTIONS))
def test_torch_functions_of_yields_return_tuples_of_tensors(name):
    arg_sets = [(), (1,), (0,), (2,), (1, 1), ([1, 2], 1), ([1, 1], 0)]
    q = f"torch.{name}"
    proven = q in facts.TENSOR_LIST_FUNCTIONS or set(facts.TUPLE_FUNCTIONS.get(q, ("?",))) == {"Tensor"}
    _check(_calls(getattr(torch, name), [("F",) + a for a in arg_sets]), _tensor_tuple, q, proven=proven)


@pytest.mark.parametrize("name", sorted(m for m, (r, _) in yields.YIELDS.items() if r == "mapping"))
def test_mapping_entries_are_dict_methods(name):
    d = {"a": _f()}
    assert all(_is_tensor(v) for v in (v for _, v in d.items())) and hasattr(dict, name)


def test_iterating_a_tensor_yields_tensors():
    assert all(_is_tensor(row) for row in _f())
    assert all(_is_tensor(row) for row in _v())


def test_state_dict_and_parameters_of_other_objects_are_no_tensors():
    """Why ``state_dict()``/``parameters()`` of a receiver of unknown kind prove nothing: an
    optimizer's, a scheduler's and a GradScaler's state_dict hold numbers, lists and dicts; a
    module's holds whatever ``get_extra_state`` returns."""
    model = torch.nn.Linear(2, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, 1)
    scaler = torch.amp.GradScaler("cpu")
    for obj in (opt, sched, scaler):
        sd = obj.state_dict()
        assert any(not _is_tensor(v) for v in sd.values()), type(obj)
    assert not _is_tensor(opt.state_dict()["param_groups"])

    class Extra(torch.nn.Module):
        def get_extra_state(self):
            return {"version": 2}

        def set_extra_state(self, state):
            pass

    assert not _is_tensor(Extra().state_dict()["_extra_state"])
    assert not hasattr(opt, "named_parameters") and not hasattr(opt, "parameters")


LIBRARY_LOOKALIKES = {
    "state_dict values": """
        def backup(obj):
            return {k: copy.deepcopy(v) for k, v in obj.state_dict().items()}
        """,
    "a state_dict subscript": """
        def lr(obj):
            return torch.tensor(obj.state_dict()["param_groups"])
        """,
    "state_dict values()": """
        def backup(obj):
            for v in obj.state_dict().values():
                copy.deepcopy(v)
        """,
    "parameters": """
        def backup(obj):
            for p in obj.parameters():
                copy.deepcopy(p)
        """,
    "named_parameters": """
        def backup(obj):
            return [torch.tensor(p) for _, p in obj.named_parameters()]
        """,
    "buffers": """
        def backup(obj):
            return [copy.deepcopy(b) for b in obj.buffers()]
        """,
    "named_buffers": """
        def backup(obj):
            for name, b in obj.named_buffers():
                copy.deepcopy(b)
        """,
}


@pytest.mark.parametrize("name", LIBRARY_LOOKALIKES)
def test_library_calls_on_receivers_of_unknown_kind_prove_nothing(name):
    import textwrap

    src = "import copy\nimport torch\n\n" + textwrap.dedent(LIBRARY_LOOKALIKES[name]).lstrip("\n")
    assert lint_source(src) == []


def test_tensor_pieces_still_count():
    src = ("import copy\nimport torch\n\ndef f():\n    x = torch.randn(4, 3)\n"
           "    for a, b in zip(x.unbind(0), x.chunk(4)):\n        copy.deepcopy(b)\n")
    assert [f.code for f in lint_source(src)] == ["TRC105"]


def test_module_attributes_cover_what_nn_module_holds():
    """A class summary never claims a name nn.Module (its class or a fresh instance) holds."""
    held = set(dir(torch.nn.Module)) | set(vars(torch.nn.Module()))
    missing = {n for n in held if not (n.startswith("__") and n.endswith("__"))} - api.MODULE_ATTRIBUTES
    assert not missing, sorted(missing)


def test_the_module_base_names_are_nn_module():
    from flake8_torchcopy.analysis import summaries

    for q in summaries._MODULE_BASES:
        obj = importlib.import_module(q.rsplit(".", 1)[0])
        assert getattr(obj, q.rsplit(".", 1)[1]) is torch.nn.Module


def _resolve(qualname: str):
    parts = qualname.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for p in parts[i:]:
            obj = getattr(obj, p)
        return obj
    raise ImportError(qualname)


@pytest.mark.parametrize("qualname", sorted(torchsem.NON_TENSOR_QUALNAMES))
def test_non_tensor_qualnames_are_no_tensor_classes(qualname):
    """torchsem's calls that never return a tensor: classes that are no Tensor."""
    obj = _resolve(qualname)
    obj = getattr(obj, "__origin__", obj)  # typing.Sequence: collections.abc.Sequence
    assert inspect.isclass(obj) and not issubclass(obj, torch.Tensor)


@pytest.mark.parametrize("qualname", sorted(torchsem.TENSOR_TYPES))
def test_tensor_types_are_tensor_classes(qualname):
    assert issubclass(_resolve(qualname), torch.Tensor)
