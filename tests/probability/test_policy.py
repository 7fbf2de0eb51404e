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
from mineshafted.probability.policy import INGREDIENTS
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
    "best",
    [
        Best(endgame=False),
        Best(tolerance=0.0, endgame=False),
        Best(progress=False, endgame=False),
        Best(lookahead=False, endgame=False),
        Best(corners=False, endgame=False),
    ],
)
def test_best_stays_within_its_tolerance_of_the_safest(
    intermediate_stalls: list[Stall], best: Best
) -> None:
    # Without the endgame (whose exact search may take a riskier cell that wins more often).
    for number, stall in enumerate(intermediate_stalls):
        cell = best.choose(stall.position, stall.odds, stall.board, random.Random(number))
        safest = 1 - min(stall.odds.fractions().values())
        tolerance = Fraction(best.tolerance).limit_denominator(10**6)
        assert 1 - stall.odds.probability(cell) >= (1 - tolerance) * safest


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
            assert 0 <= look.lookahead <= look.safe and 0 <= look.progress <= look.safe


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
    everything_off = Best(
        tolerance=0.0, corners=False, lookahead=False, progress=False, endgame=False
    )
    assert everything_off.name == "best-tolerance-corners-lookahead-progress-endgame"


def test_policies_are_chosen_by_name() -> None:
    assert isinstance(policy_named("best"), Best)
    assert isinstance(policy_named("safest"), Safest)
    assert isinstance(policy_named("random"), RandomGuess)
    with pytest.raises(ValueError, match="no policy is called 'luck'"):
        policy_named("luck")


def test_best_with_ingredients_off_is_named_and_read_back() -> None:
    for best in (
        Best(progress=False),
        Best(tolerance=0.0, lookahead=False),
        Best(corners=False),
        Best(endgame=False),
    ):
        assert policy_named(best.name) == best
    for name in ("best-luck", "safest-corners", "random-", "best--"):
        with pytest.raises(ValueError, match="no policy is called"):
            policy_named(name)


def test_every_choice_of_ingredients_off_is_named_in_order_and_read_back() -> None:
    for size in range(len(INGREDIENTS) + 1):
        for off in combinations(INGREDIENTS, size):
            best = Best.without(*reversed(off))
            assert best.name == "-".join(["best", *off])
            assert policy_named(best.name) == best
            on = [name for name in INGREDIENTS if name not in off]
            assert all(getattr(best, name) == getattr(Best(), name) for name in on)
            assert not any(getattr(best, name) for name in off)
            assert isinstance(best.tolerance, float)


def test_only_an_ingredient_can_be_switched_off() -> None:
    assert "width" not in INGREDIENTS
    for name in ("width", "luck"):
        with pytest.raises(ValueError, match="no ingredient"):
            Best.without(name)


def test_best_drops_only_candidates_that_cannot_win(intermediate_stalls: list[Stall]) -> None:
    # The look-ahead skips candidates whose secondary safety cannot reach the best so far;
    # ranking every candidate by the full outlook must choose the same cell.
    best = Best(endgame=False, fifty=False)
    compared = 0
    for number, stall in enumerate(intermediate_stalls):
        if stall.odds.safe:
            continue
        cells = best._candidates(stall.position, stall.odds, stall.board, random.Random(number))
        looks = [outlook(stall.position, stall.odds, stall.board, cell) for cell in cells]
        order = {cell: rank for rank, cell in enumerate(cells)}
        looks.sort(key=lambda look: (look.dead, -look.lookahead, -look.progress, order[look.cell]))
        chosen = best.choose(stall.position, stall.odds, stall.board, random.Random(number))
        assert chosen == looks[0].cell
        compared += len(cells) > 1
    assert compared > 5


def test_a_cell_that_can_show_only_one_clue_is_dead() -> None:
    from mineshafted.probability import odds

    # ``1 * ? ?`` with 2 mines: cell 2, when safe, always shows 2.
    view: PartialGrid = [[1, -1, None, None]]
    position = Position(view, [], [2, 3], 1)
    look = outlook(position, odds(position, 2), view, 2)
    assert look.dead and look.by_clue == {2: Fraction(1, 2)}
    # ``? 1 ? ? ?`` with 2 mines: cell 2 shows 1 or 0 as cell 3 is a mine or not.
    living: PartialGrid = [[None, 1, None, None, None]]
    stall = Position(living, [[((0, 2), 1)]], [3, 4], 0)
    look = outlook(stall, odds(stall, 2), living, 2)
    assert not look.dead and set(look.by_clue) == {0, 1}


def enclosed_fifty_fifty() -> tuple[Position, Odds, PartialGrid]:
    """A 4x6 view: cells 0 and 1 hold one mine walled in by known mines at 2 and 8; cells 15
    and 21 share another; the 10 cells on the right, one more."""
    from mineshafted.probability import odds, position_of

    view: PartialGrid = [
        [None, None, -1, None, None, None],
        [1, 4, -1, None, None, None],
        [0, 2, -1, None, None, None],
        [0, 1, 2, None, None, None],
    ]
    position = position_of(view)
    return position, odds(position, 6), view


def test_best_takes_an_unavoidable_fifty_fifty_first() -> None:
    position, chances, view = enclosed_fifty_fifty()
    assert chances.probability(0) == chances.probability(1) == Fraction(1, 2)
    assert min(chances.fractions().values()) < Fraction(1, 2)
    rng = random.Random(0)
    assert Best(endgame=False).choose(position, chances, view, rng) in (0, 1)
    other = Best(endgame=False, fifty=False).choose(position, chances, view, random.Random(0))
    assert chances.probability(other) < Fraction(1, 2)
