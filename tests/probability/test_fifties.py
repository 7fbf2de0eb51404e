"""Fifty-fifties to come: counted as brute force counts them, and a pseudo fifty-fifty is a
guess that best play (found by plain search) agrees loses nothing when taken first."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import pytest

from mineshafted.board import Geometry, PartialGrid
from mineshafted.probability import Best, odds, policy_named, position_of
from mineshafted.probability.fifties import coming, influence, placements_given, pseudo

from .conftest import Stall, best_play, stalls
from .test_policy import placements


@cache
def varied_stalls() -> list[Stall]:
    """Stalls of small games, 5x5/5 and 4x5/4, played safest, with at most 16 unknown cells
    (so that brute force is quick)."""
    found = stalls(5, 5, 5, range(600)) + stalls(4, 5, 4, range(600))
    return [stall for stall in found if len(stall.position.unknown) <= 16]


@cache
def fits_of(index: int) -> list[set[int]]:
    """Every placement of ``varied_stalls()[index]``, by brute force."""
    return placements(varied_stalls()[index])


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


def test_every_fifty_fifty_to_come_is_found_and_counted_as_brute_force_counts_it() -> None:
    seen = 0
    for index, stall in enumerate(varied_stalls()):
        fits = fits_of(index)
        found = {
            (pair.first, pair.second, tuple(sorted(pair.flank)), pair.placements)
            for pair in coming(stall.position, stall.odds, stall.board)
        }
        assert found == brute_coming(stall, fits), stall.board
        seen += len(found)
    assert seen > 80


def test_influence_is_at_most_a_cells_mined_and_its_safe_placements() -> None:
    for stall in varied_stalls():
        total = stall.odds.placements
        for cell, value in influence(stall.position, stall.odds, stall.board).items():
            assert 0 < value <= min(stall.odds.mined[cell], total - stall.odds.mined[cell])


def test_a_pseudo_fifty_fifty_is_mined_only_as_one_of_a_fifty_fifty() -> None:
    found = 0
    for index, stall in enumerate(varied_stalls()):
        cell = pseudo(stall.position, stall.odds, stall.board)
        if cell is None:
            continue
        found += 1
        fits = fits_of(index)
        pairs = [p for p in brute_coming(stall, fits) if p[0] == cell]
        mined = [m for m in fits if cell in m]
        assert any(all(p[1] not in m and set(p[2]) <= m for m in mined) for p in pairs)
    assert found > 50


def test_guessing_a_pseudo_fifty_fifty_first_wins_as_often_as_best_play() -> None:
    # The claim behind the ingredient: a winner pays its risk anyway, so taking it first
    # loses nothing. Best play by plain search agrees, on every small stall where it is found.
    checked = 0
    for stall in varied_stalls():
        if stall.odds.placements > 40 or len(stall.position.unknown) > 14:
            continue
        cell = pseudo(stall.position, stall.odds, stall.board)
        if cell is None:
            continue
        mines_left = stall.mines - sum(v == -1 for row in stall.board for v in row)
        _, best_wins, first = best_play(stall.board, mines_left)
        assert first[cell] == best_wins, stall.board
        checked += 1
    assert checked >= 50


def test_best_with_pseudo_takes_the_pseudo_fifty_fifty_and_best_may_not() -> None:
    for stall in varied_stalls():
        cell = pseudo(stall.position, stall.odds, stall.board)
        if cell is None or stall.odds.probability(cell) == Fraction(1, 2):
            continue
        if (
            Best(endgame=False).choose(stall.position, stall.odds, stall.board, random.Random(0))
            == cell
        ):
            continue
        chosen = Best(endgame=False, pseudo=True).choose(
            stall.position, stall.odds, stall.board, random.Random(0)
        )
        assert chosen == cell
        return
    pytest.fail("no stall where best+pseudo and best part")


def test_longterm_counts_a_candidates_influence_as_risk_paid_anyway() -> None:
    parted = 0
    for stall in varied_stalls():
        paid = influence(stall.position, stall.odds, stall.board)
        if not paid:
            continue
        plain = Best(endgame=False, fifty=False)
        longterm = Best(endgame=False, fifty=False, longterm=True)
        a = plain.choose(stall.position, stall.odds, stall.board, random.Random(0))
        b = longterm.choose(stall.position, stall.odds, stall.board, random.Random(0))
        if a != b:
            parted += 1
            assert b in paid  # only a cell with influence can overtake
    assert parted > 0


def test_pseudo_and_longterm_are_read_back_by_name() -> None:
    assert policy_named("best+pseudo+longterm") == Best(pseudo=True, longterm=True)
    assert Best(pseudo=True, longterm=True).name == "best+pseudo+longterm"


def test_an_enclosed_fifty_fifty_is_a_pseudo_fifty_fifty() -> None:
    view: PartialGrid = [
        [None, None, -1, None, None, None],
        [1, 4, -1, None, None, None],
        [0, 2, -1, None, None, None],
        [0, 1, 2, None, None, None],
    ]
    position = position_of(view)
    assert pseudo(position, odds(position, 6), view) == 0
