"""What the ``try`` statements of a module may catch: the bits a walker keeps for the try
bodies it is in (:data:`CAUGHT_RUNTIME`, :data:`CAUGHT_TYPE`), and the module's functions
that may run inside a try whose handler may catch a RuntimeError.  An error a fix would
remove or add (``torch.tensor`` of an MKLDNN tensor, ``t.numpy()`` of a bfloat16 one) may be
one the program relies on there.
"""
from __future__ import annotations

import ast
from typing import Callable, Dict, List, Set

from .nodeindex import select, walk

_TRIES = tuple({ast.Try, getattr(ast, "TryStar", ast.Try)})  # except* from Python 3.11


CAUGHT_RUNTIME, CAUGHT_TYPE = 1, 2  # bits of what a try's handlers may catch (FlowWalker.catching)
CAUGHT_ANY = CAUGHT_RUNTIME | CAUGHT_TYPE
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


def caught_bits(ev, handlers: List[ast.ExceptHandler]) -> int:
    """What a try's ``handlers`` may catch: :data:`CAUGHT_RUNTIME` and/or :data:`CAUGHT_TYPE`."""
    return (CAUGHT_RUNTIME if any(ev.catches_runtime_error(h) for h in handlers) else 0) \
        | (CAUGHT_TYPE if any(catches_type_error(h) for h in handlers) else 0)


def called_where_caught(tree: ast.AST, catches: Callable[[ast.ExceptHandler], bool]) -> frozenset:
    """Names of the module's functions that may run inside a ``try`` whose handler may catch
    a RuntimeError (``catches``): called by name (``f(x)``, ``self.f(x)``) in such a body,
    or in the body of such a function, at any depth. An error raised in them may be one
    the program relies on (``try: return merge(x) except RuntimeError: ...``)."""
    calls: Dict[str, Set[str]] = {}  # def name -> names it calls
    caught: Set[str] = set()
    for node in select(tree, (ast.FunctionDef, ast.AsyncFunctionDef) + _TRIES):
        if isinstance(node, _TRIES):
            if any(catches(h) for h in node.handlers):
                caught.update(_called_names(node.body))
        else:
            calls.setdefault(node.name, set()).update(_called_names(node.body))  # type: ignore[attr-defined]
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
