"""Inputs of a rewritten statement as the static analysis knows them.

The analysis (:mod:`flake8_torchcopy.analysis`) tracks, for every name, whether it is a
tensor, its sizes as monomials of symbols (``B``, ``N``, ``C // H``), and the int a size
name stands for.  :func:`analysed_specs` runs it once over a module with a probe that
records the value of every name and attribute chain on some lines, and turns those values
into input SPECs: a tensor of known sizes gets ``tensor:shape=[...]`` over int inputs, a
size name ``int:1..4`` (or ``expr:...`` when it is a product or quotient of others), and
each symbol no name stands for becomes a hidden int input.  So ``b, n, c = x.shape`` and
``(attn @ v).transpose(1, 2).view(b, n, c)`` are verified on tensors whose sizes agree.
"""
from __future__ import annotations

import ast
from fractions import Fraction
from typing import Any, ClassVar, Dict, Optional, Sequence, Tuple

from ..analysis.symbolic import Mono, Sym
from ..analysis.values import NOT, TENSOR, Value
from ..engine import DEFAULT_OPTIONS
from ..rule_runner import run_rules

SIZE_RANGE = "int:1..4"


class _Probe:
    """A pseudo-rule: records the analysed value of names and attribute chains on lines
    ``first..last`` (the first occurrence of each wins: the value before the statement
    rebinds it)."""

    code = "PROBE"
    triggers: ClassVar[Sequence[Sequence[str]]] = ((),)  # analyse every function
    function_triggers = None
    node_types: ClassVar[Tuple[type, ...]] = (ast.Name, ast.Attribute)

    def __init__(self, first: int, last: int) -> None:
        self.first, self.last = first, last
        self.values: Dict[str, Value] = {}
        self.seen_on: Dict[str, int] = {}

    def check(self, node: ast.AST, ctx) -> None:
        if not (self.first <= node.lineno <= self.last):  # type: ignore[attr-defined]
            return
        if isinstance(getattr(node, "ctx", None), ast.Load):
            name = ast.unparse(node)
            if name not in self.values:
                self.values[name] = ctx.value(node)
                self.seen_on[name] = node.lineno  # type: ignore[attr-defined]

    def forget(self, first: int, last: int) -> None:
        """Lines ``first..last`` are walked again (with what their function's calls pass):
        a :class:`~flake8_torchcopy.rule_runner.Recorder`."""
        for name in [n for n, line in self.seen_on.items() if first <= line <= last]:
            del self.values[name], self.seen_on[name]


def analysed_values(source: str, first: int, last: int) -> Dict[str, Value]:
    """Dotted name -> the analysis's :class:`Value`, for names loaded on lines first..last."""
    probe = _Probe(first, last)
    run_rules(source, ast.parse(source), [probe], DEFAULT_OPTIONS, recorders=[probe])
    return probe.values


class _Symbols:
    """Python expressions for monomials, over input names (one per symbol)."""

    def __init__(self, values: Dict[str, Value]) -> None:
        self.var: Dict[Sym, str] = {}
        self.hidden: Dict[str, str] = {}
        for dotted, v in values.items():  # a size name that is exactly one symbol stands for it
            sym = _single_symbol(v.mono) if _is_size(v) else None  # type: ignore[arg-type]  # a size has a mono
            if sym is not None and sym not in self.var:
                self.var[sym] = input_name(dotted)

    def name(self, sym: Sym) -> str:
        if sym not in self.var and sym.name.replace(".", "").replace("_", "").isalnum():
            self.var[sym] = input_name(sym.name)  # the symbol of a name: ``max_seq_len``
        if sym not in self.var:
            self.var[sym] = f"_size{len(self.var)}"
            self.hidden[self.var[sym]] = SIZE_RANGE
        return self.var[sym]

    def expr(self, mono: Optional[Mono]) -> str:
        if mono is None:  # a size the analysis does not know
            return self.name(Sym("unknown", object()))
        coef = Fraction(mono.coef)
        num = [_power(self.name(s), e) for s, e in sorted(mono.powers, key=_by_name) if e > 0]
        den = [_power(self.name(s), -e) for s, e in sorted(mono.powers, key=_by_name) if e < 0]
        num = ([str(coef.numerator)] if coef.numerator != 1 or not num else []) + num
        den = ([str(coef.denominator)] if coef.denominator != 1 else []) + den
        text = " * ".join(num)
        return text if not den else f"({text}) // ({' * '.join(den)})"


def _by_name(power: Tuple[Sym, int]) -> str:
    return power[0].name


def _power(name: str, e: int) -> str:
    return name if e == 1 else f"{name} ** {e}"


def _single_symbol(mono: Mono) -> Optional[Sym]:
    powers = list(mono.powers)
    if mono.coef == 1 and len(powers) == 1 and powers[0][1] == 1:
        return powers[0][0]
    return None


def input_name(dotted: str) -> str:
    """The verifier's input name for a dotted name (``self.w`` -> ``self__w``)."""
    return dotted.replace(".", "__")


def analysed_specs(values: Dict[str, Value], names: Sequence[str]) -> Dict[str, str]:
    """SPECs for the input ``names`` (dotted) that the analysis knows: tensors and sizes.
    Names it knows nothing about are left out (they default to tensors)."""
    symbols = _Symbols(values)
    specs: Dict[str, str] = {}
    for dotted in names:
        v = values.get(dotted)
        if v is None:
            continue
        if v.sizes is not None:  # sizes are known only for tensors
            dims = ", ".join(symbols.expr(m) for m in v.sizes)
            specs[input_name(dotted)] = f"tensor:shape=[{dims}]"
            if v.permuted_by and v.strides is not None and None not in v.sizes:
                # a permuted layout decides whether a view raises: keep the analysed strides
                specs[input_name(dotted)] += f",strides=[{', '.join(symbols.expr(m) for m in v.strides)}]"
        elif v.kind == TENSOR:
            specs[input_name(dotted)] = "tensor"
        elif _is_size(v):
            own = symbols.var.get(_single_symbol(v.mono)) if _single_symbol(v.mono) else None  # type: ignore[arg-type]
            if own == input_name(dotted):
                specs[own] = SIZE_RANGE
            else:
                specs[input_name(dotted)] = f"expr:{symbols.expr(v.mono)}"
    for hidden, spec in symbols.hidden.items():
        specs.setdefault(hidden, spec)
    # a symbol named after an input that is not itself used still needs a value
    for var in symbols.var.values():
        specs.setdefault(var, SIZE_RANGE)
    return specs


def known_names(values: Dict[str, Value]) -> Dict[str, Any]:
    """The dotted names whose value the analysis can synthesize (tensors and sizes)."""
    return {n: v for n, v in values.items() if v.kind == TENSOR or v.sizes is not None or _is_size(v)}


def _is_size(v: Value) -> bool:
    """An int the analysis knows as a size (``b`` of ``b, n = x.shape``); an unknown value
    used as a size also gets a symbol, but may be anything."""
    return v.kind == NOT and v.mono is not None
