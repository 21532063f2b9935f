"""Instances of torch.nn module classes, and what calling one returns.

``m = nn.Linear(3, 4)`` (any spelling the imports resolve to ``torch.nn.<Class>``; also moved
or switched: ``.to(device)``, ``.eval()``, which return the module) binds an instance, held
as :attr:`~.values.Value.nnmod` (a tag: the class's name, for RNNs with their
``batch_first``); ``self.fc`` is one where every store of the attribute is a constructor of
the same class (:mod:`.summaries`).  Calling it returns:

* one tensor, for the classes whose ``forward`` is annotated ``-> Tensor``
  (``torchfacts.NN_TENSOR_MODULES``, read from torch; ``Identity`` and the transformer
  stacks, which return what their input or submodules are, left out); a fixed tuple of
  tensors for ``NN_TUPLE_MODULES`` (``LSTMCell``);
* for ``RNN``/``GRU``/``LSTM``: ``(output, h_n)`` / ``(output, (h_n, c_n))``.  ``output``
  is a tensor only when the input is one (a ``PackedSequence`` gives one back); of an input
  not proven a tensor (``forward(self, x)``) it keeps only the layout a tensor output would
  have, its kind unknown: a view of it raises either way (``PackedSequence`` has no
  ``view``), and no copy rule reports it.  Its
  layout, measured on CPU torch 2.13 (ATen transposes a batch_first input in and the
  output back, on every backend): with ``batch_first=True`` a 3-d output ``(B, T, D)`` is
  the ``transpose(0, 1)`` of a contiguous ``(T, B, D)``, strides ``(D, B*D, 1)``; without
  it, or for a 2-d (unbatched) input, it is contiguous.  ``h_n`` and ``c_n`` are
  contiguous.  A ``batch_first`` that is not a literal, or that code may store
  (``m.batch_first = ...``, ``m.__init__(...)``, ``__setstate__``), leaves the output's
  layout unknown (never taken contiguous).  Its last dim is the constructor's literal
  ``hidden_size`` (``proj_size`` where given, twice either when bidirectional), else a size
  of its own.

``m.forward(x)`` returns what ``m(x)`` does, less the hooks.  ``nn.Sequential`` of
instances of the tensor classes: :mod:`.nncontainers`.

Every value so proven carries :data:`NN_OUTPUT` as its caveat: a forward hook (on the
instance or global) may replace the output, and a store the module does not show may
replace the instance, so the reports stand and every copy fix (TRC101–TRC112) resting on
them is unsafe; TRC201's ``.reshape`` is what ``.view`` gives wherever that works, whatever
proved the layout.  A module whose text stores ``.<Class>`` (``nn.Linear = MyLinear``),
``.forward`` or ``.__call__`` (any use but a call; the names in a string) or ``__class__``,
registers a forward hook or pre-hook, names ``__dict__``, ``__setattr__``, ``vars(`` or
``_call_impl``, or calls ``setattr`` on torch or ``nn`` proves nothing.
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Dict, List, Optional, Sequence, Union

from ..textsearch import AnyOf, whole_word
from . import layout as L
from . import nnclasses, nncontainers
from .elementwise import permuted_origin
from .symbolic import Condition, Mono, Sym
from .torchfacts import NN_TENSOR_MODULES, NN_TUPLE_MODULES
from .torchsem import known_size
from .values import NOT, TENSOR, UNKNOWN, UNKNOWN_VALUE, Value

NN_OUTPUT = "it is a torch.nn module's output (a forward hook may replace it)"

#: nn.Module methods that return the module itself (``nn.Linear(3, 4).to(device).eval()``)
RETURNS_SELF = frozenset("to cpu cuda float double half bfloat16 train eval requires_grad_ type "
                         "share_memory apply to_empty".split())

#: methods of an instance :func:`method_call` follows
METHODS = RETURNS_SELF | {"forward"}

#: the recurrent classes: how many hidden-state tensors follow the output
RNNS = {"RNN": 1, "GRU": 1, "LSTM": 2}
_PREFIX = "torch.nn."
_TEXT: List = [None, {}]  # (the module's source, {question: its answer}): text scans, once per module


def tag_of(call: Optional[ast.AST], qualname: Callable[[ast.AST], Optional[str]], source: str) -> Optional[str]:
    """The tag of the instance ``call`` constructs (``"Linear"``; ``"LSTM:1:16"`` for
    ``batch_first=True`` and an output 16 wide, ``:0`` without it, ``:?`` where it is not a
    literal, the width left empty where the constructor does not write it with literals),
    or None."""
    while isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
            and call.func.attr in RETURNS_SELF and isinstance(call.func.value, ast.Call):
        call = call.func.value  # nn.Linear(3, 4).to(device): the instance itself
    if not isinstance(call, ast.Call):
        return None
    q = qualname(call.func)
    if q is None or not q.startswith(_PREFIX):
        return nnclasses.static_tag(call, q, qualname)  # a class of the project, or None
    name = q[len(_PREFIX):]
    if name == nncontainers.SEQUENTIAL:  # of instances of NN_TENSOR_MODULES only: :mod:`.nncontainers`
        if not nncontainers.all_tensor_items(call, qualname, lambda item: tag_of(item, qualname, source)):
            return None
    elif name not in NN_TENSOR_MODULES and name not in NN_TUPLE_MODULES and name not in RNNS:
        return None
    if _replaced(source, name):
        return None
    return f"{name}:{_batch_first(call, source)}:{_width(call)}" if name in RNNS else name


def _width(call: ast.Call) -> str:
    """The size of an RNN output's last dim where the constructor writes it with literals
    (``hidden_size``, ``proj_size``, ``bidirectional``; only the first two arguments
    positional), else ``""``."""
    kw = {k.arg: k.value for k in call.keywords}
    if len(call.args) > 2 or len(call.args) == 2 and "hidden_size" in kw:
        return ""
    hidden = call.args[1] if len(call.args) == 2 else kw.get("hidden_size")
    proj = kw.get("proj_size", ast.Constant(0))
    both = kw.get("bidirectional", ast.Constant(False))
    if not (isinstance(hidden, ast.Constant) and type(hidden.value) is int and isinstance(proj, ast.Constant)
            and type(proj.value) is int and isinstance(both, ast.Constant) and type(both.value) is bool):
        return ""
    return str((proj.value or hidden.value) * (2 if both.value else 1))


def same_tag(calls: Sequence[Optional[ast.AST]], qualname, source: str) -> Optional[str]:
    """The one class every call of ``calls`` constructs (an RNN whose stores disagree on
    ``batch_first`` gets ``:?``), or None."""
    tags = [tag_of(c, qualname, source) for c in calls]
    if not tags or None in tags:
        return None
    names = {t.partition(":")[0] for t in tags if t is not None}
    if len(names) != 1:
        return None
    return tags[0] if len(set(tags)) == 1 else f"{names.pop()}:?"


def _scan(source: str, key: str, pattern: Union[str, AnyOf]) -> bool:
    """Does ``pattern`` occur in ``source``?  Asked once per module and question."""
    if _TEXT[0] is not source:
        _TEXT[:] = [source, {}]
    known: Dict[str, bool] = _TEXT[1]
    found = known.get(key)
    if found is None:
        found = known[key] = (re.search(pattern, source) if isinstance(pattern, str)
                              else pattern.search(source)) is not None
    return found


def _replaced(source: str, name: str) -> bool:
    """May the module replace ``torch.nn.<name>`` (``nn.Linear = f``, ``setattr(nn, ...)``,
    ``nn.__dict__[...]``), an instance's ``forward`` or ``__call__`` (``m.forward = f``, any use
    of the attribute but a call, ``setattr(m, "forward", f)``) or class (``m.__class__ = L``),
    its input or output (a forward hook or pre-hook)?"""
    return _scan(source, name, rf"\.{name}\s*=(?!=)") or hooked(source)


def hooked(source: str) -> bool:
    """:func:`_replaced` less the store of the class: may the module replace an instance's
    ``forward``, ``__call__`` or class, or register a hook?"""
    return _scan(source, "", _HOOKED)


# each led by its literal (.textsearch): one alternation of them is tried at every position
_HOOKED = AnyOf([
    "forward_hook", "forward_pre_hook", "_call_impl", "__dict__", r"vars\(", "__setattr__",
    r"\.forward\b(?!\s*(?:\(|[=!]=))", r"\.__call__\b(?!\s*(?:\(|[=!]=))",
    r"""forward["'](?<=["']forward["'])""", r"""__call__["'](?<=["']__call__["'])""",
    r"setattr\(\s*(?:torch|nn)\b", r"__class__(?!\s*(?:[.()]|[=!]=|is\b))"])


def _batch_first(call: ast.Call, source: str) -> str:
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return "?"
    if "setattr" in source or "__setstate__" in source or _scan(source, ".batch_first", r"\.batch_first\s*=(?!=)") \
            or _scan(source, ".__init__", r"\w\.__init__\("):
        return "?"  # m.batch_first = ..., m.__init__(...) somewhere: an instance may change
    for k in call.keywords:
        if k.arg == "batch_first":
            if isinstance(k.value, ast.Constant) and k.value.value in (True, False):
                return "1" if k.value.value is True else "0"
            return "?"
    return "?" if len(call.args) > 4 else "0"  # LSTM's fifth (RNN's sixth) positional is batch_first


#: calls one of which a function's text (and its class's) must hold for ``self.<attr>`` to be
#: looked up as an instance (deciding the attribute summary costs a scan of the module): those
#: whose reports an instance's output can make (``torch.tensor(``, ``x.new_tensor(``,
#: ``deepcopy(``, ``torch.Tensor(``, ``.tolist()``, ``.numpy()``); for an RNN also ``view(``,
#: and for an instance of a project class (a method of it may return a layout)
CONSUMERS = AnyOf([whole_word("tensor", r"\("), whole_word("Tensor", r"\("), whole_word("deepcopy", r"\("),
                   r"\.new_tensor\(", r"\.tolist\(", r"\.numpy\("])  # ``.tensor(`` is a whole word too


def consumes(text: str, rnn: bool = False) -> bool:
    """Does ``text`` hold a call an instance's output could give a report at (``rnn``: the
    instance is an RNN's, whose output's layout a view may need)?"""
    return CONSUMERS.search(text) is not None or rnn and "view(" in text


def consumed_in(ev, tag: str) -> bool:
    """Does the text of the function being walked hold a call :func:`consumes` names, for
    an instance tagged ``tag``?"""
    func = getattr(ev, "closure_func", None)
    if func is None:
        # the module body: a project class's instance (``loader = data.Loader(...)`` of a
        # script), where the module's text holds such a call (once per module)
        if tag[:1] != "@" or not getattr(ev, "in_module_body", False):
            return False
        known_module = ev.__dict__.get("_nn_module_consumes")
        if known_module is None:
            known_module = ev._nn_module_consumes = consumes(ev.source, True)
        return known_module
    if getattr(ev, "summarising_forward", False):
        return True  # the walker of returns on a forward (.nnclasses): what it returns is asked for
    rnn = tag[:1] == "@" or tag.partition(":")[0] in RNNS  # a project class's method may return a layout
    known: Dict[tuple, bool] = ev.__dict__.setdefault("_nn_consumers", {})
    found = known.get((id(func), rnn))
    if found is None:
        # an output passed to a closed function may carry its kind or layout there (.callsites)
        found = known[(id(func), rnn)] = consumes(ev.idx.line_text(func), rnn) or id(func) in ev.sites.callers
    return found


def output(ev, node: ast.Call, tag: str, args: List[Value]) -> Value:
    """What calling an instance tagged ``tag`` returns (``args``: its positional arguments'
    values)."""
    if tag.startswith("@"):
        return nnclasses.output(ev, tag)  # an instance of a class of the project
    name, flag, width = (tag.split(":") + ["", ""])[:3]
    if name in NN_TUPLE_MODULES:
        return Value(NOT, elems=tuple(Value(TENSOR, caveat=NN_OUTPUT) for _ in NN_TUPLE_MODULES[name]))
    if name not in RNNS:
        caveat = nncontainers.SEQUENTIAL_OUTPUT if name == nncontainers.SEQUENTIAL else NN_OUTPUT
        return Value(TENSOR, caveat=caveat, permuted_by=permuted_origin(args))
    hidden = Value(TENSOR, caveat=NN_OUTPUT)
    state = Value(NOT, elems=(hidden, hidden)) if RNNS[name] == 2 else hidden
    if not node.args or isinstance(node.args[0], ast.Starred) or not args:
        return Value(NOT, elems=(UNKNOWN_VALUE, state))
    out = _rnn_output(ev, node, name, flag, width, args[0])
    if args[0].kind != TENSOR:  # a PackedSequence in gives one out: only the layout stands
        out = Value(UNKNOWN, sizes=out.sizes, strides=out.strides, permuted_by=out.permuted_by,
                    assumes=out.assumes)
    return Value(NOT, elems=(out, state))


def _rnn_output(ev, node: ast.Call, name: str, flag: str, width: str, x: Value) -> Value:
    """The output of an RNN run on the tensor ``x`` (``node.args[0]``); ``width``: the size
    of its last dim where the constructor writes it with literals."""
    article = "an" if name[0] in "AEFHILMNORSX" else "a"  # an RNN, an LSTM, a GRU (said by letter)
    if flag == "?":
        return Value(TENSOR, caveat=NN_OUTPUT, permuted_by=f"{article} {name} whose batch_first is not known")
    text = ev.idx.text(node)
    feat = Mono.const(int(width)) if width else Mono.sym(Sym(f"{text}[0].size(-1)", ("rnn", id(node))))
    rank = len(x.sizes) if x.sizes is not None else None
    if rank == 2 or flag == "0" and rank == 3:  # unbatched, or (T, B, D): contiguous
        sizes = tuple(x.sizes[:-1]) + (feat,)  # type: ignore[index]
        return Value(TENSOR, caveat=NN_OUTPUT, sizes=sizes, strides=L.contiguous_strides(sizes))
    if flag == "0" or rank is not None and rank != 3:
        return Value(TENSOR, caveat=NN_OUTPUT)  # contiguous, sizes not known (or it raises)
    label = f"{article} {name} with batch_first=True"
    assumes: frozenset = frozenset()
    if rank == 3:
        b, t = x.sizes[0], x.sizes[1]  # type: ignore[index]
    else:  # taken as batched (3-d): unless the input is 2-d, when the output is contiguous
        arg = node.args[0]
        xt = ev.idx.text(arg)
        dims = [known_size(x, i) or ev.asked_dim(f"{xt}.size({i})", x, i, arg) for i in (0, 1)]
        b, t = dims
        assumes = frozenset({Condition(f"{xt}.dim() == 2")})
    sizes = (b, t, feat)
    return Value(TENSOR, caveat=NN_OUTPUT, sizes=sizes, strides=(feat, b * feat, Mono.const(1)),
                 permuted_by=label, assumes=assumes)


def method_call(ev, node: ast.Call, recv: Value, args: List[Value]) -> Value:
    """``m.<method>(...)`` of an instance (``recv``), the method one of :data:`METHODS`: the
    module itself (``m.to(device)``), or what ``m(x)`` returns less the hooks (``m.forward(x)``)."""
    assert recv.nnmod is not None
    return output(ev, node, recv.nnmod, args) if node.func.attr == "forward" else recv  # type: ignore[attr-defined]


def instance(ev, node: ast.Call, q: str) -> Optional[Value]:
    """``nn.<Class>(...)`` (``q``: its qualified name): an instance, or None."""
    if q == _PREFIX + nncontainers.SEQUENTIAL:  # its items are called by their qualified names
        tag = tag_of(node, ev.static_qualname, ev.source)
        if tag is not None and not nncontainers.local_kept(ev, node):
            return None  # items it may be given later, where the function does not show it
    else:
        tag = tag_of(node, lambda f: q if f is node.func else None, ev.source)
    return None if tag is None else Value(UNKNOWN, nnmod=tag)
