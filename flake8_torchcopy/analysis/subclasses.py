"""Subclass caveats: when a tensor the analysis computes may be a Tensor subclass.

Ops on a Tensor subclass return the subclass (``__torch_function__`` sees every tensor
argument), so a fix that needs a plain tensor is exact only where no input may be one.
:class:`SubclassCaveats` is the part of the expression evaluator
(:class:`~.exprs.Evaluator`) that passes the caveat of a receiver, an argument or an
operand on to the result (:meth:`~SubclassCaveats.derived_caveat`): a method's
arguments too (``x.view(n)``, ``x.index_select(0, i)`` of a subclass ``n``, ``i`` return
the subclass), and every argument of a torch function but the data of ``torch.tensor``,
``from_numpy`` and ``frombuffer`` (a size, ``dtype=``, ``generator=`` may dispatch).
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Sequence

from . import torchapi as api
from . import torchfacts as facts
from .escapes import let, let_out, may_close_over, names_in, reached
from .modulescan import builtin as _builtin
from .values import ANNOTATED, NOT, SUBCLASS, TENSOR, UNKNOWN, UNKNOWN_VALUE, Value

# torch functions whose data argument (the first) decides nothing of the result's class
# (checked with torch: ``torch.tensor(sub)`` is a plain tensor). Any other argument of a
# torch function may: a size, a bound or a ``dtype=``/``device=``/``generator=`` that is a
# tensor subclass or a ``__torch_function__`` object dispatches (``torch.zeros(n)`` of a
# 0-dim subclass ``n`` returns the subclass, ``torch.tensor(1.0, dtype=obj)`` what
# ``obj`` says)
_DATA_FACTORIES = frozenset("torch." + n for n in "tensor from_numpy frombuffer".split())
# torch functions taking a sequence of tensors first: a list whose items the analysis does not
# know (``xs = []`` then appends, ``[d[k] for d in ds]``) may hold a subclass, which
# ``torch.cat`` returns (checked with torch: tests/test_corpora_twelfth_round.py)
_SEQUENCE_OPS = frozenset("torch." + n for n in (
    "cat concat concatenate stack hstack vstack dstack column_stack row_stack block_diag "
    "broadcast_tensors meshgrid cartesian_prod einsum chain_matmul").split())
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp)
# modules whose attributes a call's arguments name are dtypes, devices, numbers, functions:
# no tensor subclass (what another module binds may be one)
_LIBRARIES = frozenset({"torch", "numpy", "math", "cmath", "builtins", "sys"})


class SubclassCaveats:
    """Passes a possible Tensor subclass on from what a tensor is computed from."""

    cache: Dict[int, Value]  # the evaluator's: id(node) -> its value
    imported_from: Dict[int, tuple]  # the evaluator's: id(value) -> (value, level, module, name)

    def derived_caveat(self, node: ast.AST, v: Value) -> Value:
        """A tensor computed from a value that may be a Tensor subclass (or is not known to
        be a plain tensor) may itself be one: ops on a subclass return the subclass."""
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and self.cache.get(id(func.value)) is not None \
                    and self.cache[id(func.value)].qualname is None:
                sources = [func.value]  # a method: its receiver
            else:
                args = list(node.args)
                qualname = (self.cache.get(id(func)) or UNKNOWN_VALUE).qualname
                if args and qualname in _DATA_FACTORIES:
                    args = args[1:]  # torch.tensor(x) is plain whatever x is
                items = self.items_caveat(args, qualname in _SEQUENCE_OPS)
                if items is not None:
                    return v.with_(caveat=items)
                sources = args + [k.value for k in node.keywords]
                sources = [a.value if isinstance(a, ast.Starred) else a for a in sources]
                out = []
                for a in sources:  # torch.cat([a, b]): the items
                    out.extend(a.elts if isinstance(a, (ast.List, ast.Tuple)) else [a])
                sources = out
            method = isinstance(func, ast.Attribute) and bool(sources) and sources[0] is func.value
            if method:
                # x.add(y), buf.copy_(y), z.to(ref), x.view(n), x.index_select(0, i): y, n, i decide too
                sources = sources + [a.value if isinstance(a, ast.Starred) else a
                                     for a in list(node.args) + [k.value for k in node.keywords]]
        else:
            sources = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]
        for c in sources:
            if c is None:
                continue
            cv = self.cache.get(id(c))
            if cv is None:
                continue
            caveat = _caveat(cv, self.imported_from) if cv.kind != NOT or c.__class__ is not ast.Call \
                else self.read_caveat(c)
            if caveat is not None:
                return v.with_(caveat=caveat)
        return v

    def read_caveat(self, call: ast.Call) -> Optional[str]:
        """``n.item()``, ``s.size(0)``, ``s.numel()`` of an ``n`` not known to be a tensor: read
        as a number, yet another object's method may return anything, a 0-dim subclass too."""
        f = call.func
        if not isinstance(f, ast.Attribute):
            return None
        recv = self.cache.get(id(f.value))
        if recv is None or recv.qualname is not None or recv.kind not in (UNKNOWN, ANNOTATED):
            return None
        return _caveat(recv, self.imported_from) if recv.local_def else SUBCLASS

    def items_caveat(self, args, sequence_op: bool):
        """The caveat of the items of a sequence argument that is not a literal list: a
        comprehension's element, what a list is known to hold, or (first argument of a
        function taking a sequence of tensors) items the analysis does not know."""
        for i, a in enumerate(args):
            cv = self.cache.get(id(a))
            if isinstance(a, _COMPREHENSIONS):
                items = [self.cache.get(id(a.elt))]
            elif cv is None or cv.qualname is not None or isinstance(a, (ast.List, ast.Tuple)):
                continue
            elif cv.item is not None:
                items = [cv.item]
            elif cv.elems is not None:
                items = list(cv.elems)
            else:
                if i == 0 and sequence_op and cv.kind == NOT:
                    return SUBCLASS  # a list of items not known
                continue
            for it in items:
                if it is None:
                    if i == 0 and sequence_op:
                        return SUBCLASS
                    continue
                caveat = _caveat(it, self.imported_from)
                if caveat is not None:
                    return caveat
        return None


def _caveat(cv: Value, imported: Dict[int, tuple]) -> Optional[str]:
    """Why a value an op is computed from may make its result a subclass (or no tensor at
    all): it may be one itself.  A value of unknown kind may be, whatever sizes it stands for
    (``self.n``, ``s * 2`` of a parameter ``s``: a 0-dim subclass there makes ``torch.zeros``
    return the subclass, and ``torch.ones(3) * obj`` is what ``obj.__rmul__`` returns), and
    so may a name another module binds (``from cfg import S``, ``from .cfg import S``, a
    star import's, ``cfg.scale``: a third module may rebind it first, ``cfg.S = obj``); a
    name of torch, numpy or math (``torch.float64``, ``np.pi``) may not, nor a ``def`` or
    ``class`` of the module."""
    if cv.qualname is not None:
        return None if cv.qualname.split(".")[0] in _LIBRARIES or cv.local_def else SUBCLASS
    if cv.caveat is not None:
        return cv.caveat
    if cv.local_def:  # of the module, unless a relative or star import bound it
        held = imported.get(id(cv))
        return SUBCLASS if held is not None and held[0] is cv else None
    if cv.kind == ANNOTATED or cv.kind == UNKNOWN:
        return SUBCLASS
    return None


#: a plain tensor handed to a function the analysis does not know may come back another
#: class: ``def mark(t): t.__class__ = Marked`` (in another module too; checked with torch in
#: tests/test_review12.py)
HANDED_OVER = "a function it was handed to may have changed its class (t.__class__ = C)"
_TENSOR_METHOD_NAMES = api.TENSOR_METHODS | api.NON_TENSOR_METHODS | api.TENSOR_ONLY_METHODS | frozenset(
    facts.TUPLE_METHODS) | facts.TENSOR_LIST_METHODS
# builtins that reach nothing but their arguments (range(n), zip(a, b), int(x))
_BUILTIN_MAKERS = frozenset("range zip enumerate int float bool str list tuple dict set sum abs round reversed "
                            "any all divmod pow hash repr format".split())
_READERS = frozenset({"len", "print", "isinstance", "id", "type", "getattr", "hasattr"})


def handed_over(ev, node: ast.Call, func: Value) -> None:
    """After ``helper(t)``, ``obj.m(t)`` of a name ``t`` holding a plain tensor, ``t`` may be
    a subclass: its value takes :data:`HANDED_OVER`; and its layout may have changed
    (``t.data = t.data.contiguous()``, ``t.resize_(6)``): its sizes and strides are dropped
    (a permuted one stays marked permuted).  So after any such call for a name the function
    let out before into a container or an attribute (:mod:`.escapes`: ``xs = [t];
    helper(xs)``, ``self.t = t; self.helper()``).  Not after a torch function or a method of
    a tensor (torch's own: patched ones are :func:`.modulescan.may_retype`'s), nor ``len(t)``,
    ``print(t)``, ``isinstance(t, C)``... of the builtins."""
    q = func.qualname
    if q is not None and (q.split(".")[0] == "torch" or q in _READERS):
        return
    f = node.func
    if isinstance(f, ast.Attribute) and (ev.cache.get(id(f.value)) or UNKNOWN_VALUE).kind == TENSOR:
        return
    if isinstance(f, ast.Name) and q is None and (f.id in _READERS or f.id == "setattr" and _plain_store(node)) \
            and _builtin(ev, f.id):
        if f.id == "setattr":
            let(ev, node.args[2:])  # setattr(h, "t", t): a later call reaching h reaches t
        return
    makers = isinstance(f, ast.Name) and q is None and f.id in _BUILTIN_MAKERS and _builtin(ev, f.id)
    # the arguments, the items of a display (a comprehension, a lambda) passed, the keywords' values
    names = reached_names(ev, node.args + [k.value for k in node.keywords], lets_out=not makers)
    if not names:
        return
    # x.expand_as(t) of a receiver not known to be a tensor: most likely torch's (its layout kept)
    recv = (ev.cache.get(id(f.value)) or UNKNOWN_VALUE) if isinstance(f, ast.Attribute) else None
    layouts = not (isinstance(f, ast.Attribute) and recv is not None and f.attr in _TENSOR_METHOD_NAMES
                   and recv.kind != NOT and recv.qualname is None and not recv.local_def)
    _mark(ev, names, layouts)


def reached_by_other_code(ev, passed: Sequence[ast.AST]) -> None:
    """What ``passed`` holds, and what was let out before, may have changed class and
    layout: a generator's consumer ran (``yield t``)."""
    names = reached_names(ev, passed, lets_out=True)
    if names:
        _mark(ev, names, True)


_OPAQUE = (ast.Constant, ast.Attribute, ast.Call, ast.Subscript, ast.Compare, ast.UnaryOp)


def reached_names(ev, passed: Sequence[ast.AST], lets_out: bool) -> List[str]:
    """The names of held values ``passed`` holds (and their aliases), and (with ``lets_out``)
    those let out before (:mod:`.escapes`)."""
    held: set = set()
    for a in passed:
        if type(a) is ast.Name:
            held.add(a.id)
        elif type(a) not in _OPAQUE:
            names_in(a, held)
    env = ev.env
    if lets_out:  # a callback handed on may reach what it reads: looked for where a value may change
        held |= let_out(ev, may_close_over(ev) and bool([1 for v in env.values() if _held(v)]))
    return [n for n in reached(ev, held) if _held(env.get(n))] if held else []


def _mark(ev, names: List[str], layouts: bool) -> None:
    env = ev.env
    for name in names:
        v = env[name]
        changes: dict = {"caveat": HANDED_OVER} if _plain_tensor(v) else {}
        if layouts and (v.sizes is not None or v.open_layout is not None):
            changes.update(sizes=None, strides=None, open_layout=None, assumes=frozenset())
        if changes:
            env[name] = v.with_(**changes)


def _held(v: Optional[Value]) -> bool:
    """A value a helper may change: a plain tensor's class, a traced layout."""
    return v is not None and (v.kind == TENSOR and v.caveat is None or v.sizes is not None
                              or v.open_layout is not None)


def _plain_store(node: ast.Call) -> bool:
    """``setattr(t, "grad", None)``: a named attribute other than ``data`` and ``__class__``."""
    name = node.args[1] if len(node.args) == 3 and not node.keywords else None
    return isinstance(name, ast.Constant) and name.value not in ("data", "__class__")


def _plain_tensor(v: Optional[Value]) -> bool:
    return v is not None and v.kind == TENSOR and v.caveat is None
