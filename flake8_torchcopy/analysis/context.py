"""What a rule may ask: the values the analysis found, source text, and reporting.

This is the only part of the analysis rules see.  A rule does not care where the
evidence for a value came from (data flow in the function, narrowing, module
summaries, library knowledge): it asks questions such as :meth:`Context.is_tensor`.
"""
from __future__ import annotations

import ast
import re
import weakref
from typing import Any, List, Optional, Sequence, Tuple, cast

from . import arrayuses, foreignmethods, gradfree, gradmode, hostmade, listattrs, locallists, numpyish, tensorlists
from .caught import CAUGHT_ASSERTION, CAUGHT_RUNTIME, CAUGHT_TYPE
from .modulescan import builtin, changes_layouts_in_place, defines_method, may_trace, names_a_default_device
from .nodeindex import select
from .scopes import enclosing_scope
from .symbolic import Mono
from .torchapi import DTYPE_NAMES, LEGACY_CONSTRUCTORS
from .values import ANNOTATED, NOT, TENSOR, UNKNOWN_VALUE, Value
from .views import NOT_JUDGED, ViewJudgement, judge_view

#: a torch function or dispatch mode the module may define or enter
_MODES_RE = re.compile(r"Torch(?:Function|Dispatch)Mode|_python_dispatch|FakeTensorMode|FlopCounterMode|make_fx"
                       r"|_push_mode|torch_function_mode")


class Context:
    """What a rule may ask about the file and the node it is checking."""

    def __init__(self, walker) -> None:
        # a proxy: the walker holds its context, and a cycle would leave the walker and
        # what it holds (the tree's walked functions) to the garbage collector
        self._w = weakref.proxy(walker)
        self.source = walker.source
        self.options = walker.options

    # --- values -------------------------------------------------------------
    def value(self, node: ast.AST) -> Value:
        cache, key = self._w.cache, id(node)  # (``in`` and an index: no call but id's)
        return (cache[key] if key in cache else None) or UNKNOWN_VALUE

    def qualname(self, node: ast.AST) -> Optional[str]:
        return self.value(node).qualname

    def tensor_kind(self, node: ast.AST) -> Optional[str]:
        """``"tensor"`` when the data flow proves a tensor, ``"annotated"`` when only a
        trusted annotation does, None otherwise."""
        kind = self.value(node).kind
        if kind == TENSOR:
            return TENSOR
        if kind == ANNOTATED and self.options.trust_annotations:
            return ANNOTATED
        return None

    def is_tensor(self, node: ast.AST) -> bool:
        """The data flow proves a tensor (an annotation alone does not)."""
        return self.value(node).kind == TENSOR

    def fix_caveat(self, node: ast.AST) -> Optional[str]:
        """Why a fix that needs ``node`` to be a plain tensor is not exact although the
        data flow proves a tensor (it may be a Tensor subclass, it rests on an assert);
        also "not proven a tensor" when it isn't.  None: a plain tensor on every path."""
        v = self.value(node)
        if v.kind != TENSOR:
            return "it is not proven a tensor"
        return v.caveat or self.module_caveat

    @property
    def module_caveat(self) -> Optional[str]:
        """Why no value of the module is certainly a plain tensor: the module may enter a torch
        function or dispatch mode (a logging mode sees the ops a fix reorders or replaces; a
        mode may change what each returns), or rebind its imports (``torch``) dynamically
        (``globals()["torch"] = ...``, ``exec``, ``sys.modules``: the names stay resolved for
        reports).  Read from its text, once."""
        if "_module_caveat" not in self._w.__dict__:
            self._w.__dict__["_module_caveat"] = \
                "the module may run it under a torch function or dispatch mode" if _MODES_RE.search(self._w.source) \
                else "the module may rebind its imports dynamically (exec, globals())" if self._w.dynamic_stores \
                else None
        return self._w.__dict__["_module_caveat"]

    def is_not_tensor(self, node: ast.AST) -> bool:
        """The data flow proves something other than a tensor (a number, a list, None...)."""
        return self.value(node).kind == NOT

    def calls_foreign_methods(self, node: ast.AST) -> bool:
        """``node`` is a name on which the function (the module, outside one) calls a method
        no ``torch.Tensor`` has: no plain tensor where that call returns."""
        if not isinstance(node, ast.Name):
            return False
        scope = self._w.closure_func if self._w.closure_func is not None else self._w.tree
        return foreignmethods.foreign_method_called(scope, node.id)

    def tensor_on_some_path(self, node: ast.AST) -> bool:
        """A tensor on at least one path here, provably not a tensor on every other."""
        return self.value(node).mixed

    def tensor_on_a_path(self, node: ast.AST) -> bool:
        """A tensor on at least one path here (the others may be anything)."""
        return self.value(node).some

    def size_args(self, arg_nodes: Sequence[ast.AST]) -> Optional[List[Optional[Mono]]]:
        """The sizes a ``view``/``reshape``/``expand`` call's arguments stand for: one per
        dim, None for ``-1``; None when they cannot be told (``*sizes``, a tensor)."""
        return self._w.size_args(arg_nodes)

    def legacy_constructor(self, node: ast.AST) -> Optional[str]:
        """``"FloatTensor"`` when ``node`` names a legacy constructor (``torch.FloatTensor``,
        ``torch.cuda.FloatTensor``, ``torch.Tensor``...), else None."""
        q = self.qualname(node)
        if q is None:
            return None
        name = q.rsplit(".", 1)[-1]
        return name if name in LEGACY_CONSTRUCTORS and q in (f"torch.{name}", f"torch.cuda.{name}") else None

    def is_torch_dtype(self, node: ast.AST) -> Optional[bool]:
        """True when ``node`` names a torch dtype (``torch.float16``), False when it names
        something else imported, None when it names nothing known."""
        q = self.qualname(node)
        if q is None:
            return None
        return q.startswith("torch.") and q[6:] in DTYPE_NAMES

    def view_judgement(self, call: ast.Call) -> ViewJudgement:
        """Whether ``x.view(*sizes)`` succeeds, raises (unless which sizes are 1), or is not
        known; not known for a receiver proven not a tensor, nor in a module that may change
        a layout in place (:func:`.modulescan.changes_layouts_in_place`)."""
        func = call.func
        if not isinstance(func, ast.Attribute) or self.is_not_tensor(func.value) \
                or changes_layouts_in_place(self._w):
            return NOT_JUDGED  # y.t_(), y.set_(t), y.data = t: layouts the walk does not follow
        recv = self.value(func.value)
        if recv.kind not in (TENSOR, ANNOTATED) and defines_method(self._w, "view"):
            return NOT_JUDGED  # p.t().view(-1) of a class of the module's own, with its t and view
        args_text = ", ".join(self.text(a) for a in call.args)
        return judge_view(recv, self.size_args(call.args), args_text)

    @property
    def fix_blocker(self) -> Optional[str]:
        """Why a fix that relies on ``torch.tensor`` semantics is not exact here, if it isn't."""
        if self._w.in_jit or self._w.scripts:
            return "inside TorchScript"
        if self._w.default_device:
            return "the module may set a default device"
        if self._w.replaces_torch_tensor:
            return "the module may replace torch.tensor"
        return None

    def default_device_near(self, node: ast.AST) -> bool:
        """May a default device be in force at ``node`` by more than a ``with`` elsewhere: the
        module's text names a setter (:func:`.modulescan.names_a_default_device`), or ``node``
        lies in a ``with`` block (``with torch.device("meta"):``)?  Asked only where
        :attr:`fix_blocker` says the module may set one."""
        if names_a_default_device(self._w.source):
            return True
        line = getattr(node, "lineno", 0)
        return any(w.body[0].lineno <= line <= (w.end_lineno or 0)  # type: ignore[attr-defined]
                   for w in select(self._w.tree, (ast.With, ast.AsyncWith)))

    def recording_off(self, node: ast.AST) -> bool:
        """Is autograd recording certainly off where ``node`` runs (``with torch.no_grad():``,
        ``@torch.inference_mode()`` in its own function: :func:`.gradmode.recording_off`)?"""
        return gradmode.recording_off(self._w.tree, node, self._bound_qualname)

    def certainly_no_grad(self, node: ast.AST) -> bool:
        """Does the tensor ``node`` certainly not require grad (``.detach()``, through
        indexes, views, joins and names: :func:`.gradfree.certainly_no_grad`)?  A "no" may
        still be a tensor that never does."""
        return gradfree.certainly_no_grad(self._w.tree, node, self._bound_qualname)

    def may_be_host_made(self, node: ast.AST) -> bool:
        """Might the tensor ``node`` have been built on the host (by a factory, ``.cpu()``,
        through its names' bindings: :func:`.hostmade.may_be_host_made`)?  Generous: a
        "no" means nothing in the module shows a host build."""
        return hostmade.may_be_host_made(self._w.tree, node, self._bound_qualname, passed=self._passed_to)

    def _passed_to(self, func: ast.AST, param: str) -> Optional[List[ast.AST]]:
        """The argument each call of ``func`` in the module passes ``param``, where ``func``
        is closed and no other module calls it; None otherwise."""
        closed = next((c for c in self._w.sites.functions() if c.node is func), None)
        if closed is None or closed.external or not closed.calls:
            return None
        out = [closed.arguments(call).get(param) for call in closed.calls]
        return None if any(a is None for a in out) else cast(List[ast.AST], out)

    def statement_and_previous(self, node: ast.AST) -> Optional[Tuple[ast.stmt, ast.stmt]]:
        """The statement right before the one holding ``node`` in the same block, and that
        statement; None for the first statement of a block."""
        return hostmade.statement_and_previous(self._w.tree, node)

    def only_assignment(self, name: ast.Name) -> Optional[ast.expr]:
        """The value ``v`` when the function reading ``name`` binds it by one statement, a
        plain ``name = v`` of its own scope (not a parameter, not ``global``/``nonlocal``):
        what every read of the name that does not raise holds.  None otherwise."""
        scope = enclosing_scope(self._w.tree, name)
        if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                or name.id not in self._w.bound_once(scope):
            return None
        for stmt in ast.walk(scope):
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name.id for t in stmt.targets):
                one = len(stmt.targets) == 1 and enclosing_scope(self._w.tree, stmt) is scope
                return stmt.value if one else None
        return None

    def some_assignments(self, name: ast.Name) -> List[ast.expr]:
        """The values of the plain ``name = v`` statements of the function that reads
        ``name`` (others may bind it too: evidence for "maybe", never for "every")."""
        scope = enclosing_scope(self._w.tree, name)
        if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return []
        return [v for v in hostmade._bindings_in(scope, name.id) if isinstance(v, ast.expr)]

    def _bound_qualname(self, node: ast.AST) -> Optional[str]:
        if isinstance(node, ast.Name):
            return self._w.lookup(node.id).qualname
        if isinstance(node, ast.Attribute):
            base = self._bound_qualname(node.value)
            return None if base is None else f"{base}.{node.attr}"
        return None

    @property
    def error_may_be_handled(self) -> bool:
        """Is the node inside a ``try`` body with a handler that may catch a RuntimeError,
        or a ``with`` whose manager may swallow it?  (A fix that turns an error into a
        result would skip that handler.)  Also where the function being walked may be called
        inside such a ``try`` of the module (:func:`.caught.called_where_caught`)."""
        func = self._w.closure_func
        return any(c & CAUGHT_RUNTIME for c in self._w.catching) \
            or (func is not None and func.name in self._w.functions_caught())

    @property
    def device_error_may_be_handled(self) -> bool:
        """:attr:`error_may_be_handled`, for an AssertionError too: on a build without CUDA,
        ``torch.zeros(3).cuda(0)`` raises a RuntimeError, ``torch.zeros(3, device="cuda:0")`` an
        AssertionError (``.to("mps")`` a RuntimeError, ``device="mps"`` a NotImplementedError)."""
        if self.error_may_be_handled or any(c & CAUGHT_ASSERTION for c in self._w.catching):
            return True
        func = self._w.closure_func
        return func is not None and func.name in self._w.functions_caught(assertion=True)

    @property
    def numpy_error_may_be_handled(self) -> bool:
        """:attr:`error_may_be_handled`, for a TypeError too: ``t.numpy()`` raises a RuntimeError
        (requires grad, conjugate bit) or a TypeError (bfloat16, sparse), which a fix that
        skips numpy would no longer raise."""
        if self.error_may_be_handled or any(c & CAUGHT_TYPE for c in self._w.catching):
            return True
        func = self._w.closure_func
        return func is not None and func.name in self._w.functions_caught(type_error=True)

    @property
    def may_trace(self) -> bool:
        """May the module trace its functions (``torch.jit.trace``, ``torch.onnx.export``)?
        The trace keeps ``t.numpy()``'s values as constants: a fix that skips numpy changes
        what the traced function returns (:func:`.modulescan.may_trace`)."""
        return may_trace(self._w.source)

    def may_replace_torch(self, name: str) -> bool:
        """May the module replace ``torch.<name>`` (an attribute store of that name,
        ``setattr``)?"""
        return self._w.may_replace(name)

    def torch_name(self) -> Optional[str]:
        """A name bound to the ``torch`` module here, for fixes that need ``torch.<fn>``."""
        if self._w.lookup("torch").qualname == "torch":
            return "torch"
        for name, v in list(self._w.env.items()) + list(self._w.outer.items()):
            if v.qualname == "torch":
                return name
        return None

    def arrays_in(self, node: ast.AST) -> "Optional[List[numpyish.Array]]":
        """What the analysis knows of the numpy arrays a list or tuple holds, when it proves
        that every item is a ``numpy.ndarray``: one :class:`~.numpyish.Array` per item of a
        literal, one for all items of a list built by a comprehension or by appends."""
        return numpyish.list_of_arrays(self.value(node))

    def list_item_kinds(self, node: ast.AST) -> Optional[List[Optional[str]]]:
        """What the items of a list are (a literal bound to a name, a comprehension, a list
        filled by appends; nested literals flattened): per item ``"tensor"``/``"annotated"``
        as :meth:`tensor_kind`, ``"some"`` for a tensor on some paths, None otherwise; one
        entry for all items of a list built by a comprehension or by appends
        (:func:`.tensorlists.item_kinds`); ``self.xs`` filled by its class's appends
        (:func:`.listattrs.list_value`).  None: not such a list."""
        v = self.value(node)
        if isinstance(node, ast.Attribute) and v.elems is None and v.item is None:
            v = listattrs.list_value(self._w, node) or v
        return tensorlists.item_kinds(v, self.options.trust_annotations)

    def list_of_rows(self, node: ast.AST) -> bool:
        """Are the items of the list ``node`` holds (:meth:`list_item_kinds`: one standing for
        all of a list filled by appends) sequences themselves (``rows.append([x0, y0])``)?"""
        v = self.value(node)
        return v.kind == NOT and v.elems is None and v.item is not None and v.item.kind == NOT \
            and v.item.elems is not None

    def module_name(self, qualname: str) -> Optional[str]:
        """A name bound to the module ``qualname`` here (``np`` for ``"numpy"``), for fixes."""
        if self._w.lookup(qualname).qualname == qualname:
            return qualname
        for name, v in list(self._w.env.items()) + list(self._w.outer.items()):
            if v.qualname == qualname and self._w.lookup(name).qualname == qualname:
                return name
        return None

    def local_list(self, name: ast.Name, constructors, item_reads: bool = False) -> bool:
        """Is the list ``name`` holds one the analysis has seen filled in full: bound only to
        fresh lists in its scope, read only by ``.append`` statements, ``len``, tests,
        iteration and calls ``constructors(call)`` accepts (:func:`.locallists.list_stays_local`)?
        With ``item_reads``, reads ``name[k]`` too where no item is a container whose
        contents the analysis knows (``rows[0][1] = v`` could change those; whatever is done
        to a tensor item, it stays a tensor)."""
        scope = enclosing_scope(self._w.tree, name)
        text = self.source if isinstance(scope, ast.Module) else self.text(scope)
        if item_reads:
            v = self.value(name)
            item_reads = not any(e is not None and e.kind == NOT and (e.elems is not None or e.item is not None)
                                 for e in (v.elems or ()) + (v.item,))
        return locallists.list_stays_local(scope, name.id, text, constructors, item_reads)

    def is_array(self, node: ast.AST) -> bool:
        """Is ``node`` a ``numpy.ndarray`` by data flow (:mod:`.numpyish`)?"""
        return self.value(node).array is not None

    def array_stays_put(self, name: ast.Name, constructors=lambda c: False, tensor: bool = False) -> bool:
        """Is the numpy array (``tensor``: the tensor) ``name`` holds changed in place nowhere
        (no ``resize``, no ``.shape =``/``.dtype =``, handed to no call; a tensor: no
        ``resize_``/``set_``/``.data =``): :func:`.arrayuses.array_stays_put`?"""
        scope = enclosing_scope(self._w.tree, name)
        text = self.source if isinstance(scope, ast.Module) else self.text(scope)
        harmless = frozenset(n for n in arrayuses.HARMLESS if builtin(self._w, n))
        return arrayuses.array_stays_put(scope, name.id, text, constructors, harmless, tensor)

    # --- text ---------------------------------------------------------------
    def start(self, node: ast.AST) -> int:
        return self._w.idx.start(node)

    def end(self, node: ast.AST) -> int:
        return self._w.idx.end(node)

    def text(self, node: ast.AST) -> str:
        return self._w.idx.text(node)

    def atom_text(self, node: ast.AST) -> str:
        """The node's text, parenthesized unless it binds tighter than ``.attr``."""
        text = self.text(node)
        if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.List,
                             ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.Constant)):
            if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex)):
                return f"({text})"
            if isinstance(node, ast.Tuple) and not text.startswith("("):
                return f"({text})"
            return text
        return f"({text})"

    def name_span(self, attr: ast.Attribute) -> Tuple[int, int]:
        """Offsets of the attribute name in ``value.name``."""
        end = self.end(attr)
        return end - len(attr.attr), end

    def args_span(self, call: ast.Call) -> Tuple[int, int]:
        """Offsets of ``(...)`` of a call (from the end of the callee to the end of the call)."""
        return self.end(call.func), self.end(call)

    # --- reporting ----------------------------------------------------------
    def report(self, code: str, node: ast.AST, message: str, fix: Optional[Any] = None) -> None:
        """Report ``code`` at ``node``; ``fix`` (a :class:`~flake8_torchcopy.finding.Fix`)
        goes to the engine's sink as is."""
        self._w.add(code, node, message, fix)
