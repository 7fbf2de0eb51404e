"""Fifty-fifties to come: counted as brute force counts them, and a pseudo fifty-fifty is a
guess that best play (found by plain search) agrees loses nothing when taken first."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import pytest

from mineshafted.board import Geometry, PartialGrid
from mineshafted.probability import Best, odds, outlook, policy_named, position_of
from mineshafted.probability.fifties import coming, influence, placements_given, pseudo

from .conftest import Stall, best_play, stalls
from .test_policy import enclosed_fifty_fifty, placements


@cache
def varied_stalls() -> list[Stall]:
    """Stalls of small games, 5x5/5 and 4x5/4, played safest, with at most 16 unknown cells
    (so that brute force is quick)."""
    found = stalls(5, 5, 5, range(600)) + stalls(4, 5, 4, range(600))
    return [stall for stall in found if len(stall.position.unknown) <= 16]


@cache
def larger_stalls() -> list[Stall]:
    """Stalls of 8x8/10 and 16x16/40 games played safest (too big for brute force)."""
    return stalls(8, 8, 10, range(150)) + stalls(16, 16, 40, range(30))


EXPERT_STALL = [
    "11212*210000001*3*12*31001*3*?",
    "1*2*23*310000023*333**211214**",
    "223112**2100013*5*3*4*21*113*3",
    "1*111345*21001***3*22222233*21",
    "2211*3**4*322223332213*21**221",
    "*10113*33*3**1001*11*3*212212*",
    "11000111112332012211122222323*",
    "121100000002*201*100002*4***53",
    "*3*211000002*2011100002*5*6***",
    "4*32*1000113231101221012*24*??",
    "**21110001*3*2*101**2001113*??",
    "22211000012*2222124*3110002*??",
    "112*21000023311*22*22*100023??",
    "2*44*111101**213*3111110001*21",
    "*5**211*2113*202*2001221001110",
    "**321012*101110111001**1000000",
]
"""An expert stall (99 mines; ``*`` a known mine, ``?`` unknown) where a candidate's look-ahead
must reach the floor less its influence, or the best one is dropped uncounted."""


def expert_stall() -> Stall:
    """:data:`EXPERT_STALL` as a stall."""
    view: PartialGrid = [
        [None if ch == "?" else -1 if ch == "*" else int(ch) for ch in row] for row in EXPERT_STALL
    ]
    position = position_of(view)
    return Stall(position, odds(position, 99), view, 99)


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


@pytest.mark.slow
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


@pytest.mark.slow
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


def test_influence_sums_a_cells_fifty_fifties_to_come_up_to_its_mined_placements() -> None:
    for index, stall in enumerate(varied_stalls()):
        fits = fits_of(index)
        summed: dict[int, int] = {}
        for first, second, _, count in brute_coming(stall, fits):
            summed[first] = summed.get(first, 0) + count
            summed[second] = summed.get(second, 0) + count
        expected = {cell: min(value, stall.odds.mined[cell]) for cell, value in summed.items()}
        assert influence(stall.position, stall.odds, stall.board) == expected


def test_a_cell_in_two_fifty_fifties_to_come_has_influence_no_more_than_its_mined() -> None:
    # Cell 0 is the corner: one fifty-fifty to come with cell 1, another with cell 3, each
    # walled in by known mines; one mine among cells 0, 1 and 3.
    view: PartialGrid = [
        [None, None, -1],
        [None, 5, -1],
        [-1, -1, 2],
    ]
    position = position_of(view)
    chances = odds(position, 5)
    assert {(p.first, p.second) for p in coming(position, chances, view)} == {(0, 1), (0, 3)}
    assert influence(position, chances, view) == {0: 1, 1: 1, 3: 1}


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


def test_longterm_takes_the_candidate_best_by_secondary_safety_plus_influence() -> None:
    # The reference: every cell whose safety plus influence is within the tolerance of the
    # best such, ranked by its look-ahead (counted exactly by ``outlook``) plus its influence,
    # the dead ones last.
    parted = 0
    policy = Best(endgame=False, fifty=False, longterm=True, uncapped=True)
    for stall in [expert_stall(), *varied_stalls(), *larger_stalls()]:
        paid = influence(stall.position, stall.odds, stall.board)
        if not paid:
            continue
        total, mined = stall.odds.placements, stall.odds.mined
        kept = {c: total - mined[c] + paid.get(c, 0) for c in mined}
        top = max(kept.values())
        candidates = [c for c in mined if kept[c] * 10 >= 9 * top]
        looks = {c: outlook(stall.position, stall.odds, stall.board, c) for c in candidates}
        value = {
            c: (not looks[c].dead, looks[c].lookahead + Fraction(paid.get(c, 0), total))
            for c in candidates
        }
        chosen = policy.choose(stall.position, stall.odds, stall.board, random.Random(0))
        assert value[chosen] == max(value.values()), stall.board
        plain = Best(endgame=False, fifty=False, uncapped=True)
        parted += chosen != plain.choose(stall.position, stall.odds, stall.board, random.Random(0))
    assert parted >= 3


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
    position, chances, view = enclosed_fifty_fifty()
    assert pseudo(position, chances, view) == 0
