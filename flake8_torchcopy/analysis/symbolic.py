"""Sizes as monomials: a rational coefficient times a product of atoms to integer powers.

Enough algebra to prove that ``B * N * (C // H)`` equals ``N * B * C / H`` when the
division is exact, to bound a floor or ceil division that may not be, and to
substitute ``H := 1`` when looking for the sizes that would make a view legal.

An atom is a :class:`Sym` (a size we cannot compute) or a :class:`Quotient`
(``num // den`` or ``ceil(num / den)`` of two monomials that does not simplify).
Sizes are positive integers throughout.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import AbstractSet, Dict, FrozenSet, Iterable, Iterator, Optional, Tuple


class Sym:
    """A size we cannot compute: named for messages, unique by ``key``."""

    __slots__ = ("name", "key")

    def __init__(self, name: str, key: object = None) -> None:
        self.name = name
        self.key = (name, key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sym) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return self.name


class Rest(Sym):
    """The product of the sizes of a tensor's dims past those known, when its rank is not
    known: 1 when it has no more dims.  A view that is legal with no more dims is not
    reported, however the other dims make it raise; one that raises either way need
    not name this size."""

    __slots__ = ()


class Condition(Sym):
    """Not a size: a condition under which a layout the analysis took does not hold
    (``x.dim() < 2`` for ``x.t()`` of a tensor taken as 2-d, ``pairs is empty`` for
    ``torch.tensor(pairs)`` taken as rows).  Held in :attr:`~.values.Value.assumes`;
    a report's "unless" names it as it is, never "== 1"."""

    __slots__ = ()


class Cut(Sym):
    """The size of a part ``x[:, :k]`` of a dim (a slice whose bounds are not literal): at
    most ``whole``, the size of the dim it was cut from, and equal to it only when the slice
    keeps the whole dim (:func:`.viewlegality.view_verdict` tells the two cases apart)."""

    __slots__ = ("whole",)

    def __init__(self, name: str, key: Tuple[object, ...], whole: "Mono") -> None:
        super().__init__(name, key + (whole,))
        self.whole = whole


class Quotient(Sym):
    """``floor(ratio)`` (or ``ceil(ratio)``) of a rational monomial: at most (at least)
    ``ratio``, equal to it exactly when the division is exact.  ``t // k``,
    ``int(t / k)`` and ``math.floor(t / k)`` are one atom, whatever their text."""

    __slots__ = ("ratio", "ceil")

    def __init__(self, ratio: "Mono", ceil: bool) -> None:
        self.ratio, self.ceil = ratio, ceil
        self.key = ("ceil" if ceil else "floor", ratio)

    @property
    def name(self) -> str:  # type: ignore[override]  # made when asked: messages name the symbols inside
        return f"{'ceil' if self.ceil else 'floor'}({self.ratio!r})"

    def bound(self, upper: bool) -> Optional["Mono"]:
        """``ratio`` (itself bounded) when it bounds this quotient from the side asked for."""
        return None if upper == self.ceil else self.ratio.bound(upper)

    def subst_one(self, sym: Sym, value: Optional["Mono"] = None) -> Optional["Mono"]:
        ratio = self.ratio.subst_one(sym, value)
        return None if ratio is None else rounded(ratio, self.ceil)


class Mono:
    """``coef * prod(atom ** exp)``; immutable and hashable."""

    __slots__ = ("coef", "powers")

    def __init__(self, coef=1, powers: Optional[Dict[Sym, int]] = None) -> None:
        # an int while it is one (Fraction arithmetic is slow), a Fraction after a division
        if isinstance(coef, Fraction) and coef.denominator == 1:
            coef = coef.numerator
        self.coef = coef
        items = {} if not powers else {s: e for s, e in powers.items() if e}
        self.powers: FrozenSet[Tuple[Sym, int]] = frozenset(items.items()) if coef else frozenset()

    @classmethod
    def const(cls, n) -> "Mono":
        return cls(n)

    @classmethod
    def sym(cls, s: Sym) -> "Mono":
        return cls(1, {s: 1})

    def _dict(self) -> Dict[Sym, int]:
        return dict(self.powers)

    def __mul__(self, other: "Mono") -> "Mono":
        d = self._dict()
        for s, e in other.powers:
            d[s] = d.get(s, 0) + e
        return Mono(self.coef * other.coef, d)

    def __truediv__(self, other: "Mono") -> Optional["Mono"]:
        if not other.coef:
            return None
        d = self._dict()
        for s, e in other.powers:
            d[s] = d.get(s, 0) - e
        return Mono(Fraction(self.coef) / other.coef, d)

    def __pow__(self, exp: int) -> "Mono":
        """``self ** exp`` for ``exp >= 0``."""
        return Mono(self.coef ** exp, {s: e * exp for s, e in self.powers})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mono) and self.coef == other.coef and self.powers == other.powers

    def __hash__(self) -> int:
        return hash((self.coef, self.powers))

    @property
    def is_one(self) -> bool:
        return self.coef == 1 and not self.powers

    @property
    def has_quotient(self) -> bool:
        return any(isinstance(s, Quotient) for s, _ in self.powers)

    @property
    def symbols(self) -> Iterable[Sym]:
        """The atoms of this monomial (a quotient is one atom)."""
        return (s for s, _ in self.powers)

    def atoms(self) -> Iterator[Sym]:
        """Every symbol that can be set, also those inside quotients, each once."""
        seen = set()
        for s, _ in sorted(self.powers, key=lambda p: p[0].name):
            inner = s.ratio.atoms() if isinstance(s, Quotient) else (s,)
            for a in inner:
                if a not in seen:
                    seen.add(a)
                    yield a

    def _map(self, atom_value) -> Optional["Mono"]:
        """The product of ``atom_value(atom, exp)`` over the atoms (each already raised to
        ``abs(exp)``), times the coefficient; None when one has no value."""
        out: Optional[Mono] = Mono(self.coef)
        for s, e in self.powers:
            value = atom_value(s, e)
            if value is None or out is None:
                return None
            out = out * value if e > 0 else out / value
        return out

    def bound(self, upper: bool) -> Optional["Mono"]:
        """A monomial free of quotients that bounds this one from above (or below); None if
        some quotient is bounded only on the other side."""
        if not self.has_quotient:
            return self

        def atom_bound(s: Sym, e: int) -> Optional[Mono]:
            if not isinstance(s, Quotient):
                return Mono.sym(s) ** abs(e)
            b = s.bound(upper if e > 0 else not upper)
            return None if b is None else b ** abs(e)
        return self._map(atom_bound)

    def exact(self, only: Optional[AbstractSet[Sym]] = None) -> Optional["Mono"]:
        """This monomial with every quotient (of ``only``, if given) taken as the exact division."""
        if not self.has_quotient:
            return self

        def atom_exact(s: Sym, e: int) -> Optional[Mono]:
            forced = isinstance(s, Quotient) and (only is None or s in only)
            x = s.ratio.exact() if forced else Mono.sym(s)  # type: ignore[attr-defined]
            return None if x is None else x ** abs(e)
        return self._map(atom_exact)

    def subst_one(self, sym: Sym, value: Optional["Mono"] = None) -> Optional["Mono"]:
        """This monomial with ``sym := 1`` (``:= value`` if given; quotients recomputed);
        None on a division by zero."""

        def atom_subst(s: Sym, e: int) -> Optional[Mono]:
            if s == sym:
                return ONE if value is None else value ** abs(e)
            x = s.subst_one(sym, value) if isinstance(s, Quotient) else Mono.sym(s)
            return None if x is None else x ** abs(e)
        return self._map(atom_subst)

    def __repr__(self) -> str:
        parts = [] if self.coef == 1 and self.powers else [str(self.coef)]
        for s, e in sorted(self.powers, key=lambda p: p[0].name):
            parts.append(s.name if e == 1 else f"({s.name})**{e}")
        return "*".join(parts) or "1"


ONE = Mono.const(1)
ZERO = Mono.const(0)


def chain_atoms(*monos: Mono) -> Iterator[Sym]:
    seen = set()
    for m in monos:
        for a in m.atoms():
            if a not in seen:
                seen.add(a)
                yield a


def product(monos: Iterable[Mono]) -> Mono:
    out = ONE
    for m in monos:
        out = out * m
    return out


def rounded(ratio: Mono, ceil: bool = False) -> Mono:
    """``floor(ratio)`` (``ceil`` with ``ceil``): ``ratio`` itself when it is a whole
    product of sizes (``(c * k) // k`` is ``c``), a constant when it is one, else a
    :class:`Quotient` atom."""
    if not ratio.powers:
        value = Fraction(ratio.coef)
        return Mono.const(math.ceil(value) if ceil else math.floor(value))
    if Fraction(ratio.coef).denominator == 1 and all(e > 0 for _, e in ratio.powers):
        return ratio
    return Mono.sym(Quotient(ratio, ceil))
