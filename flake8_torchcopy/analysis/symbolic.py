"""Sizes as monomials: a rational coefficient times a product of symbols to integer powers.

Enough algebra to prove that ``B * N * (C // H)`` equals ``N * B * C / H`` and to
substitute ``H := 1`` when looking for the sizes that would make a view legal.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Dict, FrozenSet, Iterable, Optional, Tuple


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


class Mono:
    """``coef * prod(sym ** exp)``; immutable and hashable."""

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

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mono) and self.coef == other.coef and self.powers == other.powers

    def __hash__(self) -> int:
        return hash((self.coef, self.powers))

    @property
    def is_one(self) -> bool:
        return self.coef == 1 and not self.powers

    @property
    def is_zero(self) -> bool:
        return self.coef == 0

    @property
    def symbols(self) -> Iterable[Sym]:
        return (s for s, _ in self.powers)

    def subst_one(self, sym: Sym) -> "Mono":
        d = self._dict()
        d.pop(sym, None)
        return Mono(self.coef, d)

    def __repr__(self) -> str:
        parts = [] if self.coef == 1 and self.powers else [str(self.coef)]
        for s, e in sorted(self.powers, key=lambda p: p[0].name):
            parts.append(s.name if e == 1 else f"{s.name}**{e}")
        return "*".join(parts) or "1"


ONE = Mono.const(1)
ZERO = Mono.const(0)


def product(monos: Iterable[Mono]) -> Mono:
    out = ONE
    for m in monos:
        out = out * m
    return out
