"""Seeded randomness with a one-integer state, so that cloning a state costs nothing.

The generator is SplitMix64: small, fast in pure Python, and statistically good enough for shuffles and dice.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def mix64(x: int) -> int:
    """The SplitMix64 finaliser: a bijective scramble of a 64-bit integer."""
    x &= _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


def derive_seed(seed: int, *path: int) -> int:
    """A seed for a sub-stream, a pure function of ``seed`` and ``path`` (e.g. game number, seat).

    >>> derive_seed(1, 2) == derive_seed(1, 2) != derive_seed(1, 3)
    True
    """
    x = mix64(seed)
    for p in path:
        x = mix64(x ^ mix64(p + _GOLDEN))
    return x


class Rng:
    """A small deterministic random number generator.

    >>> r = Rng(7); a = [r.randbelow(6) for _ in range(5)]
    >>> r2 = Rng(7); a == [r2.randbelow(6) for _ in range(5)]
    True
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = mix64(seed)

    @classmethod
    def coerce(cls, rng: Rng | random.Random | int | None) -> Rng:
        """Accept an ``Rng``, a ``random.Random`` (a seed is drawn from it) or an integer seed."""
        if isinstance(rng, Rng):
            return rng
        if isinstance(rng, random.Random):
            return cls(rng.getrandbits(64))
        if isinstance(rng, int):
            return cls(rng)
        if rng is None:
            return cls(random.getrandbits(64))
        raise TypeError(f"expected Rng, random.Random or int, got {type(rng).__name__}")

    def copy(self) -> Rng:
        r = Rng.__new__(Rng)
        r.state = self.state
        return r

    def next64(self) -> int:
        s = (self.state + _GOLDEN) & _M64
        self.state = s
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _M64
        return s ^ (s >> 31)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (``n`` > 0)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        return (self.next64() * n) >> 64

    def randint(self, a: int, b: int) -> int:
        """A uniform integer in ``[a, b]``, both ends included (a die: ``randint(1, 6)``)."""
        return a + self.randbelow(b - a + 1)

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randbelow(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = (self.next64() * (i + 1)) >> 64
            seq[i], seq[j] = seq[j], seq[i]

    def fork(self) -> Rng:
        """An independent generator seeded from this one (advances this one)."""
        return Rng(self.next64())
