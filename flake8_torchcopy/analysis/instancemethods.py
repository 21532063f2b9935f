"""What ``m.method(...)`` returns, ``m`` an instance of a project class.

``self.enc = Encoder(...)`` in ``__init__`` (every store of the attribute constructs the
class), or ``enc = Encoder(...)``, with ``Encoder`` a class of the module or of another
module of the project that :mod:`.nnclasses` follows (its instances are tagged ``"@Encoder"``
/ ``"@pkg.models.Encoder"``): ``self.enc.encode(x)`` runs the ``encode`` the class chain
binds, found as :func:`.nnclasses.forward_of` finds ``forward`` (chains of single bases up to
``nn.Module``, or to a plain class: no base, or ``object``; nothing in them binding
``__call__``, ``__getattribute__``..., nor a method ``nn.Module`` returns itself by), the method
bound once by a plain ``def`` that ends in a ``return``), where neither the module defining
the class nor the one calling the method stores an attribute of that name (``self.encode =
f`` would shadow the method), calls ``setattr``, names ``__dict__``, or may patch the method
(:func:`.nnclasses.may_patch`: its name in a string, ``patch.object(Encoder, "encode", g)``;
``mock``, ``patch(...)`` or ``monkeypatch`` at all).

Which evidence is certain: the instance's class is exact (``Encoder(...)`` makes an
``Encoder``, no ``__new__`` or metaclass in the chain), so no subclass can override the
method (the hedge on ``self.m(...)``, :mod:`.selfmethods`, is not needed).  A method called
by name does not go through ``nn.Module.__call__``: no forward hook or pre-hook can replace
its arguments or its result (``m(x)`` goes through them: :mod:`.nnclasses`).  What stays
unseen is a store in a module not read (``model.enc = Other()``, ``Encoder.encode = g``):
the value carries a caveat (:data:`METHOD_OUTPUT`, or :data:`~.values.OTHER_MODULE` for a
class of another module), so reports stand and fixes resting on them are unsafe (TRC201's
``.reshape`` too, by :func:`from_elsewhere`, as a layout carried by calls not all seen is,
:mod:`.paramlayouts`).

The method is walked once (per module, or per version of the other module:
:func:`.projectdecide.tensor_def`) with its parameters unknown, as the walker does every
function: untraced tensors are taken contiguous.  The call is a tensor where every
``return`` is one; a tuple with tensors at fixed positions where every ``return`` is a tuple
display of one length; and, where every ``return`` is laid out densely in one order of its
dims that is not theirs (``return x.contiguous().view(b, n, c).transpose(0, 1)``) and whose
layout no argument's layout reaches (:func:`.ownlayouts.own_layout`: ``x.view(...)`` of a
transposed ``x`` keeps its strides), a tensor of that rank and layout, with sizes of its
own (symbols of the call; how they relate to the arguments is not followed).  Cost: asked
only of a call whose receiver is a tagged instance (found where the function's text holds a
call their outputs could report at, :func:`.nnmodules.consumed_in`); each answer kept for
the walk of the module.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple, Union

from . import layout as L
from .returnwalker import Shape, tuple_length, tuple_shape, tuple_value
from .symbolic import Mono, Sym
from .values import OTHER_MODULE, TENSOR, UNKNOWN, Value

#: the caveat on what a method of an instance of a class of the module returns
METHOD_OUTPUT = "it is what a method of an instance returns (a store not seen may replace the instance)"

_KEY = "instance-method"
_ELSEWHERE = "instance-method of another module"


def from_elsewhere(sym: Sym) -> bool:
    """Is this a size of what a method of an instance returned (a layout a store not seen,
    in a module not read, may change: TRC201's fix is unsafe, as :data:`METHOD_OUTPUT` and
    :data:`~.values.OTHER_MODULE` make every fix resting on the value)?"""
    key = sym.key[1]
    return isinstance(key, tuple) and bool(key) and key[0] in (_KEY, _ELSEWHERE)


@dataclass(frozen=True)
class Returned:
    """What every call of a method returns: ``shape`` (:data:`~.returnwalker.Shape`) and
    ``order``, the one order of dims every ``return`` is laid out densely in (not theirs)."""

    shape: Shape
    order: Optional[Tuple[int, ...]] = None

    def __bool__(self) -> bool:
        return bool(self.shape) or self.order is not None


NOTHING = Returned(False)


def summary(func: ast.AST, values: Optional[List[Optional[Value]]]) -> Returned:
    """What the recorded returns ``values`` of ``func`` (None: not walked) say of its calls."""
    if not values:
        return NOTHING
    n = tuple_length(func)
    if n is not None:
        found = tuple_shape(values, n)
        return Returned(found) if found is not None else NOTHING
    from .ownlayouts import own_layout
    from .selfmethods import returns_order
    tensor = all(v is not None and v.kind == TENSOR for v in values)
    order = returns_order(values)
    if order is not None and (order == tuple(range(len(order))) or not own_layout(func)):
        order = None  # no permutation, or one the layouts of the arguments may undo
    return Returned(tensor, order)


def method_call(ev, node: ast.Call, tag: str) -> Optional[Value]:
    """The value of ``m.<method>(...)`` (``node``) of an instance tagged ``tag`` (``"@Net"``,
    ``"@pkg.models.Net"``), where the class's method says; else None."""
    from .nnclasses import attribute_stored, follows, may_patch
    attr = node.func.attr  # type: ignore[attr-defined]
    if not follows(ev) or attr.startswith("__"):
        return None
    if ev.has["setattr"] or ev.has["__dict__"] or attribute_stored(ev.source, attr) \
            or may_patch(ev.source, attr):
        return None  # an attribute of that name stored here may shadow the method, a patch replace it
    name = tag[1:]
    known: Dict[Tuple[str, str], Returned] = ev.__dict__.setdefault("_instance_methods", {})
    if (name, attr) not in known:
        known[(name, attr)] = _imported(ev, name, attr) if "." in name else _local(ev, name, attr)
    found = known[(name, attr)]
    if not found:
        return None
    caveat = OTHER_MODULE if "." in name else METHOD_OUTPUT
    return value_of(ev, node, found, caveat)


def value_of(ev, node: ast.Call, found: Returned, caveat: str) -> Value:
    """The call's value, from what its method returns (``found``)."""
    if isinstance(found.shape, tuple):
        return tuple_value(found.shape, [caveat] * len(found.shape))
    kind = TENSOR if found.shape is True else UNKNOWN
    if found.order is None:
        return Value(kind, caveat=caveat)
    order = found.order
    text = ev.idx.text(node)
    kind_key = _ELSEWHERE if caveat == OTHER_MODULE else _KEY
    sizes: List[Mono] = [Mono.sym(Sym(f"{text}.size({i})", (kind_key, id(node), i))) for i in range(len(order))]
    mem = L.contiguous_strides([sizes[i] for i in order])
    strides = [mem[0]] * len(order)
    for k, i in enumerate(order):
        strides[i] = mem[k]
    callee = ev.idx.text(node.func)
    return Value(kind, caveat=caveat, sizes=tuple(sizes), strides=tuple(strides), permuted_by=f"{callee}(...)")


def _local(ev, name: str, attr: str) -> Returned:
    """A method of the class ``name`` of the module ``ev`` walks."""
    from .nnclasses import forward_of, module_classes
    from .returnwalker import module_returns
    tree = getattr(ev, "tree", None)
    if tree is None:
        return NOTHING
    classes = ev.__dict__.get("_nn_classes")
    if classes is None:
        classes = ev._nn_classes = module_classes(tree)
    cls = classes.get(name)
    if cls is None:
        return NOTHING
    func = forward_of(cls, classes, ev.static_qualname, ev.source, lambda n: n not in ev.rebound, attr)
    if func is None:
        return NOTHING
    return summary(func, module_returns(ev, func, True))


def _imported(ev, dotted: str, attr: str) -> Returned:
    """A method of the class ``dotted`` of another module of the project."""
    from .project import project_for
    project = project_for(getattr(ev, "path", None))
    if project is None:
        return NOTHING
    found = project.method_returns(dotted, attr)
    return found if isinstance(found, Returned) else NOTHING


Decided = Union[Shape, Returned]
