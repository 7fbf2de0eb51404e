"""Moments: exact sums of floats, and the mean and standard deviation they give, in any order.

A study's results arrive in the order its games finish, which differs from run to run; added
exactly, they give the same totals whatever that order, and the same mean and standard
deviation, to the last bit, as :func:`statistics.fmean` and :func:`statistics.stdev` of the
whole list would.

Glossary
--------
dyadic
    A fraction whose denominator is a power of two: every finite float is one, and so are
    their sums and products.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

__all__ = ["ExactSum", "Moments"]


class ExactSum:
    """Finite floats (or integers) added exactly, in any order; rounded once when read.

    Examples
    --------
    >>> total = ExactSum()
    >>> for value in [0.1] * 10:
    ...     total.add(value)
    >>> total.value(), sum([0.1] * 10)
    (1.0, 0.9999999999999999)

    Notes
    -----
    Kept as an integer over ``2**k``, ``k`` the largest exponent of a denominator seen so
    far (at most 1074 for a float, 2148 for a float's square): ``O(1)`` time and memory per
    value, the integer growing by one bit each time the count doubles.
    """

    __slots__ = ("_numerator", "_shift")

    def __init__(self) -> None:
        self._numerator = 0
        self._shift = 0  # the sum is _numerator / 2**_shift

    def add(self, value: float) -> None:
        """Add ``value``.

        Raises
        ------
        ValueError
            ``value`` is not finite.
        """
        numerator, shift = _dyadic(value)
        self.add_dyadic(numerator, shift)

    def add_dyadic(self, numerator: int, shift: int) -> None:
        """Add ``numerator / 2**shift``."""
        if shift > self._shift:
            self._numerator <<= shift - self._shift
            self._shift = shift
        self._numerator += numerator << (self._shift - shift)

    def exact(self) -> Fraction:
        """The sum, exactly."""
        return Fraction(self._numerator, 1 << self._shift)

    def value(self) -> float:
        """The sum, correctly rounded (as :func:`math.fsum` gives it)."""
        return self._numerator / (1 << self._shift)


class Moments:
    """Values counted as they arrive, in any order: how many, their sum and their sum of
    squares, all exact.

    Examples
    --------
    >>> moments = Moments()
    >>> for value in [0.6, 0.2, 0.4] * 10:
    ...     moments.add(value)
    >>> moments.count, round(moments.mean(), 3), round(moments.stdev(), 3)
    (30, 0.4, 0.166)

    Notes
    -----
    ``O(1)`` time and memory per value (:class:`ExactSum`); the standard deviation is
    computed once, from the exact sums, and rounded once.
    """

    __slots__ = ("_squares", "_sum", "count")

    def __init__(self) -> None:
        self.count = 0
        self._sum = ExactSum()
        self._squares = ExactSum()

    def add(self, value: float) -> None:
        """Count one finite value.

        Raises
        ------
        ValueError
            ``value`` is not finite.
        """
        numerator, shift = _dyadic(value)
        self._sum.add_dyadic(numerator, shift)
        self._squares.add_dyadic(numerator * numerator, 2 * shift)
        self.count += 1

    def mean(self) -> float:
        """The mean, correctly rounded: :func:`statistics.fmean`'s.

        Raises
        ------
        ZeroDivisionError
            No values.
        """
        return self._sum.value() / self.count

    def stdev(self) -> float:
        """The sample standard deviation, correctly rounded: :func:`statistics.stdev`'s.

        Raises
        ------
        ZeroDivisionError
            Fewer than two values.
        """
        n = self.count
        total = self._sum.exact()
        variance = (n * self._squares.exact() - total * total) / n / (n - 1)
        return _sqrt(variance)


def _dyadic(value: float) -> tuple[int, int]:
    """``value`` as ``(numerator, shift)``: it is ``numerator / 2**shift``.

    Raises
    ------
    ValueError
        ``value`` is not finite.
    """
    try:
        numerator, denominator = value.as_integer_ratio()
    except (OverflowError, ValueError):
        raise ValueError(f"{value!r} is not a finite number") from None
    return numerator, denominator.bit_length() - 1


def _sqrt(value: Fraction) -> float:
    """The square root of a fraction of 0 or more, correctly rounded.

    Notes
    -----
    As :func:`statistics.stdev` takes it (Python 3.11 on): the integer square root, rounded
    to odd, of the fraction scaled to :data:`_SQRT_BITS` significant bits, then one rounding
    to a float; see https://bugs.python.org/msg407078.
    """
    n, m = value.numerator, value.denominator
    q = (n.bit_length() - m.bit_length() - _SQRT_BITS) // 2
    if q >= 0:
        return (_isqrt_rto(n, m << 2 * q) << q) / 1
    return _isqrt_rto(n << -2 * q, m) / (1 << -q)


_SQRT_BITS = 2 * sys.float_info.mant_dig + 3
"""Bits of the scaled fraction whose square root is rounded to odd: enough for one correct
rounding to a float afterwards."""


def _isqrt_rto(n: int, m: int) -> int:
    """The square root of ``n / m`` as an integer, rounded to odd (its last bit set when it is
    not exact)."""
    a = math.isqrt(n // m)
    return a | (a * a * m != n)
