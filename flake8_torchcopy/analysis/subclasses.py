"""Subclass caveats: when a tensor the analysis computes may be a Tensor subclass.

Ops on a Tensor subclass return the subclass (``__torch_function__`` sees every tensor
argument), so a fix that needs a plain tensor is exact only where no input may be one.
:class:`SubclassCaveats` is the part of the expression evaluator
(:class:`~.exprs.Evaluator`) that passes the caveat of a receiver, an argument or an
operand on to the result (:meth:`~SubclassCaveats.derived_caveat`); torch factories
make plain tensors whatever their non-tensor arguments.
"""
from __future__ import annotations

import ast
from typing import Dict

from .values import ANNOTATED, SUBCLASS, UNKNOWN, UNKNOWN_VALUE, Value

# torch functions whose result is a plain tensor whatever their (non-tensor) arguments
_FACTORIES = frozenset("torch." + n for n in """
    zeros ones empty full rand randn randint randperm arange range linspace logspace eye tensor
    from_numpy frombuffer empty_strided tril_indices triu_indices""".split())
# tensor methods whose other tensor operands take part in choosing the result's class
# (``__torch_function__`` sees every tensor argument)
_OPERAND_METHODS = frozenset("""
    add sub mul div true_divide floor_divide pow matmul mm bmm mv dot outer cross kron copy_ to
    type_as where masked_fill masked_fill_ masked_scatter index_add index_copy index_fill scatter
    scatter_add add_ sub_ mul_ div_ pow_ lerp lerp_ maximum minimum max min fmax fmin fmod remainder atan2
    eq ne lt le gt ge logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor
    addcmul addcdiv addmm addbmm baddbmm clamp clamp_ clip expand_as view_as reshape_as
    new_tensor hypot xlogy logaddexp copysign ldexp nextafter""".split())


class SubclassCaveats:
    """Passes a possible Tensor subclass on from what a tensor is computed from."""

    cache: Dict[int, Value]  # the evaluator's: id(node) -> its value

    def derived_caveat(self, node: ast.AST, v: Value) -> Value:
        """A tensor computed from a value that may be a Tensor subclass (or is not known to
        be a plain tensor) may itself be one: ops on a subclass return the subclass."""
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and self.cache.get(id(func.value)) is not None \
                    and self.cache[id(func.value)].qualname is None:
                sources = [func.value]  # a method: its receiver
            else:
                sources = list(node.args) + [k.value for k in node.keywords]
                sources = [a.value if isinstance(a, ast.Starred) else a for a in sources]
                out = []
                for a in sources:  # torch.cat([a, b]): the items
                    out.extend(a.elts if isinstance(a, (ast.List, ast.Tuple)) else [a])
                sources = out
            method = isinstance(func, ast.Attribute) and bool(sources) and sources[0] is func.value
            factory = (self.cache.get(id(func)) or UNKNOWN_VALUE).qualname in _FACTORIES
            unknown_ok = method or not factory
            if method and isinstance(func, ast.Attribute) and func.attr in _OPERAND_METHODS:
                # x.add(y), buf.copy_(y), z.to(ref): y decides too
                sources = sources + [a.value if isinstance(a, ast.Starred) else a
                                     for a in list(node.args) + [k.value for k in node.keywords]]
        else:
            sources = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]
            unknown_ok = True
        for c in sources:
            if c is None:
                continue
            cv = self.cache.get(id(c))
            if cv is None or cv.qualname is not None:
                continue
            if cv.caveat is not None:
                return v.with_(caveat=cv.caveat)
            if cv.kind == ANNOTATED or (unknown_ok and cv.kind == UNKNOWN and cv.mono is None
                                        and not cv.local_def):
                return v.with_(caveat=SUBCLASS)
        return v
