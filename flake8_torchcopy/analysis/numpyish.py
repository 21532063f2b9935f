"""Numpy knowledge: which expressions are ``numpy.ndarray`` objects, and lists of them.

The analysis calls a value an array (``Value.array``, an :class:`Array`) only where the
expression is a plain ``numpy.ndarray`` for every call that returns: a numpy function
that always builds one (``np.zeros``, ``np.array``, ``np.stack``, ``np.random.rand(3)``),
``t.numpy()`` of a tensor, ``a.astype(...)``/``a.copy()``/``a.reshape(...)`` of an array,
and arithmetic of arrays of rank one or more with arrays or Python numbers.  Left out on
purpose: ``np.load`` (an ``NpzFile`` for ``.npz``, any object with ``allow_pickle``),
functions that return numpy scalars for some arguments (``np.random.rand()``,
``np.sum(a)``, arithmetic on 0-d arrays: ``np.array(1.5) * 2`` is a ``numpy.float64``),
``np.where(cond)`` (a tuple), ``np.asanyarray`` and the ``*_like`` factories (they keep
subclasses), calls with ``like=``/``subok=``, functions that hand over to an argument's
``__array_function__``/``__array_ufunc__`` (``np.stack``, ``np.exp``...) unless those
arguments are proven arrays or numbers (a cupy or dask array gives its own type back), and
anything combined with a value of unknown kind (``a + t`` of a tensor ``t`` is a tensor).

An :class:`Array` also says what the analysis knows of its dtype (a numpy dtype name, in
native byte order) and rank, which decide whether ``np.array(lst)`` is exactly ``lst``
to torch (TRC109).  Lists of arrays are the evaluator's: a literal's ``elems``, a list
comprehension's ``item``, and ``lst.append(a)`` statements (:func:`appended`), which a
rule may trust only where :func:`.locallists.list_stays_local` proves the list never
escapes.

Every fact here is checked against numpy by ``tests/test_numpy_facts.py``.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import List, Optional

from .values import NOT, NOT_VALUE, TENSOR, UNKNOWN_VALUE, Value, join


@dataclass(frozen=True)
class Array:
    """A ``numpy.ndarray``: ``dtype`` its numpy dtype name when known (native byte order),
    ``ndim`` its rank when known, ``ranked`` whether its rank is known to be 1 or more,
    ``filled`` whether every dim is known to be 1 or more (no zero-size dim)."""

    dtype: Optional[str] = None
    ndim: Optional[int] = None
    ranked: bool = False
    filled: bool = False

    def join(self, other: "Array") -> "Array":
        return Array(self.dtype if self.dtype == other.dtype else None,
                     self.ndim if self.ndim == other.ndim else None,
                     self.ranked and other.ranked, self.filled and other.filled)


def array_value(dtype: Optional[str] = None, ndim: Optional[int] = None, ranked: bool = False,
                filled: bool = False) -> Value:
    return Value(NOT, array=Array(dtype, ndim, ranked or (ndim is not None and ndim >= 1), filled))


def _positive(node: Optional[ast.AST]) -> bool:
    """An int literal of 1 or more, or a literal tuple/list of those (sizes with no zero)."""
    if isinstance(node, ast.Constant):
        return type(node.value) is int and node.value >= 1
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_positive(e) for e in node.elts)
    return False


# dtype names numpy attributes and strings stand for (native byte order)
DTYPES = frozenset("""
    float16 float32 float64 int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool complex64
    complex128""".split())
_DTYPE_ALIASES = {"double": "float64", "single": "float32", "half": "float16", "bool_": "bool",
                  "longlong": "int64", "ubyte": "uint8", "byte": "int8", "short": "int16",
                  "ushort": "uint16", "intc": "int32", "csingle": "complex64", "cdouble": "complex128"}

# numpy functions whose result is always a plain ndarray, of rank 1 or more
_RANKED = frozenset("""
    stack concatenate vstack hstack column_stack ascontiguousarray atleast_1d
    arange linspace logspace geomspace eye identity tri diag random.permutation
    """.split())
# ... always an ndarray, rank unknown (0-d possible: ``np.array(1.5)``, ``np.copy(2.0)``)
_ARRAYS = frozenset("array asarray copy asfortranarray zeros ones empty full".split())
# size-factories: ``np.zeros(3)``, ``np.zeros((2, 3))``; default dtype float64 (not ``full``)
_SHAPED = frozenset("zeros ones empty full".split())
_FLOAT64_DEFAULT = frozenset("zeros ones empty eye identity".split())
# np.random.<f>(d0, d1, ...): floats of rank len(args) when called with sizes
_RANDOM_DIMS = frozenset("random.rand random.randn".split())
# np.random.<f>(..., size=...): an ndarray when ``size`` is given; the positional index of size
_RANDOM_SIZED = {"random.random": 0, "random.random_sample": 0, "random.standard_normal": 0,
                 "random.uniform": 2, "random.normal": 2, "random.randint": 2, "random.choice": 1,
                 "random.binomial": 2, "random.poisson": 1, "random.exponential": 1}
_RANDOM_FLOAT64 = frozenset("""random.rand random.randn random.random random.random_sample
    random.standard_normal random.uniform random.normal random.exponential""".split())
# elementwise numpy functions: an ndarray of the same rank for an ndarray argument of rank >= 1
_ELEMENTWISE = frozenset("""
    abs absolute exp log log1p log2 log10 sqrt square sin cos tan tanh sign floor ceil round
    clip negative exp2 expm1 reciprocal""".split())
# ndarray methods that return an ndarray (``copy``/``astype`` keep the rank; ``flatten``/
# ``ravel`` give rank 1; ``reshape``/``transpose``/``squeeze`` an ndarray of some rank)
_SAME_RANK_METHODS = frozenset("copy astype".split())
_ARRAY_METHODS = frozenset("reshape transpose squeeze swapaxes".split())
_FLAT_METHODS = frozenset("flatten ravel".split())


# functions that hand over to an argument's ``__array_function__``/``__array_ufunc__`` (cupy,
# dask, jax arrays give their own type back): the number of leading arguments they dispatch on,
# which must be proven arrays, numbers or literal lists of those
_DISPATCHING = {"stack": 1, "concatenate": 1, "vstack": 1, "hstack": 1, "column_stack": 1,
                "atleast_1d": 99, "diag": 1, "copy": 1, "linspace": 2, "logspace": 2, "geomspace": 2,
                "clip": 3}


def _plain_operand(ev, node: ast.AST) -> bool:
    """A number, a proven ndarray, or a literal list/tuple (or comprehension) of those: no
    ``__array_function__`` of another library can take over."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, (ast.List, ast.Tuple)):
        return all(_plain_operand(ev, e) for e in node.elts)
    v = ev.cache.get(id(node))
    if v is None:
        return False
    if isinstance(node, ast.ListComp):
        return v.item is not None and v.item.array is not None
    return v.array is not None or (v.kind == NOT and v.mono is not None and v.elems is None)


def _dispatch_ok(ev, node: ast.Call, name: str) -> bool:
    n = _DISPATCHING.get(name, 1 if name in _ELEMENTWISE else 0)
    relevant = list(node.args[:n]) + [k.value for k in node.keywords if k.arg in (
        "a", "v", "arys", "arrays", "tup", "x", "start", "stop", "a_min", "a_max", "min", "max")]
    return all(_plain_operand(ev, a) for a in relevant)


def dtype_name(ev, node: Optional[ast.AST]) -> Optional[str]:
    """The numpy dtype ``node`` names: ``np.float32``, ``numpy.int64``, ``"float32"``; None
    for anything else (``float``, ``">f4"``, a name)."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if node.value in DTYPES else None
    q = ev.static_qualname(node)
    if q is None or not q.startswith("numpy."):
        return None
    name = q[6:]
    name = _DTYPE_ALIASES.get(name, name)
    return name if name in DTYPES else None


def _keyword(node: ast.Call, name: str) -> Optional[ast.keyword]:
    return next((k for k in node.keywords if k.arg == name), None)


def _shape_rank(node: ast.AST, v: Value) -> Optional[int]:
    """The rank a ``shape`` argument gives: 1 for an int, n for an n-tuple; None if unknown."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return 1
    if isinstance(node, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        return len(node.elts)
    if v.kind == NOT and v.mono is not None and v.elems is None:
        return 1  # a size the analysis knows to be an int (``x.size(0)``, ``n * 2`` of sizes)
    if v.kind == NOT and v.elems is not None:
        return len(v.elems)  # ``x.shape``
    return None


def call(ev, node: ast.Call, q: str, args: List[Value]) -> Value:
    """What ``numpy.<name>(...)`` returns: an array value where the tables know, else a value
    that is not a tensor (the analysis' rule for every numpy call)."""
    name = q[6:]
    if any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None or k.arg in ("like", "subok", "out") for k in node.keywords):
        return NOT_VALUE
    if not _dispatch_ok(ev, node, name):
        return NOT_VALUE
    dtype_kw = _keyword(node, "dtype")
    dtype = dtype_name(ev, dtype_kw.value) if dtype_kw is not None else None
    if name in _SHAPED:
        if not node.args:
            return NOT_VALUE
        rank = _shape_rank(node.args[0], args[0])
        if dtype_kw is None and name in _FLOAT64_DEFAULT and len(node.args) == 1:
            dtype = "float64"
        elif len(node.args) > (2 if name == "full" else 1):
            dtype = None  # a positional dtype: not followed
        return array_value(dtype, rank, filled=_positive(node.args[0]))
    if name in _RANKED:
        if name in _FLOAT64_DEFAULT and dtype_kw is None:
            dtype = "float64" if len(node.args) == 1 and name == "identity" or (
                name == "eye" and len(node.args) <= 3) else None
        if name == "eye" or name == "identity":
            return array_value(dtype, 2)
        if name in ("arange", "linspace", "logspace", "geomspace", "random.permutation") \
                and all(isinstance(a, ast.Constant) and isinstance(a.value, (int, float)) for a in node.args):
            return array_value(dtype, 1)  # scalar bounds: one dim
        return array_value(dtype, None, ranked=True)
    if name in _ARRAYS:
        if not node.args:
            return NOT_VALUE
        first = node.args[0]
        if name in ("array", "asarray") and len(node.args) > 1:
            dtype = None  # a positional dtype: not followed
        if name == "copy":
            dtype = None
        src = args[0]
        a = src.array
        if a is not None and dtype_kw is None:  # np.array(arr): the same dtype and rank
            return array_value(a.dtype, a.ndim, a.ranked, a.filled)
        if isinstance(first, (ast.List, ast.Tuple, ast.ListComp)):
            return array_value(dtype, None, ranked=True)  # a sequence: rank 1 or more
        if a is not None:
            return array_value(dtype, a.ndim, a.ranked, a.filled)
        return array_value(dtype)
    if name in _RANDOM_DIMS:
        if not node.args or node.keywords:
            return NOT_VALUE  # np.random.rand() is a float
        if not all(_shape_rank(a, v) == 1 for a, v in zip(node.args, args)):
            return NOT_VALUE
        return array_value("float64", len(node.args), filled=all(_positive(a) for a in node.args))
    if name in _RANDOM_SIZED:
        pos = _RANDOM_SIZED[name]
        size_kw = _keyword(node, "size")
        size = size_kw.value if size_kw is not None else node.args[pos] if len(node.args) > pos else None
        size_v = ev.cache.get(id(size)) if size is not None else None
        rank = _shape_rank(size, size_v) if size is not None and size_v is not None else None
        if rank is None:
            return NOT_VALUE  # no size (or None): a Python or numpy scalar
        if name == "random.choice" or name == "random.randint":
            dtype = dtype if name == "random.randint" else None
        elif name in _RANDOM_FLOAT64:
            dtype = "float64" if all(
                isinstance(a, ast.Constant) and isinstance(a.value, (int, float)) for a in node.args[:pos]) \
                and all(k.arg == "size" or isinstance(k.value, ast.Constant) for k in node.keywords) else None
        else:
            dtype = None
        return array_value(dtype, rank, filled=_positive(size))
    if name in _ELEMENTWISE and args and args[0].array is not None and args[0].array.ranked:
        a = args[0].array
        return array_value(a.dtype if name in ("abs", "absolute", "negative", "clip", "square")
                           and len(node.args) <= 3 and not node.keywords else None, a.ndim, True, a.filled)
    return NOT_VALUE


def method(recv: Value, node: ast.Call, m: str, ev) -> Optional[Value]:
    """``arr.m(...)`` for an array ``recv``; ``t.numpy()`` for a tensor ``recv``.  None: not
    known here (the caller goes on as before)."""
    if m == "numpy":
        if recv.kind == TENSOR and not node.args and not node.keywords:
            ndim = len(recv.sizes) if recv.sizes is not None else None
            filled = recv.sizes is not None and all(
                m is not None and not m.powers and m.coef >= 1 for m in recv.sizes)
            return array_value(None, ndim, filled=filled)  # the tensor's dtype, not followed
        return None
    a = recv.array
    if a is None or any(isinstance(x, ast.Starred) for x in node.args) \
            or any(k.arg is None for k in node.keywords):
        return None
    if m == "astype":
        if not node.args and _keyword(node, "dtype") is None:
            return None
        dt = node.args[0] if node.args else _keyword(node, "dtype").value  # type: ignore[union-attr]
        if any(k.arg == "subok" for k in node.keywords):
            return None
        return array_value(dtype_name(ev, dt), a.ndim, a.ranked, a.filled)
    if m in _SAME_RANK_METHODS:
        return array_value(a.dtype if not node.args and not node.keywords else None, a.ndim, a.ranked,
                           a.filled)
    if m in _FLAT_METHODS:
        return array_value(a.dtype, 1, filled=a.filled)
    if m in _ARRAY_METHODS:
        return array_value(a.dtype)
    return None


def row_of(a: Array) -> Value:
    """What iterating an array yields: arrays of one dim less when it has two or more (the
    items of a 1-d array are numpy scalars)."""
    if a.ndim is not None and a.ndim >= 2:
        return array_value(a.dtype, a.ndim - 1, filled=a.filled)
    return UNKNOWN_VALUE


_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod)


def binop(op: ast.operator, left: Value, right: Value, nodes) -> Optional[Value]:
    """``a op b`` where one side is an array of rank >= 1 and the other one too, or a Python
    int/float literal: an array (None: not known here)."""
    if not isinstance(op, _ARITH):
        return None
    la, ra = left.array, right.array
    if la is None and ra is None:
        return None
    sides = []
    for v, n in ((left, nodes[0]), (right, nodes[1])):
        if v.array is not None:
            if not v.array.ranked:
                return None  # a 0-d array gives a numpy scalar
            sides.append(("array", v.array))
        elif isinstance(n, ast.Constant) and type(n.value) in (int, float):
            sides.append(("int" if type(n.value) is int else "float", None))
        else:
            return None  # anything else (a tensor makes a tensor)
    arrays = [a for k, a in sides if k == "array"]
    ndim = max(a.ndim for a in arrays) if all(a.ndim is not None for a in arrays) else None
    return array_value(_result_dtype(op, sides), ndim, ranked=True, filled=all(a.filled for a in arrays))


_FLOATS = frozenset({"float16", "float32", "float64"})
_INTS = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"})


def _result_dtype(op: ast.operator, sides) -> Optional[str]:
    """The dtype of arithmetic of arrays and Python numbers (numpy >= 2: Python numbers are
    weak); None where not followed."""
    dtypes = {a.dtype for k, a in sides if k == "array"}
    if len(dtypes) != 1:
        return None
    dt = dtypes.pop()
    pys = {k for k, _ in sides if k != "array"}
    if dt in _FLOATS:
        return dt
    if dt in ("int64",) and isinstance(op, ast.Div):
        return "float64"
    if dt == "int64" and pys <= {"int"}:
        return dt
    if dt == "int64" and pys == {"float"}:
        return "float64"
    return None


def appended(ev, node: ast.Call) -> None:
    """``lst.append(x)`` of a local list: the list's items now include ``x``'s value."""
    func = node.func
    name = func.value.id  # type: ignore[attr-defined]
    cur = ev.env.get(name)
    if cur is None or cur.kind != NOT or (cur.elems is None and cur.item is None):
        return
    x = ev.cache.get(id(node.args[0])) if len(node.args) == 1 and not node.keywords \
        and not isinstance(node.args[0], ast.Starred) else None
    if x is None:  # ``lst.append(*xs)``: what it adds is not known
        ev.env[name] = Value(NOT, item=UNKNOWN_VALUE, mutable=True)
        return
    before = ev.element_of(cur) if cur.elems != () else None
    item = x if before is None else join(before, x)
    ev.env[name] = Value(NOT, item=item, mutable=True)


def list_of_arrays(v: Value) -> Optional[List[Array]]:
    """The arrays a list value holds when every item is proven one (an empty list literal
    is not: a list the analysis saw only as ``[]`` may have been filled where it did not
    look); None otherwise."""
    if v.kind != NOT:
        return None
    if v.elems is not None:
        if not v.elems or any(e.array is None for e in v.elems):
            return None
        return [e.array for e in v.elems]  # type: ignore[misc]
    if v.item is not None and v.item.array is not None:
        return [v.item.array]
    return None


