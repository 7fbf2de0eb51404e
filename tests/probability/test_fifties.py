"""Fifty-fifties to come (what the live page marks at a stall): found and counted as brute
force finds and counts them."""

from __future__ import annotations

import random
from functools import cache

import pytest

from mineshafted.board import Geometry
from mineshafted.probability.fifties import coming, placements_given

from .conftest import Stall, stalls
from .test_policy import placements

GAMES = 600
"""Games of each size whose stalls the slow checks read (the default loop reads 100)."""


@cache
def varied_stalls(games: int = GAMES) -> list[Stall]:
    """Stalls of small games, ``games`` each of 5x5/5 and 4x5/4, played safest, with at most
    16 unknown cells (so that brute force is quick)."""
    found = stalls(5, 5, 5, range(games)) + stalls(4, 5, 4, range(games))
    return [stall for stall in found if len(stall.position.unknown) <= 16]


@cache
def fits_of(index: int, games: int = GAMES) -> list[set[int]]:
    """Every placement of ``varied_stalls(games)[index]``, by brute force."""
    return placements(varied_stalls(games)[index])


def brute_coming(stall: Stall, fits: list[set[int]]) -> set[tuple[int, int, tuple[int, ...], int]]:
    """The fifty-fifties to come by their definition, over every placement: two unknown cells
    side by side whose cells beside only one of them hold no clue and at most one unknown
    cell; counted are the placements with a mine on the first, none on the second and mines
    on those unknown cells."""
    rows, cols = len(stall.board), len(stall.board[0])
    flat = [value for row in stall.board for value in row]
    neighbours = Geometry(rows, cols).neighbour_table()
    found = set()
    for a in range(rows * cols):
        for b in (a + 1, a + cols):
            if b >= rows * cols or (b == a + 1 and b % cols == 0):
                continue
            if flat[a] is not None or flat[b] is not None:
                continue
            only = (set(neighbours[a]) ^ set(neighbours[b])) - {a, b}
            if any(flat[n] not in (None, -1) for n in only):
                continue
            flank = tuple(sorted(n for n in only if flat[n] is None))
            if len(flank) > 1:
                continue
            count = sum(1 for m in fits if a in m and b not in m and set(flank) <= m)
            if count:
                found.add((a, b, flank, count))
    return found


@pytest.mark.slow  # over a second
def test_placements_given_agrees_with_brute_force() -> None:
    rng = random.Random(3)
    checked = 0
    for index, stall in enumerate(varied_stalls()[:60]):
        fits = fits_of(index)
        unknown = stall.position.unknown
        for _ in range(4):
            mines = tuple(rng.sample(unknown, min(2, len(unknown))))
            rest = [c for c in unknown if c not in mines]
            safe = tuple(rng.sample(rest, min(1, len(rest))))
            expected = sum(1 for m in fits if set(mines) <= m and not set(safe) & m)
            got = placements_given(stall.position, stall.odds.mines_left, mines, safe)
            assert got == expected, (stall.board, mines, safe)
            checked += 1
    assert checked >= 200


@pytest.mark.parametrize(
    ("games", "at_least"),
    [(100, 10), pytest.param(GAMES, 80, marks=pytest.mark.slow)],  # 600: over a second
)
def test_every_fifty_fifty_to_come_is_found_and_counted_as_brute_force_counts_it(
    games: int, at_least: int
) -> None:
    seen = 0
    for index, stall in enumerate(varied_stalls(games)):
        fits = fits_of(index, games)
        found = {
            (pair.first, pair.second, tuple(sorted(pair.flank)), pair.placements)
            for pair in coming(stall.position, stall.odds, stall.board)
        }
        assert found == brute_coming(stall, fits), stall.board
        seen += len(found)
    assert seen > at_least
