"""What the ``try`` statements of a module may catch: the bits a walker keeps for the try
bodies it is in (:data:`CAUGHT_RUNTIME`, :data:`CAUGHT_TYPE`), and the module's functions
that may run inside a try whose handler may catch a RuntimeError.  An error a fix would
remove or add (``torch.tensor`` of an MKLDNN tensor, ``t.numpy()`` of a bfloat16 one) may be
one the program relies on there.
"""
from __future__ import annotations

import ast
from typing import Callable, Dict, List, Set, Tuple

from .nodeindex import is_generator, select, walk

_TRIES = tuple({ast.Try, getattr(ast, "TryStar", ast.Try)})  # except* from Python 3.11


CAUGHT_RUNTIME, CAUGHT_TYPE, CAUGHT_ASSERTION = 1, 2, 4  # bits of what a try's handlers may catch
CAUGHT_ANY = CAUGHT_RUNTIME | CAUGHT_TYPE | CAUGHT_ASSERTION  # (FlowWalker.catching)
#: exception classes known to be no TypeError, no base of it
_NOT_TYPE_ERRORS = frozenset("""RuntimeError NotImplementedError RecursionError ArithmeticError AssertionError
    AttributeError BufferError EOFError ImportError IndexError KeyError LookupError MemoryError ModuleNotFoundError
    NameError OSError OverflowError StopIteration StopAsyncIteration SyntaxError SystemError UnboundLocalError
    UnicodeError UnicodeDecodeError UnicodeEncodeError ValueError ZeroDivisionError FileNotFoundError
    PermissionError TimeoutError ConnectionError IOError KeyboardInterrupt SystemExit GeneratorExit""".split())


def catches_type_error(h: ast.ExceptHandler) -> bool:
    """May this handler catch a TypeError (a bare except, ``Exception``, ``TypeError``, a class
    not known to be another)?  ``t.numpy()`` raises one for bfloat16, sparse, CUDA tensors."""
    if h.type is None:
        return True
    for t in h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]:
        name = t.attr if isinstance(t, ast.Attribute) else t.id if isinstance(t, ast.Name) else None
        if name is None or not (name in _NOT_TYPE_ERRORS or name.endswith("Warning")):
            return True
    return False


def catches_assertion_error(h: ast.ExceptHandler) -> bool:
    """May this handler catch an AssertionError (a bare except, ``Exception``, ``AssertionError``,
    a class not known to be another)?  A move to a device torch was not built for raises a
    RuntimeError (``.cuda(0)``) where the factory with ``device=`` raises an AssertionError."""
    if h.type is None:
        return True
    for t in h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]:
        name = t.attr if isinstance(t, ast.Attribute) else t.id if isinstance(t, ast.Name) else None
        if name is None or name == "AssertionError" or not (name in _NOT_TYPE_ERRORS or name == "TypeError"
                                                             or name.endswith("Warning")):
            return True
    return False


def handler_catches(ev, assertion: bool) -> Callable[[ast.ExceptHandler], bool]:
    """Which handlers :func:`called_where_caught` asks about: those that may catch a RuntimeError
    (the walker's ``catches_runtime_error``), or with ``assertion`` an AssertionError too."""
    if not assertion:
        return ev.catches_runtime_error
    return lambda h: ev.catches_runtime_error(h) or catches_assertion_error(h)


def caught_bits(ev, s: ast.AST) -> int:
    """What the try ``s`` may catch: :data:`CAUGHT_RUNTIME`, :data:`CAUGHT_TYPE`,
    :data:`CAUGHT_ASSERTION` (all where its ``finally`` swallows every exception:
    :func:`finally_swallows`)."""
    handlers: List[ast.ExceptHandler] = s.handlers  # type: ignore[attr-defined]
    if finally_swallows(s):
        return CAUGHT_ANY
    return (CAUGHT_RUNTIME if any(ev.catches_runtime_error(h) for h in handlers) else 0) \
        | (CAUGHT_TYPE if any(catches_type_error(h) for h in handlers) else 0) \
        | (CAUGHT_ASSERTION if any(catches_assertion_error(h) for h in handlers) else 0)


def finally_swallows(s: ast.AST) -> bool:
    """Does the try's ``finally`` hold a ``return`` (not in a nested def), or a ``break`` /
    ``continue`` of an enclosing loop?  Either ends the exception the body raised."""
    todo = [(n, False) for n in getattr(s, "finalbody", ())]
    while todo:
        n, in_loop = todo.pop()
        if isinstance(n, ast.Return) or (isinstance(n, (ast.Break, ast.Continue)) and not in_loop):
            return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        loop = in_loop or isinstance(n, (ast.For, ast.AsyncFor, ast.While))
        todo.extend((c, loop) for c in ast.iter_child_nodes(n))
    return False


def called_where_caught(tree: ast.AST, catches: Callable[[ast.ExceptHandler], bool]) -> frozenset:
    """Names of the module's functions that may run inside a ``try`` whose handler may catch
    a RuntimeError (``catches``): called by name (``f(x)``, ``self.f(x)``) in such a body,
    or in the body of such a function, at any depth; where the module has such a try or a
    call that keeps an exception as a value (``gather(..., return_exceptions=True)``), those
    whose body may run elsewhere (a generator, a coroutine, a decorated function:
    :func:`_runs_elsewhere`) or read as a value (:func:`_references`); and, in a module
    with such a try, ``forward`` and the dunder methods, which Python calls for it; and
    ``__del__`` in any module, whose errors Python ignores (prints and goes on), and the
    ``run`` of a ``Thread``/``Process`` subclass. An
    error raised in them may be one the program relies on (``try: return merge(x) except
    RuntimeError: ...``)."""
    calls: Dict[str, Set[str]] = {}  # def name -> names it calls
    caught: Set[str] = set()
    elsewhere: Set[str] = set()
    catching = False
    for node in select(tree, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef) + _TRIES):
        if isinstance(node, ast.ClassDef):
            if any((b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", None)) in _RUNNERS
                   for b in node.bases):
                caught.add("run")  # a thread's run(): its error is printed and ignored
        elif isinstance(node, _TRIES):
            if finally_swallows(node) or any(catches(h) for h in node.handlers):
                catching = True
                caught.update(_called_names(node.body))
        else:
            calls.setdefault(node.name, set()).update(_called_names(node.body))  # type: ignore[attr-defined]
            if _runs_elsewhere(node):
                elsewhere.add(node.name)  # type: ignore[attr-defined]
    refs, holds = _references(tree)
    if catching or holds:  # else nothing in the module catches: other modules are not seen
        caught.update(elsewhere, refs & set(calls))
    if catching:  # methods Python calls for the program (m(x) runs forward, a[i] __getitem__)
        caught.update(n for n in calls if n == "forward" or (n.startswith("__") and n.endswith("__")))
    if "__del__" in calls:  # Python ignores what a finalizer raises: no try needed
        caught.add("__del__")
    todo = list(caught)
    while todo:
        for callee in calls.get(todo.pop(), ()):
            if callee not in caught:
                caught.add(callee)
                todo.append(callee)
    return frozenset(caught)


def _called_names(body: List[ast.stmt]) -> Set[str]:
    out = set()
    for stmt in body:
        for n in walk(stmt):
            if isinstance(n, ast.Call):
                f = n.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
                if name is not None:
                    out.add(name)
    return out


#: decorators that run the function where it is called (or not at all), in no try of theirs
_PLAIN_DECORATORS = frozenset("""staticmethod classmethod property setter getter deleter cache lru_cache
    cached_property wraps no_grad enable_grad inference_mode abstractmethod overload override script
    script_method ignore unused export""".split())


def _runs_elsewhere(func: ast.AST) -> bool:
    """May the body of ``func`` run somewhere other than where it is called by name?  A
    generator's or coroutine's body runs where it is consumed or awaited (``next(g)``,
    ``asyncio.gather(f(), return_exceptions=True)``), and a decorator may call the function
    inside a try of its own."""
    if isinstance(func, ast.AsyncFunctionDef):
        return True
    for d in func.decorator_list:  # type: ignore[attr-defined]
        d = d.func if isinstance(d, ast.Call) else d
        name = d.attr if isinstance(d, ast.Attribute) else d.id if isinstance(d, ast.Name) else None
        if name not in _PLAIN_DECORATORS:
            return True
    return is_generator(func)


#: calls that keep an exception as a value, no try needed: ``gather(..., return_exceptions=True)``,
#: an executor's future (``pool.submit(f).exception()``), a task; or that run a function where
#: its error is printed and ignored: ``weakref.finalize(o, f)``, ``atexit.register(f)``, a thread
_HOLDERS = frozenset("""submit exception run_in_executor apply_async create_task ensure_future finalize
    register Thread Timer start_new_thread""".split())
#: classes whose ``run()`` runs where its error is printed and ignored (or ends a process)
_RUNNERS = frozenset("Thread Timer Process".split())
#: of those, the ones also called by a bare name (``from threading import Thread``)
_NAMED_HOLDERS = frozenset("finalize Thread Timer start_new_thread".split())


def _references(tree: ast.AST) -> Tuple[Set[str], bool]:
    """Names and attribute names read as values, not called (``map(merge, xs)``,
    ``{"m": merge}``, ``pool.submit(self.merge)``), and strings (``getattr(a, "merge")()``):
    whoever calls them later may do it inside a try; and whether a call may hold an
    exception as a value (:data:`_HOLDERS`, ``return_exceptions=``)."""
    called: Set[int] = set()
    out: Set[str] = set()
    holds = False
    for n in select(tree, (ast.Call, ast.Name, ast.Attribute, ast.Constant)):  # a call before its func
        if isinstance(n, ast.Call):
            called.add(id(n.func))
            holds = holds or (isinstance(n.func, ast.Attribute) and n.func.attr in _HOLDERS) \
                or (isinstance(n.func, ast.Name) and n.func.id in _NAMED_HOLDERS) \
                or any(k.arg == "return_exceptions" for k in n.keywords)
        elif isinstance(n, ast.Constant):
            if isinstance(n.value, str) and n.value.isidentifier():
                out.add(n.value)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and id(n) not in called:
            out.add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and id(n) not in called:
            out.add(n.attr)
    return out, holds
