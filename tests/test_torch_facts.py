"""The generated data module (analysis/torchfacts.py) checked against the torch the tests pin.

Two checks: the module is exactly what ``tools/gen_torch_facts.py`` writes from this torch (an
entry wrong or missing after a change of torch or of the generator fails here), and each table
agrees with what torch does when run: every entry is tried on the generic samples of
test_library_facts.py and must return what its table says wherever a call succeeds; views
share storage, in-place methods return their receiver, pointwise ops broadcast, and the ops
that preserve the memory format keep a permuted input's strides.

Last, every name the analysis tables mention exists in torch.
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import warnings
from pathlib import Path

import pytest

from flake8_torchcopy.analysis import methodlayouts, subclasses, torchsem, yields
from flake8_torchcopy.analysis import torchapi as api
from flake8_torchcopy.analysis import torchfacts as facts

torch = pytest.importorskip("torch")

import test_library_facts as lib  # noqa: E402  (the samples; tests/ is on sys.path under pytest)

pytestmark = pytest.mark.filterwarnings("ignore")

ROOT = Path(__file__).resolve().parent.parent


def _generator():
    spec = importlib.util.spec_from_file_location("gen_torch_facts", ROOT / "tools" / "gen_torch_facts.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def _resolve(qualname: str):
    mod, _, name = qualname.rpartition(".")
    return getattr(importlib.import_module(mod), name)


# ------------------------------------------------------------------ the module is current
def test_module_is_what_the_generator_writes():
    gen = _generator()
    text = gen.render()
    assert text == gen.TARGET.read_text(), (
        "flake8_torchcopy/analysis/torchfacts.py differs from what this torch gives: "
        "run `python tools/gen_torch_facts.py` and review the diff")


def test_module_names_its_torch_and_its_command():
    assert torch.__version__.split("+")[0] == facts.TORCH_VERSION
    head = (ROOT / "flake8_torchcopy" / "analysis" / "torchfacts.py").read_text()[:400]
    assert "DO NOT EDIT" in head and "python tools/gen_torch_facts.py" in head


def test_module_imports_nothing():
    tree = ast.parse((ROOT / "flake8_torchcopy" / "analysis" / "torchfacts.py").read_text())
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


# ------------------------------------------------------------------ every name exists
FUNCTION_TABLES = ("TENSOR_FUNCTIONS", "TENSOR_LIST_FUNCTIONS", "TUPLE_FUNCTIONS", "NON_TENSOR_FUNCTIONS",
                   "VARYING_FUNCTIONS", "UNDESCRIBED_FUNCTIONS")
METHOD_TABLES = ("TENSOR_METHODS", "TENSOR_LIST_METHODS", "TUPLE_METHODS", "NON_TENSOR_METHODS",
                 "VARYING_METHODS", "UNDESCRIBED_METHODS")
OP_TABLES = ("ALIASING_OPS", "VIEW_OPS", "INPLACE_OPS", "POINTWISE_OPS", "PRESERVE_FORMAT_OPS")


def test_names_exist_and_tables_are_disjoint():
    seen = {}
    for table in FUNCTION_TABLES:
        for q in getattr(facts, table):
            assert callable(_resolve(q)), q
            assert q not in seen, (q, table, seen.get(q))
            seen[q] = table
    seen = {}
    for table in METHOD_TABLES:
        for m in getattr(facts, table):
            assert callable(getattr(torch.Tensor, m)), m
            assert m not in seen, (m, table, seen.get(m))
            seen[m] = table
    for table in OP_TABLES:
        for op in getattr(facts, table):
            assert getattr(torch.ops.aten, op).overloads(), (table, op)


def test_aliases_are_the_same_operator():
    x, y = lib._f(), lib._f()
    for alias, op in facts.ALIASES.items():
        a, b = getattr(torch, alias), getattr(torch, op)
        for args in ((x,), (x, y)):
            try:
                expected = b(*args)
            except Exception:
                continue
            torch.testing.assert_close(a(*args), expected, equal_nan=True, msg=alias)
            break


def test_tables_are_not_empty():
    for table in FUNCTION_TABLES + METHOD_TABLES + OP_TABLES:
        assert getattr(facts, table), table


# ------------------------------------------------------------------ returns, by running torch
def _function_calls(q):
    return lib._calls(_resolve(q), lib.FUNCTION_ARGS)


def _check_all(names, calls_of, claim, at_least):
    """Every successful sample call returns what ``claim`` accepts; at least ``at_least``
    of the names had one."""
    wrong, ran = [], 0
    for n in sorted(names):
        calls = calls_of(n)
        ran += bool(calls)
        wrong += [(n, spec, type(r).__name__) for spec, r in calls if not claim(n, r)]
    assert not wrong, f"returns what the table does not say: {wrong[:5]}"
    assert ran >= at_least, f"only {ran} of {len(names)} entries ran on a sample"


def test_tensor_functions_return_tensors():
    _check_all(facts.TENSOR_FUNCTIONS, _function_calls, lambda n, r: isinstance(r, torch.Tensor), 500)


def test_tensor_methods_return_tensors():
    _check_all(facts.TENSOR_METHODS, lib._method_calls, lambda n, r: isinstance(r, torch.Tensor), 350)


def _tensor_tuple(r):
    return isinstance(r, tuple) and all(isinstance(e, torch.Tensor) for e in r)


def test_tensor_list_functions_and_methods_return_tuples_of_tensors():
    _check_all(facts.TENSOR_LIST_FUNCTIONS, _function_calls, lambda n, r: _tensor_tuple(r), 8)
    _check_all(facts.TENSOR_LIST_METHODS, lib._method_calls, lambda n, r: _tensor_tuple(r), 7)


def _positions(kinds, r):
    return isinstance(r, tuple) and len(r) == len(kinds) and all(
        isinstance(e, torch.Tensor) == (k == "Tensor") for k, e in zip(kinds, r))


def test_tuple_functions_and_methods_return_their_positions():
    _check_all(facts.TUPLE_FUNCTIONS, _function_calls,
               lambda n, r: _positions(facts.TUPLE_FUNCTIONS[n], r), 20)
    _check_all(facts.TUPLE_METHODS, lib._method_calls,
               lambda n, r: _positions(facts.TUPLE_METHODS[n], r), 10)


@pytest.mark.parametrize("name, args, fields", [
    ("topk", (2,), ("values", "indices")), ("sort", (), ("values", "indices")),
    ("kthvalue", (1,), ("values", "indices")), ("mode", (), ("values", "indices")),
    ("cummax", (0,), ("values", "indices")), ("aminmax", (), ("min", "max")),
])
def test_tuple_methods_are_named_tuples_of_tensors(name, args, fields):
    r = getattr(lib._f(), name)(*args)
    assert facts.TUPLE_METHODS[name] == ("Tensor",) * len(fields)
    assert len(r) == len(fields) and all(getattr(r, f) is r[i] for i, f in enumerate(fields))
    assert _tensor_tuple(tuple(r))


def test_non_tensor_functions_and_methods_return_no_tensor():
    def claim(n, r):
        return not isinstance(r, torch.Tensor) and not (
            isinstance(r, (tuple, list)) and any(isinstance(e, torch.Tensor) for e in r))
    before = torch.get_default_dtype()
    try:
        queries = ("is_", "can_", "equal", "allclose", "numel")  # none of them sets global state
        _check_all({q for q in facts.NON_TENSOR_FUNCTIONS if q.rpartition(".")[2].startswith(queries)},
                   _function_calls, claim, 5)
    finally:
        torch.set_default_dtype(before)
    _check_all(facts.NON_TENSOR_METHODS - {"record_stream"}, lib._method_calls, claim, 15)


def test_varying_entries_do_vary():
    x = lib._f()
    assert isinstance(x.max(), torch.Tensor) and _tensor_tuple(tuple(x.max(0)))
    assert isinstance(torch.median(x), torch.Tensor) and _tensor_tuple(tuple(torch.median(x, 0)))
    assert isinstance(x.nonzero(), torch.Tensor) and _tensor_tuple(x.nonzero(as_tuple=True))
    assert isinstance(torch.where(lib._b(), x, x), torch.Tensor) and _tensor_tuple(torch.where(lib._b()))
    for name in ("max", "min", "median", "nanmedian", "nonzero"):
        assert name in facts.VARYING_METHODS and f"torch.{name}" in facts.VARYING_FUNCTIONS
    assert facts.VARYING_METHODS["max"] == ("(Tensor, Tensor)", "Tensor")


# ------------------------------------------------------------------ operator tables
def _same_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def _receiver_calls(name, receivers=("F", "SQ", "V", "C", "T3", "T4"), arg_sets=lib.METHOD_ARGS):
    """``(receiver, args, result)`` of each successful ``receiver.name(*args)``."""
    out = []
    for r in receivers:
        for spec in arg_sets:
            x = lib._make(r)
            args = lib._make(spec)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    res = getattr(x, name)(*args)
                except Exception:
                    continue
            out.append((x, spec, res))
    return out


def test_view_ops_share_storage():
    ran = 0
    for op in sorted(facts.VIEW_OPS):
        if not hasattr(torch.Tensor, op) or op in ("values", "indices", "crow_indices", "col_indices",
                                                     "ccol_indices", "row_indices"):
            continue  # sparse tensors' parts: views of their buffers, not of a strided tensor
        calls = [(x, s, r) for x, s, r in _receiver_calls(op) if isinstance(r, torch.Tensor)]
        ran += bool(calls)
        wrong = [(op, s) for x, s, r in calls if not _same_storage(x, r)]
        assert not wrong, wrong[:3]
    assert ran >= 10


def test_sparse_parts_are_views():
    s = lib._f().to_sparse().coalesce()
    assert _same_storage(s.values(), s._values()) and _same_storage(s.indices(), s._indices())
    c = lib._f().to_sparse_csr()
    assert _same_storage(c.crow_indices(), c.crow_indices()) and {"values", "crow_indices"} <= facts.VIEW_OPS


def test_aliasing_ops_alias_a_contiguous_receiver_somewhere():
    """``Tensor(a) self -> Tensor(a)`` says the result may alias: each one does on a sample."""
    skip = {"values", "indices", "crow_indices", "col_indices", "ccol_indices", "row_indices", "coalesce",
            "pin_memory", "lift_fresh"}
    ran = 0
    for op in sorted(facts.ALIASING_OPS - skip):
        if not hasattr(torch.Tensor, op):
            continue
        calls = [(x, r) for x, s, r in _receiver_calls(op) if isinstance(r, torch.Tensor)]
        if calls:
            ran += 1
            assert any(_same_storage(x, r) for x, r in calls), op
    assert ran >= 28
    assert {"reshape", "contiguous", "to", "flatten", "movedim"} <= facts.ALIASING_OPS
    assert not {"reshape", "contiguous", "to", "flatten"} & facts.VIEW_OPS  # these may copy
    y = lib._f()
    assert y.type_as(y) is y and "type_as" not in facts.ALIASING_OPS  # what the comment says
    x = lib._f().t()
    assert not _same_storage(x, x.reshape(6)) and not _same_storage(x, x.contiguous())


def test_inplace_ops_return_their_receiver():
    ran = 0
    for op in sorted(facts.INPLACE_OPS):
        if not hasattr(torch.Tensor, op):
            continue
        calls = _receiver_calls(op, receivers=("F", "SQ", "V"))
        ran += bool(calls)
        wrong = [(op, s) for x, s, r in calls if r is not x]
        assert not wrong, wrong[:3]
    assert ran >= 100
    assert all(op.endswith("_") for op in facts.INPLACE_OPS if hasattr(torch.Tensor, op))


def test_pointwise_ops_broadcast():
    a = torch.rand(2, 1) + 0.5
    b = torch.rand(1, 3) + 0.5
    unary = binary = 0
    for op in sorted(facts.POINTWISE_OPS):
        fn = getattr(torch, op, None)
        if fn is None or op.endswith("_"):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                r = fn(a, b)
            except Exception:
                r = None
            if isinstance(r, torch.Tensor):
                assert r.shape == (2, 3), op
                binary += 1
            try:
                r = fn(b)
            except Exception:
                r = None
            if isinstance(r, torch.Tensor):
                assert r.shape == b.shape, op
                unary += 1
    assert unary >= 55 and binary >= 35


def test_preserve_format_ops_keep_a_permuted_tensors_strides():
    x = lib._permuted()
    for op in sorted(facts.PRESERVE_FORMAT_OPS):
        fn = getattr(torch, op, None)
        if fn is None or not op.endswith("_like"):
            continue
        y = fn(x, *{"full_like": (2.0,), "randint_like": (5,)}.get(op, ()))
        assert y.stride() == x.stride(), op
    assert x.clone().stride() == x.stride() and x.to(torch.float64).stride() == x.stride()
    assert {"clone", "to", "empty_like", "zeros_like"} <= facts.PRESERVE_FORMAT_OPS
    assert "contiguous" not in facts.PRESERVE_FORMAT_OPS


def test_generator_reads_manual_bindings_and_annotations():
    gen = _generator()
    assert gen.MANUAL_BINDINGS["nonzero"] == ("Tensor", "Tensor[]")
    assert gen._kind_of(torch.Tensor) == "Tensor"
    assert gen._kind_of(tuple[torch.Tensor, ...]) == "Tensor[]"
    assert gen._kind_of(tuple[torch.Tensor, int]) == "(Tensor, int)"
    assert gen._kind_of(list) is None
    assert "torch.split" in facts.TENSOR_LIST_FUNCTIONS  # a Python function, by its annotation
    assert "torch.nn.functional.relu" in facts.TENSOR_FUNCTIONS


# ------------------------------------------------------------------ the analysis' names exist
def _analysis_names():
    """(what, name) for every torch name the analysis tables spell."""
    out = []
    torch_functions = (api.TENSOR_FUNCTIONS | api.NON_TENSOR_TORCH_FUNCTIONS | api.SIZE_FACTORIES
                       | api.LEGACY_CONSTRUCTORS | yields.TORCH_FUNCTIONS | torchsem._TORCH_POINTWISE)
    out += [("torch", n) for n in torch_functions]
    out += [("torch", n) for n in api.NON_TENSOR_TORCH_ATTRIBUTES | api.DTYPE_NAMES | api.NON_FLOAT_DTYPES]
    out += [("torch", q[6:]) for q in subclasses._DATA_FACTORIES]
    out += [("torch.nn.functional", n) for n in api.FUNCTIONAL_TENSOR_FUNCTIONS | torchsem._FUNCTIONAL_POINTWISE]
    methods = (api.TENSOR_METHODS | api.TENSOR_ONLY_METHODS | api.NON_TENSOR_METHODS
               | api.LAYOUT_PRESERVING_METHODS | api.SHAPE_PRESERVING_METHODS
               | torchsem._LAYOUT_METHODS | methodlayouts._ALIASES | methodlayouts._COPIES
               | set(methodlayouts.METHOD_LAYOUT)
               | {m for m, (recv, _) in yields.YIELDS.items() if recv == "tensor"})
    out += [("Tensor", m) for m in methods]
    out += [("Tensor", a) for a in api.NON_TENSOR_ATTRIBUTES | api.TENSOR_ATTRIBUTES]
    out += [("Module", a) for a in api.MODULE_ATTRIBUTES]
    out += [("qualname", q) for q in torchsem.TENSOR_CONSTRUCTORS | torchsem.TENSOR_TYPES]
    return sorted(set(out))


def _exists(what, name):
    if what == "Tensor":
        return hasattr(torch.Tensor, name) or hasattr(torch.zeros(1), name)
    if what == "Module":
        return hasattr(torch.nn.Module, name) or hasattr(torch.nn.Module(), name)
    if what == "qualname":
        try:
            obj = importlib.import_module(name.split(".")[0])
            for part in name.split(".")[1:]:
                obj = getattr(obj, part)
        except (ImportError, AttributeError):
            return False
        return True
    obj = importlib.import_module(what)
    for part in name.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def test_every_name_the_analysis_spells_exists_in_torch():
    missing = [(w, n) for w, n in _analysis_names() if not _exists(w, n)]
    assert not missing, f"not in torch {torch.__version__}: {missing}"
    assert len(_analysis_names()) > 600


def test_analysis_tables_agree_with_the_facts():
    """Where a hand table and the generated facts speak of the same thing, they agree."""
    # a method the analysis takes to return a tensor is no method torch says returns something else
    assert not api.TENSOR_METHODS & (facts.NON_TENSOR_METHODS | set(facts.VARYING_METHODS)
                                     | facts.TENSOR_LIST_METHODS | set(facts.TUPLE_METHODS))
    assert not api.NON_TENSOR_METHODS & (facts.TENSOR_METHODS | set(facts.VARYING_METHODS))
    torch_names = {"torch." + n for n in api.TENSOR_FUNCTIONS}
    assert not torch_names & (set(facts.VARYING_FUNCTIONS) | facts.NON_TENSOR_FUNCTIONS
                              | facts.TENSOR_LIST_FUNCTIONS | set(facts.TUPLE_FUNCTIONS))
    # what the hand tables add to the facts is what torch does not describe
    assert api.TENSOR_METHODS - facts.TENSOR_METHODS <= facts.UNDESCRIBED_METHODS
    assert {m for m in api.NON_TENSOR_METHODS - facts.NON_TENSOR_METHODS
            if not m.startswith("__")} <= facts.UNDESCRIBED_METHODS
    assert {"torch." + n for n in api.TENSOR_FUNCTIONS} - facts.TENSOR_FUNCTIONS <= facts.UNDESCRIBED_FUNCTIONS
    assert {"torch.nn.functional." + n for n in api.FUNCTIONAL_TENSOR_FUNCTIONS} - facts.TENSOR_FUNCTIONS \
        <= facts.UNDESCRIBED_FUNCTIONS
    assert {"tolist", "numpy", "type", "float", "cuda"} <= facts.UNDESCRIBED_METHODS
    # the layout tables' aliases and copies: views or in-place ops, and preserve-format copies
    assert "detach" in facts.VIEW_OPS and {"detach_", "requires_grad_"} <= facts.INPLACE_OPS
    assert methodlayouts._ALIASES == {"detach", "detach_", "requires_grad_"}
    assert methodlayouts._COPIES & set(facts.ALIASING_OPS | facts.PRESERVE_FORMAT_OPS) == {"clone", "to"}
    assert methodlayouts._COPIES - {"clone", "to"} <= facts.UNDESCRIBED_METHODS | {"type_as"}
    # the pointwise tables are TensorIterator ops: tagged pointwise by torch, or aliases of such;
    # floor_divide is a TensorIterator op torch does not tag
    tagged = facts.POINTWISE_OPS | {a for a, op in facts.ALIASES.items() if op in facts.POINTWISE_OPS}
    assert torchsem._TORCH_POINTWISE - tagged == {"floor_divide"}
    assert {"pow", "float_power"} <= api.TENSOR_FUNCTIONS - torchsem._TORCH_POINTWISE
    assert {"subtract": "sub", "clip": "clamp", "fix": "trunc"}.items() <= facts.ALIASES.items()
    assert inspect.ismodule(facts)


# ------------------------------------------------------------------ TensorIterator functions
def _layouts():
    """Fresh inputs of one dense, permuted layout (shape (2, 4, 3), strides (1, 6, 2)), by dtype."""
    return {
        "float": lambda: (torch.rand(4, 3, 2) + 0.5).permute(2, 0, 1),
        "int": lambda: torch.randint(1, 5, (4, 3, 2)).permute(2, 0, 1),
        "bool": lambda: (torch.rand(4, 3, 2) > 0.5).permute(2, 0, 1),
    }


def _tensor_iterator_calls(name):
    """``(args, result)`` of each successful call of ``torch.name`` whose tensor inputs all have
    the permuted layout (Python numbers besides)."""
    fn = getattr(torch, name)
    out = []
    for make in _layouts().values():
        for spec in (("T",), ("T", "T"), ("T", 2), ("T", 2.0), ("T", "T", "T"), ("T", "T", 0.5),
                     ("T", 0.3, 0.9), (1, "T"), (2, "T"), ("T", 2, 3)):
            args = tuple(make() if a == "T" else a for a in spec)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    r = fn(*args)
                except Exception:
                    continue
            out.append((spec, r))
    return out


@pytest.mark.parametrize("name", sorted(torchsem._TORCH_POINTWISE))
def test_tensor_iterator_functions_keep_their_inputs_layout(name):
    """What ``elementwise_layout`` assumes of ``torch.<name>``: inputs of the same sizes and
    dense strides give an output of those sizes and strides."""
    calls = _tensor_iterator_calls(name)
    assert calls, f"torch.{name}: no sample call succeeded"
    x = _layouts()["float"]()
    wrong = [(spec, tuple(r.shape), r.stride()) for spec, r in calls
             if not isinstance(r, torch.Tensor) or r.shape != x.shape or r.stride() != x.stride()]
    assert not wrong, f"torch.{name}: {wrong[:3]}"


@pytest.mark.parametrize("name", sorted(methodlayouts._ELEMENTWISE_METHODS))
def test_tensor_iterator_methods_keep_their_inputs_layout(name):
    """What ``METHOD_LAYOUT`` assumes of ``x.<name>(...)``: a receiver and tensor arguments of
    the same sizes and dense strides give an output of those sizes and strides."""
    calls = []
    for make in _layouts().values():
        for spec in ((), ("T",), (2,), (2.0,), ("T", "T"), ("T", 0.5), (0.3, 0.9), (2, 3)):
            x = make()
            args = tuple(make() if a == "T" else a for a in spec)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    calls.append((spec, getattr(x, name)(*args)))
                except Exception:
                    continue
    assert calls, f"Tensor.{name}: no sample call succeeded"
    x = _layouts()["float"]()
    wrong = [(spec, tuple(r.shape), r.stride()) for spec, r in calls
             if not isinstance(r, torch.Tensor) or r.shape != x.shape or r.stride() != x.stride()]
    assert not wrong, f"Tensor.{name}: {wrong[:3]}"


def test_tensor_iterator_methods_are_the_functions_that_are_methods():
    """Derived, not listed: the comparisons the hand list held, and more."""
    assert methodlayouts._ELEMENTWISE_METHODS <= torchsem._TORCH_POINTWISE
    assert set("eq ne lt le gt ge logical_and logical_or logical_xor maximum minimum fmod remainder"
               .split()) <= methodlayouts._ELEMENTWISE_METHODS
    assert {"pow", "float_power", "clone", "mvlgamma"}.isdisjoint(methodlayouts._ELEMENTWISE_METHODS)


@pytest.mark.parametrize("name, args", [
    ("clone", {"memory_format": torch.contiguous_format}), ("rrelu", ()), ("mvlgamma", (2,)),
    ("pow", 2), ("float_power", 2),
])
def test_tagged_functions_left_out_of_the_tensor_iterator_ones(name, args):
    """Each makes a contiguous output of a permuted input in some call."""
    assert name in facts.POINTWISE_OPS and name not in torchsem._TORCH_POINTWISE
    x = _layouts()["float"]()
    if isinstance(args, dict):
        r = getattr(torch, name)(x, **args)
    elif isinstance(args, tuple):
        r = getattr(torch, name)(x, *args)
    else:
        r = getattr(torch, name)(args, x)  # a number first
    assert r.shape == x.shape and r.is_contiguous() and not x.is_contiguous()


def test_a_number_to_the_power_of_a_permuted_tensor_is_contiguous():
    """``torch.pow(2, x.transpose(1, 2))`` is contiguous: its ``.view`` works, and is not reported."""
    from flake8_torchcopy import lint_source

    src = ("import torch\nx = torch.randn(2, 3, 4)\ny = torch.pow(2, x.transpose(1, 2))\nz = y.view(2, 12)\n"
           "u = (x.transpose(1, 2) * 2).view(2, 12)\n")
    x = torch.randn(2, 3, 4)
    assert torch.pow(2, x.transpose(1, 2)).view(2, 12).shape == (2, 12)
    assert [(f.line, f.code) for f in lint_source(src)] == [(5, "TRC201")]
