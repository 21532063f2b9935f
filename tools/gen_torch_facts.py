#!/usr/bin/env python
"""Write ``flake8_torchcopy/analysis/torchfacts.py``: PyTorch facts read from torch itself.

A developer runs this (never the linter)::

    python tools/gen_torch_facts.py            # rewrite the data module
    python tools/gen_torch_facts.py --check    # exit 1 when the checked-in module differs

What it reads, from the torch installed in the running interpreter:

* the dispatcher's ATen operators (``torch._C._dispatch_get_all_op_names()``; the
  TorchScript-only overloads such as ``aten::add.t`` on lists are not among them) and each
  overload's schema (``torch.ops.aten.<op>.<overload>._schema``) and tags;
* the Python API: the public callables of ``torch``, ``torch.nn.functional``,
  ``torch.linalg``, ``torch.fft``, ``torch.special`` and the methods of ``torch.Tensor``;
* the module classes of ``torch.nn`` whose ``forward`` is annotated ``-> Tensor`` (or a
  tuple of tensors), less those in ``NN_NOT_EXACT`` (whose annotation says less than the
  truth: they return their input, or what modules their caller gives them return).

A name bound to a C function (``torch.topk``, ``Tensor.add``, ``torch.linalg.svd`` =
``torch._C._linalg.linalg_svd``) takes the facts of the ATen operator of its ``__name__``:
what every overload returns.  A name bound to a Python function takes them from its return
annotation when that is a tensor, a tuple of tensors or a plain Python type, and is left
out otherwise.  Bindings whose Python arguments change the return type beyond the schemas
are listed in ``MANUAL_BINDINGS`` with the reason, and are recorded as varying.
"""
from __future__ import annotations

import argparse
import inspect
import re
import sys
import typing
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set, Tuple

import torch

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "flake8_torchcopy" / "analysis" / "torchfacts.py"
COMMAND = "python tools/gen_torch_facts.py"

#: namespaces whose public callables are read, by qualified name
NAMESPACES = ("torch", "torch.nn.functional", "torch.linalg", "torch.fft", "torch.special")

#: C bindings written by hand (python_torch_functions_manual.cpp, python_variable_methods.cpp)
#: whose Python-only arguments give another return type than the ATen schemas say.
MANUAL_BINDINGS = {
    "nonzero": ("Tensor", "Tensor[]"),  # as_tuple=True: a tuple of index tensors
}

#: Python functions and methods whose boolean flags add tensors to what they return: with
#: every flag False (the default) one tensor, else a tuple of one more tensor per flag True
#: (``torch.unique(x, return_counts=True)`` is ``(values, counts)``).  The generator checks
#: that ``Tensor.<name>`` takes each flag with default False; tests/test_torch_facts.py runs them.
FLAG_TUPLES = {
    "unique": ("return_inverse", "return_counts"),
    "unique_consecutive": ("return_inverse", "return_counts"),
}

#: torch.nn classes annotated ``-> Tensor`` whose forward may return something else
NN_NOT_EXACT = {
    "Identity": "returns its input, whatever it is",
    "Transformer": "runs the custom_encoder/custom_decoder it is given",
    "TransformerEncoder": "runs copies of the layer it is given (num_layers=0: returns src)",
    "TransformerDecoder": "runs copies of the layer it is given (num_layers=0: returns tgt)",
}

NON_TENSOR_TYPES = frozenset(
    "int bool float str complex Scalar SymInt SymFloat SymBool ScalarType Device Layout "
    "MemoryFormat QScheme Generator Storage Stream int[] SymInt[] float[] bool[] str[] "
    "Scalar[] None".split())


# ------------------------------------------------------------------ ATen operators
def aten_overloads() -> Dict[str, list]:
    """{op name: [OpOverload, ...]} of the dispatcher's ``aten::`` operators."""
    out: Dict[str, list] = {}
    for full in sorted(torch._C._dispatch_get_all_op_names()):
        if not full.startswith("aten::"):
            continue
        base, _, overload = full[6:].partition(".")
        try:
            op = getattr(getattr(torch.ops.aten, base), overload or "default")
        except (AttributeError, RuntimeError):
            continue
        out.setdefault(base, []).append(op)
    return out


def _type_name(t) -> str:
    s = str(t)
    return {"List[int]": "int[]", "List[SymInt]": "SymInt[]", "List[Tensor]": "Tensor[]",
            "List[Optional[Tensor]]": "Tensor?[]", "List[float]": "float[]",
            "List[bool]": "bool[]", "List[str]": "str[]", "Optional[Tensor]": "Tensor?",
            "number": "Scalar", "NoneType": "None"}.get(s, s)


def return_kind(schema) -> str:
    """What one overload returns: ``Tensor``, ``Tensor[]``, ``(Tensor, Tensor)``, ``int``…"""
    rets = [_type_name(r.type) for r in schema.returns]
    if not rets:
        return "None"
    if len(rets) == 1:
        return rets[0]
    return "(" + ", ".join(rets) + ")"


def _is_out(op) -> bool:
    return any(a.is_out for a in op._schema.arguments)


def _aliases_self(schema, write: bool) -> bool:
    """The first argument is ``Tensor(a)`` (``Tensor(a!)`` when ``write``) and a return
    aliases it."""
    args = schema.arguments
    if not args or args[0].alias_info is None or _type_name(args[0].type) != "Tensor":
        return False
    info = args[0].alias_info
    if info.is_write != write:
        return False
    sets = info.before_set
    return any(r.alias_info is not None and r.alias_info.is_write == write
               and set(r.alias_info.before_set) & set(sets) for r in schema.returns)


def _is_method_variant(op) -> bool:
    """An overload a Tensor method can bind: a ``Tensor self`` argument (not always the
    first: ``where.self(Tensor condition, Tensor self, Tensor other)``), no ``out``."""
    return not _is_out(op) and any(
        a.name == "self" and _type_name(a.type) == "Tensor" for a in op._schema.arguments)


def _alone(op, method: bool) -> bool:
    """Can a call with one argument (``torch.max(x)``; a method: ``x.max()``) bind this
    overload: no ``out``, and every argument but the first positional one (``self`` for a
    method) has a default?"""
    if _is_out(op):
        return False
    args = op._schema.arguments
    if method:
        if not _is_method_variant(op):
            return False
        rest = [a for a in args if a.name != "self"]
    else:
        if not args or args[0].kwarg_only:
            return False
        rest = args[1:]
    return all(a.has_default_value() for a in rest)


class OpFacts:
    """The facts of one ATen operator, over its overloads."""

    def __init__(self, name: str, ops: list, view_copies: Set[str]) -> None:
        self.name = name
        self.kinds = tuple(sorted({return_kind(op._schema) for op in ops}))
        self.method_kinds = tuple(sorted({return_kind(op._schema) for op in ops
                                          if _is_method_variant(op)}))
        # what a call with the first argument alone (a method: with no argument) may bind
        self.alone_kinds = tuple(sorted({return_kind(op._schema) for op in ops if _alone(op, False)}))
        self.alone_method_kinds = tuple(sorted({return_kind(op._schema) for op in ops if _alone(op, True)}))
        # what a call with a second tensor (``torch.max(a, b)``, ``a.max(b)``) may bind
        self.other_kinds = tuple(sorted({return_kind(op._schema) for op in ops if _binds_other(op, False)}))
        self.other_method_kinds = tuple(sorted({return_kind(op._schema) for op in ops if _binds_other(op, True)}))
        functional = [op for op in ops if not _is_out(op)]
        self.aliasing = bool(functional) and all(_aliases_self(op._schema, False) for op in functional)
        self.view = self.aliasing and name in view_copies
        self.inplace = bool(functional) and all(_aliases_self(op._schema, True) for op in functional)
        self.pointwise = bool(functional) and all(torch.Tag.pointwise in op.tags for op in functional)
        fmts = [a for op in functional for a in op._schema.arguments if a.name == "memory_format"]
        self.keeps_strides = bool(functional) and len(fmts) == len(functional) and all(
            a.has_default_value() and a.default_value is None for a in fmts)


def op_facts() -> Dict[str, OpFacts]:
    overloads = aten_overloads()
    view_copies = set()
    for name, ops in overloads.items():
        if name.endswith("_copy") and any(torch.Tag.view_copy in op.tags for op in ops):
            view_copies.add(name[:-5])
    return {name: OpFacts(name, ops, view_copies) for name, ops in overloads.items()}


# ------------------------------------------------------------------ Python annotations
def _annotation_kind(fn) -> Optional[str]:
    """The return kind a Python function's annotation states, when it states one exactly."""
    try:
        ann = typing.get_type_hints(fn).get("return", inspect.Signature.empty)
    except Exception:
        try:
            ann = inspect.signature(fn).return_annotation
        except (TypeError, ValueError):
            return None
    return _kind_of(ann)


def _kind_of(ann) -> Optional[str]:
    if ann is inspect.Signature.empty:
        return None
    if ann is torch.Tensor:
        return "Tensor"
    if ann is None or ann is type(None):
        return "None"
    if ann in (int, bool, float, str, complex):
        return ann.__name__
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if origin is tuple and args:
        if len(args) == 2 and args[1] is Ellipsis:
            return "Tensor[]" if args[0] is torch.Tensor else None
        kinds = [_kind_of(a) for a in args]
        if None in kinds:
            return None
        return "(" + ", ".join(kinds) + ")"  # type: ignore[arg-type]
    return None


# ------------------------------------------------------------------ the Python API
def _public(obj) -> Iterable[str]:
    for n in sorted(dir(obj)):
        if not n.startswith("_"):
            yield n


def _is_c_function(f) -> bool:
    return isinstance(f, (type(len), type(torch.Tensor.add)))


def name_kinds(f, facts: Dict[str, OpFacts], attr: str,
               method: bool = False) -> Optional[Tuple[str, ...]]:
    """The return kinds of the callable ``f`` (bound as ``attr``; a Tensor method when
    ``method``), or None if not known."""
    if _is_c_function(f):
        op = getattr(f, "__name__", attr)
        if op in MANUAL_BINDINGS:
            return MANUAL_BINDINGS[op]
        of = facts.get(op)
        if of is None:
            return None
        return (of.method_kinds or None) if method else of.kinds
    if inspect.isfunction(f) or inspect.ismethod(f):
        k = _annotation_kind(f)
        return None if k is None else (k,)
    return None


def functions(facts: Dict[str, OpFacts], undescribed: Optional[Set[str]] = None
              ) -> Dict[str, Tuple[str, ...]]:
    """{qualified name: return kinds} of the functions torch describes; the others' names go
    into ``undescribed``."""
    out: Dict[str, Tuple[str, ...]] = {}
    for ns in NAMESPACES:
        mod = sys.modules[ns]
        for n in _public(mod):
            f = getattr(mod, n, None)
            if f is None or inspect.isclass(f) or inspect.ismodule(f):
                continue
            mod_name = getattr(f, "__module__", None) or ""
            if not _is_c_function(f) and not mod_name.startswith("torch"):
                continue  # typing helpers and the like, re-exported
            kinds = name_kinds(f, facts, n)
            if kinds is not None:
                out[f"{ns}.{n}"] = kinds
            elif undescribed is not None and callable(f):
                undescribed.add(f"{ns}.{n}")
    return out


def methods(facts: Dict[str, OpFacts], undescribed: Optional[Set[str]] = None
            ) -> Dict[str, Tuple[str, ...]]:
    out: Dict[str, Tuple[str, ...]] = {}
    for n in _public(torch.Tensor):
        f = inspect.getattr_static(torch.Tensor, n)
        if isinstance(f, (property, type(torch.Tensor.shape))) or inspect.isclass(f):
            continue  # attributes: no call
        if isinstance(f, (staticmethod, classmethod)):
            continue
        kinds = name_kinds(f, facts, n, method=True)
        if kinds is not None:
            out[n] = kinds
        elif undescribed is not None:
            undescribed.add(n)
    return out


_ALIAS_RE = re.compile(r"^\s*Alias (?:for|of) :(?:func|meth):`torch\.(\w+)`", re.M)


def aliases(facts: Dict[str, OpFacts]) -> Dict[str, str]:
    """{``torch.<alias>``'s name: the operator it stands for}, from the docstrings that say
    "Alias for :func:`torch.<op>`" (``subtract`` is ``sub``)."""
    out = {}
    for n in _public(torch):
        doc = getattr(getattr(torch, n, None), "__doc__", None)
        m = _ALIAS_RE.search(doc) if isinstance(doc, str) else None
        if m and m.group(1) != n and m.group(1) in facts and _is_c_function(getattr(torch, n)):
            out[n] = m.group(1)
    return out


def alone_kinds(varying: Dict[str, Tuple[str, ...]], facts: Dict[str, OpFacts],
                method: bool) -> Dict[str, str]:
    """{name: kind} of the varying names (qualified names of functions, or Tensor methods)
    every overload of which that a call with the tensor alone and no keyword may bind returns
    the same kind: ``torch.max(x)`` is a tensor, ``torch.where(cond)`` a tuple of tensors.
    (A manual binding's Python-only argument, ``nonzero``'s ``as_tuple``, keeps its default.)"""
    out = {}
    for name in varying:
        if method:
            f = inspect.getattr_static(torch.Tensor, name)
        else:
            mod, _, attr = name.rpartition(".")
            f = getattr(sys.modules[mod], attr)
        of = facts.get(getattr(f, "__name__", name.rpartition(".")[2])) if _is_c_function(f) else None
        kinds = None if of is None else of.alone_method_kinds if method else of.alone_kinds
        if kinds is not None and len(kinds) == 1:
            out[name] = kinds[0]
    return out


#: second arguments :func:`other_kinds` runs each candidate with: a 0-dim tensor of each
#: kind an ``int``/``Scalar`` overload (``max.dim``) could also bind, and broadcast ones
_OTHER_SAMPLES = (lambda: torch.tensor(1), lambda: torch.tensor(0), lambda: torch.tensor(True),
                  lambda: torch.tensor(1.5), lambda: torch.tensor([1.0, 0.0, 2.0]),
                  lambda: torch.ones(2, 3), lambda: torch.tensor([1]))


def _binds_other(op, method: bool) -> bool:
    """Does this overload take a ``Tensor other`` right after the tensor (``max.other``), every
    later argument defaulted, no ``out``?"""
    if _is_out(op) or method and not _is_method_variant(op):
        return False
    args = [a for a in op._schema.arguments if not method or a.name != "self"]
    at = 0 if method else 1
    return len(args) > at and args[at].name == "other" and _type_name(args[at].type) == "Tensor" \
        and not args[at].kwarg_only and all(a.has_default_value() for a in args[at + 1:])


def other_kinds(varying: Dict[str, Tuple[str, ...]], facts: Dict[str, OpFacts],
                method: bool) -> Dict[str, str]:
    """{name: kind} of the varying names a call with the tensor and a second tensor (the
    second positional argument, or ``other=``) binds to a ``Tensor other`` overload of one
    kind: ``torch.max(a, b)`` is the elementwise maximum.  The schemas give the kind; which
    overload the Python parser picks for a 0-dim integer tensor (``max.dim`` could take it
    as the dim) they do not say, so each name is run with every sample of
    :data:`_OTHER_SAMPLES`, positional and as ``other=``, and kept only where each returns
    a plain tensor."""
    out = {}
    for name in varying:
        short = name.rpartition(".")[2]
        f = inspect.getattr_static(torch.Tensor, name) if method \
            else getattr(sys.modules[name.rpartition(".")[0]], short)
        of = facts.get(getattr(f, "__name__", short)) if _is_c_function(f) else None
        if of is None or (of.other_method_kinds if method else of.other_kinds) != ("Tensor",):
            continue
        call = getattr(torch.Tensor, name) if method else f  # Tensor.max(x, b) is x.max(b)
        if all(type(r) is torch.Tensor for s in _OTHER_SAMPLES
               for r in (call(torch.ones(2, 3), s()), call(torch.ones(2, 3), other=s()))):
            out[name] = "Tensor"
    return out


def flag_tuples(method: bool) -> Dict[str, Tuple[str, ...]]:
    """:data:`FLAG_TUPLES` by qualified name (``torch.unique``) or method name, each checked:
    ``Tensor.<name>`` takes every flag with default False, and ``torch.<name>`` exists."""
    out = {}
    for name, flags in FLAG_TUPLES.items():
        params = inspect.signature(getattr(torch.Tensor, name)).parameters
        if any(f not in params or params[f].default is not False for f in flags):
            raise SystemExit(f"FLAG_TUPLES: Tensor.{name} does not take {flags} with default False")
        if method:
            out[name] = flags
        elif callable(getattr(torch, name, None)):
            out[f"torch.{name}"] = flags
    return out


def nn_modules() -> Tuple[Set[str], Dict[str, Tuple[str, ...]]]:
    """The public ``torch.nn`` module classes whose ``forward`` returns one tensor, and those
    that return a fixed tuple of tensors (``LSTMCell``), by the return annotation."""
    tensor: Set[str] = set()
    tuples: Dict[str, Tuple[str, ...]] = {}
    for n in _public(torch.nn):
        cls = getattr(torch.nn, n)
        if not inspect.isclass(cls) or not issubclass(cls, torch.nn.Module) or n in NN_NOT_EXACT:
            continue
        kind = _annotation_kind(cls.forward)
        if kind == "Tensor":
            tensor.add(n)
        elif kind is not None and kind.startswith("(") and set(kind[1:-1].split(", ")) == {"Tensor"}:
            tuples[n] = tuple(kind[1:-1].split(", "))
    return tensor, tuples


# ------------------------------------------------------------------ classification
def is_tensor_free(kind: str) -> bool:
    parts = kind.strip("()").split(", ")
    return all(p in NON_TENSOR_TYPES for p in parts)


def classify(table: Dict[str, Tuple[str, ...]]):
    tensor, lists, non_tensor = set(), set(), set()
    tuples: Dict[str, Tuple[str, ...]] = {}
    varying: Dict[str, Tuple[str, ...]] = {}
    for name, kinds in table.items():
        if kinds == ("Tensor",):
            tensor.add(name)
        elif kinds == ("Tensor[]",):
            lists.add(name)
        elif len(kinds) == 1 and kinds[0].startswith("(") and "Tensor" in kinds[0]:
            tuples[name] = tuple(kinds[0][1:-1].split(", "))
        elif all(is_tensor_free(k) for k in kinds):
            non_tensor.add(name)
        else:
            varying[name] = kinds
    return tensor, lists, tuples, non_tensor, varying


# ------------------------------------------------------------------ output
# Calls whose result is not contiguous though every input is (LAPACK's column-major
# matrices, einsum's permuted bmm, stft's frames, an fft along an inner dim, rot90's flip of a
# transpose, unique's dim moved back, nonzero's and argwhere's column-major indices, the
# inverse matrix_power(A, -1) takes): each sample runs on contiguous inputs (the data-dependent
# ones on a mask with several True in each row), and a name is listed when a tensor it returns
# is not contiguous.  Keys: ``torch.<name>`` for functions, ``.<name>`` for Tensor methods.
# The analysis never takes their results for contiguous.
_STRIDED_SAMPLES = {
    "torch.einsum": "torch.einsum('bik,ji->bjk', V, W)",
    "torch.stft": "torch.stft(SIG, 64, return_complex=True)",
    ".stft": "SIG.stft(64, return_complex=True)",
    "torch.rot90": "torch.rot90(A, 1, [1, 2])", ".rot90": "A.rot90(1, [1, 2])",
    "torch.unique": "torch.unique(INTS, dim=1)", ".unique": "INTS.unique(dim=1)",
    "torch.unique_consecutive": "torch.unique_consecutive(INTS, dim=1)",
    ".unique_consecutive": "INTS.unique_consecutive(dim=1)",
    "torch.inverse": "torch.inverse(A)", ".inverse": "A.inverse()",
    "torch.cholesky": "torch.cholesky(S)", ".cholesky": "S.cholesky()",
    "torch.cholesky_solve": "torch.cholesky_solve(B, L)", ".cholesky_solve": "B.cholesky_solve(L)",
    "torch.cholesky_inverse": "torch.cholesky_inverse(L)", ".cholesky_inverse": "L.cholesky_inverse()",
    "torch.triangular_solve": "torch.triangular_solve(B, R)", ".triangular_solve": "B.triangular_solve(R)",
    "torch.lu_solve": "torch.lu_solve(B, LU, PIV)", ".lu_solve": "B.lu_solve(LU, PIV)",
    "torch.lu_unpack": "torch.lu_unpack(LU, PIV)",
    "torch.qr": "torch.qr(A)", ".qr": "A.qr()", "torch.svd": "torch.svd(A)", ".svd": "A.svd()",
    "torch.geqrf": "torch.geqrf(A)", ".geqrf": "A.geqrf()",
    "torch.orgqr": "torch.orgqr(A, TAU)", ".orgqr": "A.orgqr(TAU)",
    "torch.ormqr": "torch.ormqr(A, TAU4, B)", ".ormqr": "A.ormqr(TAU4, B)",
    "torch.pinverse": "torch.pinverse(A)", ".pinverse": "A.pinverse()",
    "torch.linalg.inv": "torch.linalg.inv(A)", "torch.linalg.inv_ex": "torch.linalg.inv_ex(A)",
    "torch.linalg.solve": "torch.linalg.solve(A, B)", "torch.linalg.solve_ex": "torch.linalg.solve_ex(A, B)",
    "torch.linalg.cholesky": "torch.linalg.cholesky(S)",
    "torch.linalg.cholesky_ex": "torch.linalg.cholesky_ex(S)",
    "torch.linalg.solve_triangular": "torch.linalg.solve_triangular(R, B, upper=True)",
    "torch.linalg.householder_product": "torch.linalg.householder_product(A, TAU)",
    "torch.linalg.lu_solve": "torch.linalg.lu_solve(LU, PIV, B)",
    "torch.linalg.lu_factor": "torch.linalg.lu_factor(A)",
    "torch.linalg.lu_factor_ex": "torch.linalg.lu_factor_ex(A)", "torch.linalg.lu": "torch.linalg.lu(A)",
    "torch.linalg.ldl_factor": "torch.linalg.ldl_factor(S)",
    "torch.linalg.ldl_factor_ex": "torch.linalg.ldl_factor_ex(S)",
    "torch.linalg.ldl_solve": "torch.linalg.ldl_solve(*torch.linalg.ldl_factor(S), B)",
    "torch.linalg.qr": "torch.linalg.qr(A)", "torch.linalg.svd": "torch.linalg.svd(A)",
    "torch.linalg.eig": "torch.linalg.eig(A)", "torch.linalg.eigh": "torch.linalg.eigh(S)",
    "torch.linalg.lstsq": "torch.linalg.lstsq(A, B)", "torch.linalg.pinv": "torch.linalg.pinv(A)",
    "torch.linalg.tensorinv": "torch.linalg.tensorinv(T4, ind=2)",
    "torch.linalg.tensorsolve": "torch.linalg.tensorsolve(torch.randn(2, 3, 6), torch.randn(2, 3))",
    "torch.linalg.matrix_exp": "torch.linalg.matrix_exp(A)", "torch.matrix_exp": "torch.matrix_exp(A)",
    "torch.fft.fft": "torch.fft.fft(A, dim=1)", "torch.fft.ifft": "torch.fft.ifft(A, dim=1)",
    "torch.fft.rfft": "torch.fft.rfft(A, dim=1)", "torch.fft.irfft": "torch.fft.irfft(A, dim=1)",
    "torch.fft.hfft": "torch.fft.hfft(A, dim=1)", "torch.fft.ihfft": "torch.fft.ihfft(A, dim=1)",
    "torch.fft.fftn": "torch.fft.fftn(A, dim=(1,))", "torch.fft.ifftn": "torch.fft.ifftn(A, dim=(1,))",
    "torch.fft.rfftn": "torch.fft.rfftn(A, dim=(1,))", "torch.fft.irfftn": "torch.fft.irfftn(A, dim=(1,))",
    "torch.fft.fft2": "torch.fft.fft2(A, dim=(0, 1))", "torch.fft.rfft2": "torch.fft.rfft2(A, dim=(0, 1))",
    "torch.fft.ifft2": "torch.fft.ifft2(A, dim=(0, 1))", "torch.fft.irfft2": "torch.fft.irfft2(A, dim=(0, 1))",
    "torch.fft.hfft2": "torch.fft.hfft2(A, dim=(0, 1))", "torch.fft.ihfft2": "torch.fft.ihfft2(A, dim=(0, 1))",
    "torch.fft.hfftn": "torch.fft.hfftn(A, dim=(1,))", "torch.fft.ihfftn": "torch.fft.ihfftn(A, dim=(1,))",
    "torch.cdist": "torch.cdist(V, V)", "torch.tensordot": "torch.tensordot(V, W.t(), dims=([1], [0]))",
    "torch.kron": "torch.kron(A, A)", "torch.cross": "torch.cross(V, V, dim=2)",
    "torch.nonzero": "torch.nonzero(MASK)", ".nonzero": "MASK.nonzero()",
    "torch.argwhere": "torch.argwhere(MASK)", ".argwhere": "MASK.argwhere()",
    "torch.nonzero_static": "torch.nonzero_static(MASK, size=6)", ".nonzero_static": "MASK.nonzero_static(size=6)",
    "torch.where": "torch.where(MASK)", "torch.masked_select": "torch.masked_select(W, MASK)",
    "torch.lu": "torch.lu(A)", ".lu": "A.lu()",
    "torch.matrix_power": "torch.matrix_power(A, -1)", ".matrix_power": "A.matrix_power(-1)",
    "torch.linalg.matrix_power": "torch.linalg.matrix_power(A, -1)",
}


def _strided_inputs() -> Dict[str, object]:
    g = torch.Generator().manual_seed(0)
    a = torch.randn(2, 4, 4, generator=g)
    s = a @ a.mT + 4 * torch.eye(4)
    lu, piv = torch.linalg.lu_factor(a)
    return {"torch": torch, "A": a, "S": s, "L": torch.linalg.cholesky(s), "R": a.triu() + 4 * torch.eye(4),
            "B": torch.randn(2, 4, 3, generator=g), "V": torch.randn(2, 5, 3, generator=g),
            "W": torch.randn(4, 5, generator=g), "SIG": torch.randn(2, 400, generator=g),
            "INTS": torch.randint(0, 3, (2, 4, 5), generator=g), "LU": lu, "PIV": piv,
            "TAU": torch.rand(2, 3, generator=g), "TAU4": torch.rand(2, 4, generator=g),
            "T4": torch.randn(4, 6, 8, 3, generator=g), "MASK": torch.arange(20).reshape(4, 5) % 3 == 0}


def strided_results() -> Set[str]:
    """The keys of ``_STRIDED_SAMPLES`` whose sample returns a tensor that is not contiguous."""
    import warnings
    out = set()
    for key, code in _STRIDED_SAMPLES.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = eval(code, _strided_inputs())  # noqa: S307 (the samples above)
        items = result if isinstance(result, tuple) else (result,)
        if any(isinstance(t, torch.Tensor) and not t.is_contiguous() for t in items):
            out.add(key)
    return out


def _names(var: str, names: Iterable[str], comment: str) -> str:
    lines, line = [], ""
    for n in sorted(names):
        if len(line) + len(n) + 1 > 92:
            lines.append(line)
            line = ""
        line = f"{line} {n}" if line else n
    if line:
        lines.append(line)
    body = "\n".join(lines)
    return f"# {comment}\n{var} = frozenset(\"\"\"\n{body}\n\"\"\".split())\n"


def _dict(var: str, table: Dict[str, Tuple[str, ...]], comment: str) -> str:
    rows = "".join(f"    {n!r}: {v if isinstance(v, str) else tuple(v)!r},\n" for n, v in sorted(table.items()))
    return f"# {comment}\n{var} = {{\n{rows}}}\n"


def render() -> str:
    facts = op_facts()
    fn_undescribed: Set[str] = set()
    me_undescribed: Set[str] = set()
    fn = classify(functions(facts, fn_undescribed))
    me = classify(methods(facts, me_undescribed))
    version = torch.__version__.split("+")[0]
    parts = [
        f'"""PyTorch facts read from torch {version} by tools/gen_torch_facts.py.\n\n'
        "GENERATED FILE, DO NOT EDIT.  Regenerate with the torch the tests pin:\n\n"
        f"    {COMMAND}\n\n"
        "Functions are named by qualified name (``torch.topk``, ``torch.linalg.svd``,\n"
        "``torch.nn.functional.relu``), Tensor methods by name.  A name is in a table only\n"
        "when every overload (every ATen schema its C binding dispatches to, or the return\n"
        "annotation of its Python function) agrees; names whose overloads disagree are in\n"
        "the ``VARYING_*`` tables with each return kind.  Operator tables (views, in-place,\n"
        "pointwise, memory format) name ATen operators, which ``torch.<op>`` and\n"
        "``Tensor.<op>`` bind.  Checked by tests/test_torch_facts.py.\n"
        '"""\n',
        f"TORCH_VERSION = {version!r}\n",
        _names("TENSOR_FUNCTIONS", fn[0], "Functions every call of which returns one tensor."),
        _names("TENSOR_LIST_FUNCTIONS", fn[1],
               "Functions that return a tuple of tensors of a length known at run time."),
        _dict("TUPLE_FUNCTIONS", fn[2],
              "Functions that return a fixed tuple: the type at each position."),
        _names("NON_TENSOR_FUNCTIONS", fn[3],
               "Functions that return no tensor (numbers, bools, sizes, dtypes, None)."),
        _dict("VARYING_FUNCTIONS", fn[4],
              "Functions whose return type depends on the arguments: each kind it may be."),
        _dict("ALONE_FUNCTIONS", alone_kinds(fn[4], facts, False),
              "Of those, the ones a call with the tensor alone and no keyword (``torch.max(x)``,\n"
              "# ``torch.where(cond)``) makes return one kind: that kind."),
        _dict("OTHER_FUNCTIONS", other_kinds(fn[4], facts, False),
              "Of those, the ones a call with the tensor and a second tensor (positional, or\n"
              "# ``other=``) makes return one kind (``torch.max(a, b)``: elementwise): that kind."),
        _dict("FLAG_TUPLE_FUNCTIONS", flag_tuples(False),
              "Functions that return one tensor with each of these flags False (the default), and a\n"
              "# tuple of one more tensor per flag True (``torch.unique(x, return_counts=True)``)."),
        _names("UNDESCRIBED_FUNCTIONS", fn_undescribed,
               "Functions no schema or return annotation describes (hand bindings such as\n"
               "# ``torch.tensor``, Python functions without an annotation): in no table above."),
        _names("TENSOR_METHODS", me[0], "Tensor methods every call of which returns one tensor."),
        _names("TENSOR_LIST_METHODS", me[1],
               "Tensor methods that return a tuple of tensors of a length known at run time."),
        _dict("TUPLE_METHODS", me[2], "Tensor methods that return a fixed tuple: the type at each position."),
        _names("NON_TENSOR_METHODS", me[3], "Tensor methods that return no tensor."),
        _dict("VARYING_METHODS", me[4],
              "Tensor methods whose return type depends on the arguments: each kind it may be."),
        _dict("ALONE_METHODS", alone_kinds(me[4], facts, True),
              "Of those, the ones a call with no argument (``x.median()``) makes return one kind."),
        _dict("OTHER_METHODS", other_kinds(me[4], facts, True),
              "Of those, the ones a call with one tensor argument (positional, or ``other=``)\n"
              "# makes return one kind (``a.max(b)``): that kind."),
        _dict("FLAG_TUPLE_METHODS", flag_tuples(True),
              "Tensor methods that return one tensor with each of these flags False (the default), and\n"
              "# a tuple of one more tensor per flag True (``x.unique(return_inverse=True)``)."),
        _names("UNDESCRIBED_METHODS", me_undescribed,
               "Tensor methods no schema or return annotation describes (``tolist``, ``numpy``,\n"
               "# ``type``, ``float``, ``cuda``...): in no method table above."),
        _names("ALIASING_OPS", (n for n, f in facts.items() if f.aliasing and not n.startswith("_")),
               "Operators whose result may share storage with ``self`` (``Tensor(a) self -> Tensor(a)``):\n"
               "# views, and ops that return ``self`` or a view of it when no copy is needed.  Not the\n"
               "# converse: ``type_as`` says ``-> Tensor`` and ``x.type_as(x)`` is ``x``."),
        _names("VIEW_OPS", (n for n, f in facts.items() if f.view and not n.startswith("_")),
               "Aliasing operators that always return a view (functionalization has a view_copy for them)."),
        _names("INPLACE_OPS", (n for n, f in facts.items() if f.inplace and not n.startswith("_")),
               "Operators that write ``self`` and return it (``Tensor(a!) self -> Tensor(a!)``)."),
        _names("POINTWISE_OPS", (n for n, f in facts.items() if f.pointwise and not n.startswith("_")),
               "Operators tagged ``torch.Tag.pointwise`` (elementwise of broadcast inputs; the tag says\n"
               "# nothing of the result's strides: ``masked_fill`` is tagged and returns a contiguous copy)."),
        _names("PRESERVE_FORMAT_OPS",
               (n for n, f in facts.items() if f.keeps_strides and not n.startswith("_")),
               "Operators whose ``memory_format`` defaults to None (``preserve_format``): a dense\n"
               "# input's strides carry over."),
        _names("NN_TENSOR_MODULES", nn_modules()[0],
               "torch.nn module classes (``torch.nn.<name>``) whose forward is annotated ``-> Tensor``:\n"
               "# calling an instance returns one tensor (a forward hook may replace it).  Less\n"
               "# " + ", ".join(sorted(NN_NOT_EXACT)) + " (what they return is their input's or their\n"
               "# submodules')."),
        _dict("NN_TUPLE_MODULES", nn_modules()[1],
              "torch.nn module classes whose forward is annotated to return a fixed tuple of tensors."),
        _names("STRIDED_RESULT_FUNCTIONS", (k for k in strided_results() if k.startswith("torch.")),
               "Functions whose result is not contiguous though every input is (measured on samples:\n"
               "# LAPACK's column-major matrices, einsum, stft, an fft along an inner dim, rot90,\n"
               "# nonzero's and argwhere's indices, matrix_power(A, -1)...)."),
        _names("STRIDED_RESULT_METHODS", (k[1:] for k in strided_results() if k.startswith(".")),
               "Tensor methods whose result is not contiguous though the tensor is (as above)."),
        "# Operators documented as another's alias (\"Alias for :func:`torch.sub`\"): {alias: operator}.\n"
        "ALIASES = {\n" + "".join(f"    {a!r}: {t!r},\n" for a, t in sorted(aliases(facts).items())) + "}\n",
    ]
    return "\n".join(parts)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    ap.add_argument("--output", type=Path, default=TARGET)
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        same = args.output.exists() and args.output.read_text() == text
        print("up to date" if same else f"{args.output} differs from what torch {torch.__version__} gives")
        return 0 if same else 1
    args.output.write_text(text)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
