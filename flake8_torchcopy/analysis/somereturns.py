"""A call of a module-level function that returns a tensor on its main path only.

``levenshtein(a, b)`` where the function returns ``0`` or ``len(b)`` on its early paths and
``torch.tensor(d[-1])`` at its end: the call is a tensor on some paths (``Value.some``;
``mixed`` too where every other return is provably no tensor).  Rules report such a value
without a fix (a copy on some paths only).

Conservative on purpose (:func:`some_call`):

- the function's name is bound once in the module (:func:`.returns.def_bound_once`), it is
  an undecorated ``def``, no generator, and ends in a ``return`` (as
  :func:`.returns.exits_by_return`); its text names ``torch``; it has two returns or more;
- its last statement is that ``return``, of a form that may be a tensor (no display or
  literal, no parameter as it came), a tensor by the data-flow walk of the function
  (its parameters unknown: :func:`.returnwalker.module_returns`), and nothing before it at
  the top of the body leaves the function for certain (``raise``, ``return``, ``while True``,
  ``sys.exit(1)``, a module function that only raises, ``for _ in range(1): return``);
- no test in it picks a path by a flag or a type (:func:`_data_tests`): a test naming a
  parameter with a default, ``*args``/``**kwargs``, a bare name, ``isinstance``/``type``/
  ``is None``/``callable``/``hasattr``/``torch.is_tensor`` anywhere: the caller's arguments
  could then keep every call off the tensor path (``def f(x, raw=False)``); a parameter tested
  as a number (``k > 0``, ``len(a) > k``, through ``m = k``) unless compared with another
  parameter (``source == target``); an attribute of a parameter (``cfg.mode``) or an item of
  one compared with a string, bool or None; a module global (``if K > 0``);
- the call passes no literal (``True``, ``None``, ``"mode"``, ``1``: a mode or a flag the
  function may test) and no ``*args``/``**kwargs``; no display (``f([])``), walrus or name
  bound to a literal (``k = 1; f(x, k)``, a module ``EMPTY = ()``) or bound in neither the
  calling function nor the module;
- the scope the call is in holds a word of a rule that reads tensors on some paths
  (``tensor(``, ``Tensor(``, ``deepcopy(``, ``tolist``, ``numpy(``): the function is walked
  only then, once per module.

Methods (``self.f()``) and other modules' functions are not summarised here.
"""
from __future__ import annotations

import ast
from typing import Dict, Optional

from .values import NOT, TENSOR, UNKNOWN, Value

_WORDS = ("tensor(", "Tensor(", "deepcopy(", "tolist", "numpy(")
_TYPE_TESTS = frozenset({"isinstance", "type", "callable", "hasattr", "is_tensor", "issubclass"})


_TESTED = (ast.If, ast.While, ast.IfExp, ast.Assert)


def _data_tests(func: ast.FunctionDef) -> bool:
    """Does every test in ``func`` (``if``, ``while``, ``x if c else y``, ``assert``, boolean
    operands, comprehension conditions) test data, not a flag or a type?  False for a
    generator too, and for a function of one ``return`` (one pass over its own nodes)."""
    from .returns import own_nodes
    a = func.args
    if a.vararg is not None or a.kwarg is not None:
        return False
    positional = a.posonlyargs + a.args
    defaulted = {p.arg for p in positional[len(positional) - len(a.defaults):]} if a.defaults else set()
    defaulted |= {p.arg for p in a.kwonlyargs}
    params = {p.arg for p in positional + a.kwonlyargs}
    bound = set(params)
    tests = []
    copies = []
    returns = 0
    for node in own_nodes(func):
        t = type(node)
        if t is ast.Return:
            returns += 1
        elif t in _TESTED:
            tests.append(node.test)
        elif t is ast.BoolOp:
            tests.extend(node.values)
        elif t is ast.comprehension:
            tests.extend(node.ifs)
        elif t is ast.Match or t is ast.Yield or t is ast.YieldFrom:
            return False
        elif t is ast.Name and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif t is ast.Assign or t is ast.NamedExpr or t is ast.AnnAssign or t is ast.AugAssign:
            copies.append(node)
        elif t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            bound.add(node.name)
        elif t is ast.alias:
            bound.add((node.asname or node.name).split(".")[0])
    if returns < 2:
        return False
    grew = True  # a local computed from a parameter as a number is one too (``m = mode``)
    while grew:
        grew = False
        for c in copies:
            targets = c.targets if isinstance(c, ast.Assign) else [c.target]
            if c.value is not None and _scalar(c.value, params):
                for n in targets:
                    if isinstance(n, ast.Name) and n.id not in params:
                        params.add(n.id)
                        grew = True
    return all(_data_test(test, defaulted, params, bound) for test in tests)


def _scalar(node: ast.AST, params) -> bool:
    """Is ``node`` a parameter as it came, or arithmetic on one (``k``, ``k - 1``, ``-k``)?"""
    while True:
        if isinstance(node, ast.Name):
            return node.id in params
        if isinstance(node, ast.UnaryOp):
            node = node.operand
        elif isinstance(node, ast.BinOp):
            if _scalar(node.left, params):
                return True
            node = node.right
        else:
            return False


def _mode(side: ast.AST, params, sides) -> bool:
    """Is ``side`` a setting of a parameter: an attribute of one (``cfg.mode == "fast"``,
    ``opt.k > 0``: a class may fix it), or an item of one compared with a string, a bool or
    None (``cfg["mode"] == "fast"``)?"""
    node, attr = side, isinstance(side, ast.Attribute)
    if not isinstance(node, (ast.Attribute, ast.Subscript)):
        return False
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    if not (isinstance(node, ast.Name) and node.id in params):
        return False
    return attr or any(isinstance(o, ast.Constant) and type(o.value) not in (int, float) for o in sides)


def _data_test(test: ast.AST, defaulted, params=frozenset(), bound=None) -> bool:
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    if isinstance(test, (ast.Name, ast.Attribute, ast.Constant)):
        return False  # a flag (``if raw:``, ``if self.training:``)
    called: set = set()
    if bound is not None:  # comprehension variables
        bound = bound | {n.id for n in ast.walk(test) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    for n in ast.walk(test):
        t = type(n)
        if t is ast.Name and n.id in defaulted:  # type: ignore[attr-defined]
            return False
        if t is ast.Compare:
            if any(type(op) in (ast.Is, ast.IsNot) for op in n.ops):  # type: ignore[attr-defined]
                return False
            sides = [n.left] + n.comparators  # type: ignore[attr-defined]
            # a parameter tested as a number or a mode (``k > 0``, ``len(a) > k``): the caller
            # may pass one that decides the test (``k = 1; f(x, k)``); two parameters
            # compared (``source == target``) stay data
            if any(_scalar(s, params) for s in sides) \
                    and not all(isinstance(s, ast.Name) and s.id in params for s in sides):
                return False
            if any(_mode(s, params, sides) for s in sides):
                return False
        if t is ast.Call:
            f = n.func  # type: ignore[attr-defined]
            called.update(id(c) for c in ast.walk(f))
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in _TYPE_TESTS:
                return False
        elif t is ast.Name and bound is not None and id(n) not in called \
                and n.id not in bound and isinstance(n.ctx, ast.Load):  # type: ignore[attr-defined]
            return False  # a module global (``if K > 0:``, ``K = 1``): a flag
    return True


_EXITS = frozenset({"exit", "quit", "_exit", "abort"})  # sys.exit, os._exit, os.abort, exit()


def _leaves(stmts, raisers=frozenset()) -> bool:
    """May ``stmts`` leave the function (or loop for ever) on every path: a ``return`` or
    ``raise``, an ``if`` whose branches both do (or of a test of no name whose body does), a
    ``try``/``with`` whose body does, a ``while`` of a test of no name (a ``break`` or not:
    counted as leaving, to be safe), a ``for`` over a fixed non-empty sequence whose body does,
    a call of ``sys.exit``/``os._exit``/``exit`` or of a module function in ``raisers``?"""
    for s in stmts:
        if isinstance(s, (ast.Raise, ast.Return)):
            return True
        if isinstance(s, ast.If) and _leaves(s.body, raisers) and (_literal(s.test) or _leaves(s.orelse, raisers)):
            return True
        if isinstance(s, (ast.With, ast.Try)) and _leaves(s.body, raisers):
            return True
        if isinstance(s, ast.While) and _literal(s.test):
            return True
        if isinstance(s, ast.For) and _literal(s.iter) and _leaves(s.body, raisers):
            return True
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
            f = s.value.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in _EXITS or name in raisers:
                return True
    return False


def _raisers(tree: ast.AST) -> frozenset:
    """The module's functions that never return: annotated ``NoReturn``/``Never``, or of no
    ``return`` and a body that leaves (``raise ValueError(m)``)."""
    from .returns import own_nodes
    out = set()
    for d in getattr(tree, "body", ()):
        if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)):
            r = d.returns
            ann = r.id if isinstance(r, ast.Name) else r.attr if isinstance(r, ast.Attribute) else None
            if ann in ("NoReturn", "Never") or not any(isinstance(n, ast.Return) for n in own_nodes(d)) \
                    and _leaves(d.body):
                out.add(d.name)
    return frozenset(out)


def _main_path(func: ast.FunctionDef, tree: Optional[ast.AST] = None) -> bool:
    """Is the last statement a ``return`` that nothing at the top of the body keeps control
    from, of a form that may be a tensor (not a display or literal, a parameter as it came or
    a function the body defines)?"""
    from .returnwalker import _NEVER_TENSOR
    last = func.body[-1]
    if not isinstance(last, ast.Return) or last.value is None or isinstance(last.value, _NEVER_TENSOR):
        return False
    if isinstance(last.value, ast.Name):
        a = func.args
        named = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
        named |= {d.name for d in func.body if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        if last.value.id in named:
            return False
    called = any(isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) for s in func.body[:-1])
    return not _leaves(func.body[:-1], _raisers(tree) if called and tree is not None else frozenset())


def _summary(ev, func: ast.FunctionDef) -> Optional[Value]:
    """A tensor on some paths (mixed where every other return is no tensor), or None."""
    from .returns import def_bound_once
    from .returnwalker import module_returns
    if func.decorator_list or not _main_path(func, getattr(ev, "tree", None)):
        return None  # (it ends in a return: with no yield, .returns.exits_by_return holds)
    text = ev.idx.text(func)  # the cheap tests first: two returns or more, torch named
    if "torch" not in text or text.count("return ") < 2 or not def_bound_once(func, ev.static_qualname) \
            or not _data_tests(func):
        return None
    values = module_returns(ev, func)
    walker = ev.__dict__.get("_method_walker")
    if not values or walker is None:
        return None
    stmts = walker.returned_at
    if len(stmts) != len(values):
        return None
    last = func.body[-1]
    at_end = [v for s, v in zip(stmts, values) if s is last]
    others = [v for s, v in zip(stmts, values) if s is not last]
    if not at_end or any(v is None or v.kind != TENSOR for v in at_end) or not others:
        return None  # every return a tensor is the other summary's (.returnwalker.walked_returns)
    if all(v is not None and v.kind == TENSOR for v in others):
        return None
    # "and not on others" only where no return is None: ``if r is not None`` keeps it a tensor
    none = any(isinstance(s.value, ast.Constant) and s.value.value is None or s.value is None
               for s in stmts if s is not last)
    return Value(UNKNOWN, some=True, mixed=not none and all(v is not None and v.kind == NOT for v in others))


_DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.JoinedStr, ast.NamedExpr)
_MAKERS = frozenset({"list", "tuple", "set", "dict", "frozenset", "str", "bytes", "int", "float", "bool",
                     "range"})


def _literal(node: ast.AST) -> bool:
    """Is ``node`` a value the code fixes (a display, ``()``, ``"a" * 2``, ``list()``, ``k := 1``):
    no name in it but a builtin maker's?"""
    if isinstance(node, _DISPLAYS):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _MAKERS:
        return all(_literal(a) for a in node.args) and all(_literal(k.value) for k in node.keywords)
    return not any(isinstance(n, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) for n in ast.walk(node))


def _fixed(ev, arg: ast.AST) -> bool:
    """May the argument ``arg`` be fixed by the code: a literal, or a name bound (in the calling
    function, else the module) otherwise than by parameters and plain ``n = <no literal>``
    (a literal, ``for n in ([], ())``, ``a, b = "x", "x"``, ``n += ...``, ``with ... as n``),
    changed in place (``n.clear()``, ``n[:] = []``, ``del n[:]``), or bound in neither?"""
    from .returns import own_nodes
    if not isinstance(arg, ast.Name):
        return _literal(arg) or _computed(ev, arg)
    name = arg.id
    scope = ev.closure_func
    for body in ((scope,) if scope is not None else ()) + (ev.tree,):
        nodes = own_nodes(body) if body is scope else _module_nodes(body)
        seen = body is scope and name in {p.arg for p in ast.walk(scope.args) if isinstance(p, ast.arg)}
        stores = plain = 0
        for n in nodes:
            t = type(n)
            if t is ast.Name and n.id == name and not isinstance(n.ctx, ast.Load):
                stores += 1
            elif t is ast.Assign or t is ast.AnnAssign:
                targets = n.targets if t is ast.Assign else [n.target]
                if any(isinstance(g, ast.Name) and g.id == name for g in targets):
                    plain += len(targets) == 1 and n.value is not None and not _literal(n.value)
                if _changes(targets, name):
                    return True
            elif t is ast.AugAssign or t is ast.Delete:
                if _changes(n.targets if t is ast.Delete else [n.target], name):
                    return True
            elif t is ast.Expr and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute) \
                    and isinstance(n.value.func.value, ast.Name) and n.value.func.value.id == name:
                return True  # ``n.clear()``, ``n.pop()``
        if stores != plain:
            return True
        if seen or stores:
            return False
    return True


def _computed(ev, arg: ast.AST) -> bool:
    """An argument computed from a fixed part by arithmetic or a slice (``e + e``, ``[] * n``,
    ``xs[:0]``, ``xs[:k]`` of ``k = 0``, ``s + ""``): its length or its equality may be fixed
    too.  The operands of operators and the bounds of slices are followed; a literal, a display
    or a fixed name (:func:`_fixed`) among them fixes the argument (``xs[0]``, ``f(x)`` do not)."""
    stack = [arg]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Constant,) + _DISPLAYS) or isinstance(n, ast.Name) and _fixed(ev, n):
            return True
        if isinstance(n, ast.BinOp):
            stack.extend((n.left, n.right))
        elif isinstance(n, (ast.UnaryOp, ast.Starred)):
            stack.append(n.operand if isinstance(n, ast.UnaryOp) else n.value)
        elif isinstance(n, ast.Subscript):
            stack.append(n.value)
            if isinstance(n.slice, ast.Slice):
                stack.extend(b for b in (n.slice.lower, n.slice.upper, n.slice.step) if b is not None)
    return False


def _changes(targets, name: str) -> bool:
    """Do ``targets`` store into ``name``'s items or attributes (``n[:] = []``, ``del n[0]``)?"""
    return any(isinstance(g, (ast.Subscript, ast.Attribute)) and isinstance(g.value, ast.Name)
               and g.value.id == name for t in targets for g in ast.walk(t))


def _binds(a: ast.arguments, node: ast.Call) -> bool:
    """Does ``node`` pass what ``a`` asks for (no default, no ``*``/``**``: :func:`_data_tests`):
    every parameter once, by position or keyword, and nothing else (else it raises TypeError)?"""
    positional = [p.arg for p in a.posonlyargs + a.args]
    named = [k.arg for k in node.keywords]
    by_name = {p.arg for p in a.args + a.kwonlyargs}
    return len(node.args) <= len(positional) and len(set(named)) == len(named) \
        and all(k in by_name and k not in positional[:len(node.args)] for k in named) \
        and len(node.args) + len(named) == len(positional) + len(a.kwonlyargs)


def _module_nodes(tree: ast.AST):
    from .scopes import SCOPES
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if node is tree or not isinstance(node, SCOPES):
            stack.extend(ast.iter_child_nodes(node))


def some_call(ev, node: ast.Call, defn: ast.AST) -> Optional[Value]:
    """The value of ``f(...)`` (``node``) where ``defn`` returns a tensor on its main path
    only (the module's description); None otherwise."""
    if not isinstance(defn, ast.FunctionDef) or not getattr(ev, "walks_returns", True):
        return None
    passed = list(node.args) + [k.value for k in node.keywords]
    if any(isinstance(a, (ast.Constant, ast.Starred))
           or isinstance(a, ast.UnaryOp) and isinstance(a.operand, ast.Constant) for a in passed) \
            or any(k.arg is None for k in node.keywords):
        return None  # a literal (a mode, a flag, ``f(x, 1)``) the function may test; ``*a``, ``**kw``
    scope = ev.closure_func
    consumes: Dict[int, bool] = ev.__dict__.setdefault("_some_scopes", {})
    if id(scope) not in consumes:  # once per scope
        if scope is None:  # the module's words, searched once for every walker that asks
            consumes[id(scope)] = any(ev.has[w] for w in _WORDS)
        else:
            text = ev.idx.text(scope)
            consumes[id(scope)] = any(w in text for w in _WORDS)
    if not consumes[id(scope)]:
        return None
    memo: Dict[int, Optional[Value]] = ev.__dict__.setdefault("_some_returns", {})
    if id(defn) not in memo:
        memo[id(defn)] = None  # a cycle: not known
        memo[id(defn)] = _summary(ev, defn)
    if memo[id(defn)] is None or not _binds(defn.args, node) or any(_fixed(ev, a) for a in passed):
        return None  # a display, a name bound to a constant: it may decide every test
    return memo[id(defn)]
