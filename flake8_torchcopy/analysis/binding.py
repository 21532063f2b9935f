"""Binding: assignment targets, unpacking, and the expressions that bind names.

:class:`Binding` is the part of the expression evaluator (:class:`~.exprs.Evaluator`)
that binds: assignment targets with tuple and starred unpacking (``b, n, c = x.shape``
learns x's sizes, :meth:`~.sizes.SizeArithmetic.learn_shape`), the element a ``for``
or a comprehension binds, the narrowings a test proves (:meth:`Binding.apply`), and the
scopes that bind in a copy of the environment: comprehensions, lambdas and ``:=``.
"""
from __future__ import annotations

import ast
import itertools
from typing import TYPE_CHECKING, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, cast

from . import escapes, listfill, localdicts, numpyish
from . import torchsem as sem
from .narrowing import narrow, tested_names
from .nodeindex import walk
from .subclasses import reached_by_other_code
from .torchsem import is_tensorish
from .values import NOT, NOT_VALUE, TENSOR, UNKNOWN, UNKNOWN_VALUE, Env, Value, join

if TYPE_CHECKING:  # pragma: no cover
    from ..source import SourceIndex


_clock = itertools.count()


class Binding:
    """Binds names: assignment targets, loop and comprehension elements, narrowings, ``:=``."""

    # the evaluator's (:class:`~.exprs.Evaluator` sets them)
    env: Env
    outer: Env
    cache: Dict[int, Value]
    walrus: List[str]
    conditional: int
    test_flags: Dict[str, frozenset]  # names holding a test -> the names it narrows
    narrow_caveat: Optional[str]
    attr_facts: Optional[dict] = None  # (.attrnarrowing) attributes an assert proved tensors
    read_caveat: Callable[[ast.Call], Optional[str]]  # the evaluator's (subclasses.SubclassCaveats)
    class_body: object = False  # walking a class body's own statements (not a method's); or PREPARED
    scope_outer: Callable[[], Env]  # the walker's: the bindings a nested scope can see
    source: str
    has: Mapping[str, bool]  # "x" in source, each asked once
    idx: "SourceIndex"

    if TYPE_CHECKING:  # the evaluator's, and the size arithmetic's (:mod:`.sizes`)
        def ev(self, node: ast.AST) -> Value: ...

        def learn_shape(self, value_node: ast.AST,
                        names: Sequence[ast.expr]) -> Optional[Tuple[Value, ...]]: ...

    def apply(self, env: Env, updates: Dict[str, str]) -> Env:
        for name, kind in updates.items():
            cur = env.get(name) or self.outer.get(name) or UNKNOWN_VALUE
            if cur.qualname is not None:
                continue
            if kind == UNKNOWN:
                env[name] = Value(UNKNOWN)
            elif kind == TENSOR and cur.kind != TENSOR:
                # isinstance/is_tensor prove a tensor, not which class
                env[name] = cur.with_(kind=kind, caveat=cur.caveat or self.narrow_caveat)
            else:
                env[name] = cur.with_(kind=kind)
        return env

    def bind(self, target: ast.AST, v: Value, value_node: Optional[ast.AST]) -> None:
        if value_node is not None:
            escapes.note(self, target, value_node)  # xs = [t], h.t = t: a later call may reach t
        if isinstance(target, ast.Name):
            if v.kind == NOT and v.mono is None and type(value_node) is ast.Call \
                    and getattr(value_node.func, "attr", None) == "item" and self.read_caveat(value_node):
                v = UNKNOWN_VALUE  # s = n.item() of an unknown n: an object's item may return a tensor
            self.env[target.id] = v
            if self.test_flags:
                self.unflag(target.id)
            flag = tested_names(self, value_node) if value_node is not None else frozenset()
            if flag:
                self.test_flags[target.id] = flag  # `is_t = isinstance(x, T)`
                self.__dict__.setdefault("flag_set_at", {})[target.id] = next(_clock)
            else:
                self.test_flags.pop(target.id, None)
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            names = target.elts
            stars = [i for i, e in enumerate(names) if isinstance(e, ast.Starred)]
            if stars:
                self.bind_starred(names, stars[0], v.elems if len(stars) == 1 else None)
                return
            elems = v.elems
            if elems is None and value_node is not None:
                elems = self.learn_shape(value_node, names)
            if elems is not None:
                if len(elems) != len(names):  # the unpacking raises: nothing known is bound
                    elems = (UNKNOWN_VALUE,) * len(names)
                for e, ev in zip(names, elems):
                    self.bind(e, ev, None)
                return
            each = self.element_of(v)
            for e in names:
                self.bind(e, each, None)
            return
        if isinstance(target, ast.Starred):
            self.bind(target.value, UNKNOWN_VALUE, None)
            return
        self.ev_target(target)
        if isinstance(target, ast.Subscript):
            after = localdicts.store(self, target, v)  # d["k"] = v of a dict the walker follows
            if after is None:
                after = listfill.stored(self, target, v)  # xs[i] = v of a list the walker follows
            if after is not None:
                self.env[cast(ast.Name, target.value).id] = after

    def unflag(self, name: str) -> None:
        """``is_t = isinstance(x, T); x = [1.0]``: note where and when ``x`` was bound again
        (:func:`.narrowing.flag_about`: a test in that same straight-line state, after the
        flag was set, finds ``x`` bound on every path since: the flag tells nothing of it)."""
        self.__dict__.setdefault("rebound_at", {})[name] = (self.env, next(_clock))

    def bind_starred(self, names: Sequence[ast.expr], star: int,
                     elems: Optional[Tuple[Value, ...]]) -> None:
        """``a, *rest, z = v``: the names before and after the star take the items at their
        places, the starred one a list of those in between (items not known: unknown)."""
        after = len(names) - star - 1
        if elems is None or len(elems) < len(names) - 1:
            for e in names:
                self.bind(e.value if isinstance(e, ast.Starred) else e, UNKNOWN_VALUE, None)
            return
        for e, item in zip(names[:star], elems):
            self.bind(e, item, None)
        middle = elems[star:len(elems) - after]
        self.bind(cast(ast.Starred, names[star]).value, Value(NOT, elems=tuple(middle)), None)
        for e, item in zip(names[star + 1:], elems[len(elems) - after:]):
            self.bind(e, item, None)

    def element_of(self, v: Value) -> Value:
        if v.item is not None:
            return v.item
        if v.array is not None:
            return numpyish.row_of(v.array)
        if is_tensorish(v):
            # a row of a permuted tensor stays marked; of a subclass is the subclass
            row = sem.index_layout(v, 1) if v.sizes else Value(v.kind, permuted_by=v.permuted_by)
            return row.with_(caveat=v.caveat) if v.caveat is not None and row.caveat is None else row
        if v.elems:
            out = v.elems[0]
            for e in v.elems[1:]:
                out = join(out, e)
            return out
        if v.kind == UNKNOWN and v.permuted_by:  # lu, piv = torch.lu(a): each item marked too
            return Value(UNKNOWN, permuted_by=v.permuted_by)
        return UNKNOWN_VALUE

    def ev_target(self, t: ast.AST) -> None:
        if isinstance(t, ast.Attribute):
            self.ev(t.value)
        elif isinstance(t, ast.Subscript):
            self.ev(t.value)
            self.ev(t.slice)
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                self.ev_target(e)
        elif isinstance(t, ast.Starred):
            self.ev_target(t.value)

    def e_NamedExpr(self, node):
        v = self.ev(node.value)
        self.bind(node.target, v, node.value)
        self.walrus.append(node.target.id)
        return v

    def restore(self, saved: Env, mark: int) -> None:
        """Leave a part evaluated in a copy of the env (a comprehension, a lambda, an arm of
        ``if``/``else`` or ``and``/``or``): a name ``:=`` bound there may or may not be
        bound now, so it is unknown."""
        self.env = saved
        if len(self.walrus) > mark:
            for name in self.walrus[mark:]:
                saved[name] = UNKNOWN_VALUE
            del self.walrus[mark:]

    def e_Yield(self, node):
        if node.value is not None:
            self.ev(node.value)
        reached_by_other_code(self, [node.value] if node.value is not None else [])  # its consumer's
        return UNKNOWN_VALUE

    e_YieldFrom = e_Yield

    def e_Lambda(self, node):
        for d in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.ev(d)
        saved, mark, saved_outer = self.env, len(self.walrus), self.outer
        in_class, self.class_body = self.class_body, False
        # the body runs when called: it sees what a nested def would (a class body's names not at all)
        self.env = {}
        if not in_class:
            self.outer = self.scope_outer()
        self.conditional += 1
        a = node.args
        for p in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
            self.env[p.arg] = Value(UNKNOWN)
        self.ev(node.body)
        self.conditional -= 1
        self.class_body, self.outer = in_class, saved_outer
        self.restore(saved, mark)
        return Value(UNKNOWN, local_def=True)

    def comprehension(self, node, parts: Sequence[ast.AST]) -> None:
        saved, mark, saved_outer = self.env, len(self.walrus), self.outer
        in_class = self.class_body
        lazy = isinstance(node, ast.GeneratorExp)
        # a generator's element runs when it is consumed: it sees what a nested def would
        lazy_outer = self.scope_outer() if lazy and not in_class else None
        self.env = dict(saved)
        self.conditional += 1
        self.class_body = False
        for i, gen in enumerate(node.generators):
            it = self.ev(gen.iter)
            if i == 0 and (in_class or lazy):  # the rest runs in the comprehension's scope, which
                self.env = {}  # does not see the class body's names (only the outer scopes');
                if lazy_outer is not None:
                    self.outer = lazy_outer
            if i == 0 and self.has[":="] and ":=" in self.idx.line_text(node):
                for w in walk(node):  # a later iteration sees what `:=` bound in an earlier one
                    if isinstance(w, ast.NamedExpr) and w is not gen.iter:
                        self.env[w.target.id] = UNKNOWN_VALUE
            self.bind(gen.target, self.element_of(it), None)
            escapes.alias_iter(self, gen.target, gen.iter)
            for cond in gen.ifs:
                self.ev(cond)
                self.apply(self.env, narrow(self, cond)[0])
        for p in parts:
            self.ev(p)
        self.conditional -= 1
        self.class_body, self.outer = in_class, saved_outer
        self.restore(saved, mark)

    def e_ListComp(self, node):
        self.comprehension(node, [node.elt])
        elt = self.cache.get(id(node.elt))
        if isinstance(node, ast.ListComp) and elt is not None and (
                elt.array is not None or is_tensorish(elt) or elt.some):
            return Value(NOT, item=elt, mutable=True)  # a list of arrays (numpyish), of tensors (TRC108)
        if isinstance(node, ast.ListComp):
            made = listfill.comprehended(self, node, elt)  # [None for _ in range(n)]
            if made is not None:
                return made
        return NOT_VALUE

    e_SetComp = e_ListComp

    def e_GeneratorExp(self, node):
        self.comprehension(node, [node.elt])
        return UNKNOWN_VALUE

    def e_DictComp(self, node):
        self.comprehension(node, [node.key, node.value])
        return localdicts.comprehension(self, node)  # {k: t for ...}: what any key holds


def names_only(target: ast.AST) -> bool:
    """A target that only stores names, one level deep (``a``, ``a, *b``): once the value is
    computed (and unpacked, all or nothing), the store cannot raise.  Not a nested one:
    ``a, (b, c) = v`` stores ``a`` before it unpacks the second item, which may raise."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return all(isinstance(e.value if isinstance(e, ast.Starred) else e, ast.Name) for e in target.elts)
    return isinstance(target, ast.Name)
