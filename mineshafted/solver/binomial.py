"""Binomials: ``C(n, k)`` for a window of ``k``, exactly, when ``n`` is large.

Counting the placements of a board with many unknown cells that no clue touches needs
``C(U, R - x)`` for every ``x`` the components can hold: numbers with hundreds of thousands
of digits on a large board, where :func:`math.comb` pays a big-number division for each
(about 1 s apiece for ``C(1,000,000, 200,000)`` here). :func:`binomials` makes the highest of
the window from its prime factors and each next one from it by an exact division by a small
number.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

__all__ = ["binomials"]


def binomials(n: int, low: int, high: int) -> list[int]:
    """``C(n, k)`` for ``k`` from ``low`` to ``high``, zero outside ``0..n``.

    Examples
    --------
    >>> binomials(5, -1, 3)
    [0, 1, 5, 10, 10]
    >>> from math import comb
    >>> binomials(1000, 197, 203) == [comb(1000, k) for k in range(197, 203 + 1)]
    True

    Notes
    -----
    The highest in range from its prime factors (Legendre: the exponent of ``p`` in
    ``C(n, k)`` is the number of carries when adding ``k`` and ``n - k`` in base ``p``),
    multiplied as a balanced product tree; then each next one down by ``C(n, k - 1) =
    C(n, k) * k / (n - k + 1)``, an exact division by a small number.
    """
    top = min(high, n)
    found: dict[int, int] = {}
    if top >= max(low, 0):
        value = _binomial(n, top)
        found[top] = value
        for k in range(top, max(low, 0), -1):
            value = value * k // (n - k + 1)
            found[k - 1] = value
    return [found.get(k, 0) for k in range(low, high + 1)]


def _binomial(n: int, k: int) -> int:
    """``C(n, k)``, ``0 <= k <= n``: as a product of prime powers when both ``k`` and ``n - k``
    are large (see :func:`binomials`), where :func:`math.comb` is slow."""
    if min(k, n - k) < 64:  # pragma: no mutate - a speed threshold: either way is exact
        return comb(n, k)
    factors = []
    for p in _primes(n):
        exponent, a, b, c = 0, n, k, n - k
        while a:
            a, b, c = a // p, b // p, c // p
            exponent += a - b - c
        if exponent:
            factors.append(p**exponent)
    return _product(factors)


def _primes(n: int) -> list[int]:
    """The primes up to ``n`` (a sieve)."""
    sieve = bytearray([1]) * (n + 1)
    sieve[:2] = bytes(len(sieve[:2]))  # 0 and 1 are not primes
    for i in range(2, int(n**0.5) + 1):
        if sieve[i]:
            sieve[i * i :: i] = bytes(len(range(i * i, n + 1, i)))
    return [i for i, prime in enumerate(sieve) if prime]


def _product(numbers: Sequence[int]) -> int:
    """The product of ``numbers``, multiplied in pairs (balanced sizes: fast big numbers)."""
    layer = list(numbers) or [1]
    while len(layer) > 1:
        layer = [
            layer[i] * layer[i + 1] if i + 1 < len(layer) else layer[i]
            for i in range(0, len(layer), 2)
        ]
    return layer[0]
