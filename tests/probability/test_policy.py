"""Guessing policies: each picks what it promises, and best's look-ahead is counted exactly."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted.board import Geometry
from mineshafted.errors import PartialGrid
from mineshafted.probability import (
    Best,
    Odds,
    Policy,
    RandomGuess,
    Safest,
    outlook,
    play_game,
    policy_named,
)
from mineshafted.solver import Position


@dataclass
class Stall:
    """One stall a policy was asked about."""

    position: Position
    odds: Odds
    board: PartialGrid
    mines: int


@dataclass
class Recording:
    """A policy that keeps every stall it sees and guesses as ``inner`` does."""

    inner: Policy
    mines: int
    stalls: list[Stall] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"recording {self.inner.name}"

    def choose(self, position: Position, odds: Odds, board: PartialGrid, rng: random.Random) -> int:
        self.stalls.append(Stall(position, odds, board, self.mines))
        return self.inner.choose(position, odds, board, rng)


def stalls(rows: int, cols: int, mines: int, seeds: range) -> list[Stall]:
    """The stalls met playing the games of ``seeds`` with the safest policy."""
    recording = Recording(Safest(), mines)
    for seed in seeds:
        play_game(rows, cols, mines, seed=seed, policy=recording)
    return recording.stalls


@pytest.fixture(scope="module")
def intermediate_stalls() -> list[Stall]:
    found = stalls(16, 16, 40, range(12))
    assert len(found) > 15
    return found


@pytest.fixture(scope="module")
def small_stalls() -> list[Stall]:
    found = stalls(5, 5, 5, range(40))
    assert len(found) > 15
    return found


def test_random_picks_an_unknown_cell(intermediate_stalls: list[Stall]) -> None:
    for number, stall in enumerate(intermediate_stalls):
        cell = RandomGuess().choose(stall.position, stall.odds, stall.board, random.Random(number))
        assert cell in stall.position.unknown


def test_random_reaches_cells_beyond_the_safest(intermediate_stalls: list[Stall]) -> None:
    stall = intermediate_stalls[0]
    picks = {
        RandomGuess().choose(stall.position, stall.odds, stall.board, random.Random(n))
        for n in range(50)
    }
    assert picks - set(stall.odds.safest())


def test_safest_picks_a_cell_of_lowest_probability(intermediate_stalls: list[Stall]) -> None:
    for number, stall in enumerate(intermediate_stalls):
        cell = Safest().choose(stall.position, stall.odds, stall.board, random.Random(number))
        assert cell in stall.odds.safest()


@pytest.mark.parametrize(
    "best", [Best(), Best(tolerance=0.0), Best(progress=False), Best(corners=False)]
)
def test_best_stays_within_its_tolerance_of_the_lowest(
    intermediate_stalls: list[Stall], best: Best
) -> None:
    for number, stall in enumerate(intermediate_stalls):
        cell = best.choose(stall.position, stall.odds, stall.board, random.Random(number))
        lowest = min(stall.odds.fractions().values())
        assert stall.odds.probability(cell) <= lowest + Fraction(best.tolerance)


def test_every_policy_takes_a_provably_safe_cell_when_there_is_one() -> None:
    position = Position([[0, 1, 1], [1, None, None]], [[((4, 5), 1)]], [], 0)
    chances = Odds(1, 2, {4: 0, 5: 2})
    for policy in (RandomGuess(), Safest(), Best()):
        assert policy.choose(position, chances, [[0, 1, 1], [1, None, None]], random.Random()) == 4


def test_no_guess_in_play_is_on_a_provably_safe_cell() -> None:
    for seed in range(30):
        for guess in play_game(16, 16, 40, seed=seed).guesses:
            assert 0 < guess.probability < 1


def test_outlook_agrees_with_brute_force(small_stalls: list[Stall]) -> None:
    for stall in small_stalls[:12]:
        fits = placements(stall)
        for cell in stall.position.unknown[:4]:
            look = outlook(stall.position, stall.odds, stall.board, cell)
            assert look.by_clue == brute_force_clues(stall, fits, cell)
            assert sum(look.by_clue.values()) == look.safe
            assert 0 <= look.survive_two <= look.safe and 0 <= look.progress <= look.safe


def placements(stall: Stall) -> list[set[int]]:
    """Every placement of the stall's mines that fits each revealed clue, by brute force."""
    flat = [value for row in stall.board for value in row]
    unknown = [c for c, v in enumerate(flat) if v is None]
    known = {c for c, v in enumerate(flat) if v == -1}
    clues = [(c, v) for c, v in enumerate(flat) if v is not None and v >= 0]
    neighbours = Geometry(len(stall.board), len(stall.board[0])).neighbour_table()
    fits: list[set[int]] = []
    for chosen in combinations(unknown, stall.mines - len(known)):
        mines = known | set(chosen)
        if all(sum(n in mines for n in neighbours[c]) == v for c, v in clues):
            fits.append(mines)
    return fits


def brute_force_clues(stall: Stall, fits: list[set[int]], cell: int) -> dict[int, Fraction]:
    """Over the placements ``fits``: the chance ``cell`` is safe and shows each clue."""
    neighbours = Geometry(len(stall.board), len(stall.board[0])).neighbour_table()
    shows: dict[int, int] = {}
    for mines in fits:
        if cell not in mines:
            value = sum(n in mines for n in neighbours[cell])
            shows[value] = shows.get(value, 0) + 1
    return {value: Fraction(n, len(fits)) for value, n in sorted(shows.items())}


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_best_chooses_the_same_cell_from_the_same_rng(seed: int) -> None:
    first = play_game(9, 9, 10, seed=seed, policy="best")
    again = play_game(9, 9, 10, seed=seed, policy=Best())
    assert first.guesses == again.guesses


def test_best_names_its_switched_off_ingredients() -> None:
    assert Best(tolerance=0.0, corners=False, progress=False, lookahead=False).name == (
        "best-tolerance-corners-progress-lookahead"
    )


def test_policies_are_chosen_by_name() -> None:
    assert isinstance(policy_named("best"), Best)
    assert isinstance(policy_named("safest"), Safest)
    assert isinstance(policy_named("random"), RandomGuess)
    with pytest.raises(ValueError, match="no policy is called 'luck'"):
        policy_named("luck")


def test_best_with_ingredients_off_is_named_and_read_back() -> None:
    for best in (Best(progress=False), Best(tolerance=0.0, lookahead=False), Best(corners=False)):
        assert policy_named(best.name) == best
    for name in ("best-luck", "safest-corners", "random-", "best--"):
        with pytest.raises(ValueError, match="no policy is called"):
            policy_named(name)
