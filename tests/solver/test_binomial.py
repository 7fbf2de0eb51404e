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
