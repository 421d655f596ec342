"""Seeded randomness with a one-integer state, so that cloning a state costs nothing.

The generator is SplitMix64: small, fast in pure Python, and statistically good enough for shuffles and dice.

Compiled (docs/speed.md), the generator keeps its state in a native 64-bit integer (``i64``), whose arithmetic wraps
around as SplitMix64's does, where Python's integers grow past 64 bits and need masking: the same numbers, without
the big-integer arithmetic. Which of the two ways runs is found once, at import (:data:`NATIVE_INT64`); both give
the same numbers (tests/engine/test_rng.py pins them, and the differential test compares whole games).
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import Final, TypeVar

from mypy_extensions import i64

T = TypeVar("T")

_M64: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
# The constants as the signed 64-bit integers with the same bits, for the native arithmetic.
_GOLDEN_S: Final[i64] = 0x9E3779B97F4A7C15 - (1 << 64)
_MUL1_S: Final[i64] = 0xBF58476D1CE4E5B9 - (1 << 64)
_MUL2_S: Final[i64] = 0x94D049BB133111EB - (1 << 64)
_LOW32: Final[i64] = 0xFFFFFFFF


def _wraps(x: i64) -> bool:
    """Whether ``i64`` arithmetic wraps around at 64 bits here: compiled, yes; interpreted, ``i64`` is ``int``."""
    return x * 4 == 0


#: Whether the generator runs on native 64-bit integers (compiled) or on Python's integers (interpreted).
NATIVE_INT64: Final = _wraps(1 << 62)


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

    __slots__ = ("_s",)
    #: The state: compiled, the signed 64-bit integer with SplitMix64's bits; interpreted, the unsigned value.
    _s: i64

    def __new__(cls, seed: int = 0) -> Rng:  # a copy starts bare (see copy), without __init__
        return object.__new__(cls)

    def __init__(self, seed: int = 0) -> None:
        self.state = mix64(seed)

    @property
    def state(self) -> int:
        """The generator's state, an integer in ``[0, 2**64)`` (snapshots hold it; setting it restarts there)."""
        return int(self._s) & _M64

    @state.setter
    def state(self, value: int) -> None:
        value &= _M64
        self._s = value - (1 << 64) if NATIVE_INT64 and value >= 1 << 63 else value

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
        r = Rng.__new__(Rng)  # bare: no seed mixed in, the state is set next
        r._s = self._s
        return r

    def __reduce__(self) -> tuple[object, ...]:
        return (_restore, (self.state,))

    def _next_native(self) -> i64:
        """The next output's 64 bits as a signed native integer (compiled only: the arithmetic wraps)."""
        s: i64 = self._s + _GOLDEN_S
        self._s = s
        z: i64 = (s ^ ((s >> 30) & 0x3FFFFFFFF)) * _MUL1_S
        z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _MUL2_S
        return z ^ ((z >> 31) & 0x1FFFFFFFF)

    def next64(self) -> int:
        """The next output, an integer in ``[0, 2**64)``."""
        if NATIVE_INT64:
            return int(self._next_native()) & _M64
        s = (self._s + _GOLDEN) & _M64
        self._s = s
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _M64
        return s ^ (s >> 31)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (``n`` > 0): the top of the 64-bit output scaled, ``(x * n) >> 64``."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        if NATIVE_INT64 and n < 1 << 30:  # the same product from the output's two halves, in native integers
            z = self._next_native()
            m: i64 = n
            return int((((z >> 32) & _LOW32) * m + (((z & _LOW32) * m) >> 32)) >> 32)
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
            j = self.randbelow(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def fork(self) -> Rng:
        """An independent generator seeded from this one (advances this one)."""
        return Rng(self.next64())


def _restore(state: int) -> Rng:
    """Unpickle an ``Rng`` (see ``Rng.__reduce__``)."""
    r = Rng.__new__(Rng)
    r.state = state
    return r
