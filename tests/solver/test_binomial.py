"""Binomials in a window, for counting many cells no clue touches."""

from __future__ import annotations

from math import comb

from hypothesis import given
from hypothesis import strategies as st

from mineshafted.solver.binomial import binomials


@given(n=st.integers(0, 3000), low=st.integers(-5, 3000), span=st.integers(0, 40))
def test_binomials_are_maths_binomials(n: int, low: int, span: int) -> None:
    expected = [comb(n, k) if 0 <= k <= n else 0 for k in range(low, low + span + 1)]
    assert binomials(n, low, low + span) == expected


def test_the_sieve_finds_exactly_the_primes() -> None:
    from mineshafted.solver.binomial import _primes

    def prime(n: int) -> bool:
        return n >= 2 and all(n % d for d in range(2, n))

    for n in range(0, 300):
        assert _primes(n) == [p for p in range(n + 1) if prime(p)], n


@given(st.lists(st.integers(1, 10**6), max_size=40))
def test_the_product_tree_is_the_product(numbers: list[int]) -> None:
    from math import prod

    from mineshafted.solver.binomial import _product

    assert _product(numbers) == prod(numbers)  # 1 for none


@given(n=st.integers(128, 3000), data=st.data())
def test_a_binomial_with_both_sides_large_comes_from_its_prime_factors(
    n: int, data: st.DataObject
) -> None:
    from mineshafted.solver.binomial import _binomial

    k = data.draw(st.integers(64, n - 64))
    assert _binomial(n, k) == comb(n, k)
