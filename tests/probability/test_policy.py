"""Guessing policies: each picks what it promises, and best's look-ahead is counted exactly."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted.board import Geometry, PartialGrid
from mineshafted.probability import (
    Best,
    Odds,
    RandomGuess,
    Safest,
    odds,
    outlook,
    play_game,
    policy_named,
    position_of,
)
from mineshafted.probability import lookahead as lookahead_module
from mineshafted.probability.fifties import fifty_fifty
from mineshafted.probability.policy import INGREDIENTS, REMOVED
from mineshafted.solver import Position, Tally, combine

from ..conftest import view_of
from .conftest import Stall, stalls


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


@pytest.mark.slow
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


def test_every_choice_of_ingredients_switched_is_named_in_order_and_read_back() -> None:
    # An ingredient (each is on by default) is named "-name" when off, in the fields' order
    # whatever the order it was switched in.
    default = Best()
    for size in range(len(INGREDIENTS) + 1):
        for switched in combinations(INGREDIENTS, size):
            best = Best.without(*reversed(switched))
            assert best.name == "best" + "".join("-" + name for name in switched)
            assert policy_named(best.name) == best
            kept = [name for name in INGREDIENTS if name not in switched]
            assert all(getattr(best, name) == getattr(default, name) for name in kept)
            assert all(bool(getattr(best, n)) != bool(getattr(default, n)) for n in switched)
            assert isinstance(best.tolerance, float)


def test_switching_on_gives_the_ingredients_usual_value() -> None:
    assert Best.using("tolerance") == Best()
    assert Best.without("tolerance").name == "best-tolerance"
    assert Best.without("tolerance", "fifty").switched(["fifty"], on=True) == Best(tolerance=0.0)
    with pytest.raises(ValueError, match="no ingredient luck"):
        Best.using("luck")


@pytest.mark.parametrize(
    "name", ["best+luck", "best+fifty-fifty", "best+", "best+-", "best++fifty", "best+deep"]
)
def test_a_name_that_switches_no_ingredient_names_no_policy(name: str) -> None:
    with pytest.raises(ValueError, match="no policy is called"):
        policy_named(name)


def test_only_an_ingredient_can_be_switched_off() -> None:
    assert "width" not in INGREDIENTS
    for name in ("width", "luck"):
        with pytest.raises(ValueError, match="no ingredient"):
            Best.without(name)


def test_every_unknown_ingredient_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match=r"no ingredient luck, width$"):
        Best.without("width", "corners", "luck")


def test_an_ingredient_switched_off_keeps_its_fields_type() -> None:
    # The tolerance is a float, the other ingredients booleans: off is 0.0 and False.
    best = Best.without(*INGREDIENTS)
    assert type(best.tolerance) is float and best.tolerance == 0.0
    assert all(getattr(best, name) is False for name in INGREDIENTS if name != "tolerance")


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


def glance(cells: list[int], group: list[set[int]]) -> tuple[Fraction, bool]:
    """For the placements ``group`` (one clue of the guessed cell): ``(4 s1 + s2) / 5`` of
    the two safest of ``cells`` (a certain mine is no guess; none left: 1), times the
    group's size, and whether any cell is decided."""
    size = len(group)
    mined = {c: sum(c in mines for mines in group) for c in cells}
    decides = any(n in (0, size) for n in mined.values())
    safeties = sorted(Fraction(size - n, size) for n in mined.values() if n < size)
    if not safeties:
        return Fraction(size), decides
    first = safeties[-1]
    second = safeties[-2] if len(safeties) > 1 else first
    return size * (4 * first + second) / 5, decides


@pytest.mark.slow
def test_lookahead_and_progress_agree_with_brute_force(small_stalls: list[Stall]) -> None:
    checked = 0
    for stall in small_stalls[:12]:
        fits = placements(stall)
        neighbours = Geometry(len(stall.board), len(stall.board[0])).neighbour_table()
        for cell in stall.position.unknown[:6]:
            groups: dict[int, list[set[int]]] = {}
            for mines in fits:
                if cell not in mines:
                    value = sum(n in mines for n in neighbours[cell])
                    groups.setdefault(value, []).append(mines)
            others = [c for c in stall.position.unknown if c != cell]
            ahead = Fraction(0)
            progress = 0
            for group in groups.values():
                weighted, decides = glance(others, group)
                ahead += weighted
                progress += len(group) if decides else 0
            look = outlook(stall.position, stall.odds, stall.board, cell)
            total = len(fits)
            assert look.cell == cell
            assert look.safe == Fraction(sum(len(g) for g in groups.values()), total)
            assert look.lookahead == ahead / total
            assert look.progress == Fraction(progress, total)
            assert look.dead == (len(groups) <= 1)
            checked += 1
    assert checked > 30


@pytest.mark.parametrize(
    "best",
    [
        Best(endgame=False, fifty=False, progress=False),
        Best(endgame=False, fifty=False, lookahead=False),
        Best(endgame=False, fifty=False, lookahead=False, progress=False),
        Best(endgame=False, fifty=False, width=2),
    ],
)
def test_each_ingredient_chooses_a_candidate_best_by_its_own_measure(
    intermediate_stalls: list[Stall], small_stalls: list[Stall], best: Best
) -> None:
    # Look-ahead: the living candidate of highest secondary safety (progress between equals,
    # if on). Progress alone: the most progress (safety between equals). Neither: the first.
    differs = 0
    for number, stall in enumerate([*intermediate_stalls, *small_stalls]):
        if stall.odds.safe:
            continue
        cells = best._candidates(stall.position, stall.odds, stall.board, random.Random(number))
        chosen = best.choose(stall.position, stall.odds, stall.board, random.Random(number))
        assert chosen in cells
        looks = [outlook(stall.position, stall.odds, stall.board, cell) for cell in cells]
        (look,) = [look for look in looks if look.cell == chosen]
        living = [other for other in looks if not other.dead]
        if best.lookahead and living:
            assert not look.dead
            assert look.lookahead == max(other.lookahead for other in living)
            equals = [other for other in living if other.lookahead == look.lookahead]
            if best.progress:
                assert look.progress == max(other.progress for other in equals)
        elif best.progress and not best.lookahead:
            assert look.progress == max(other.progress for other in looks)
            equals = [other for other in looks if other.progress == look.progress]
            assert look.safe == max(other.safe for other in equals)
        elif not best.lookahead:
            assert chosen == cells[0]
        differs += chosen != cells[0]
    # With neither look-ahead nor progress the first candidate wins; otherwise often not.
    assert differs > 3 if best.progress or best.lookahead else differs == 0


def isolated(stall: Stall, cell: int) -> tuple[int, int] | None:
    """(unknown, known mine) neighbours of a cell no clue sees, with no unknown neighbour a
    clue sees; ``None`` for any other cell."""
    free = set(stall.position.unconstrained)
    cols = len(stall.board[0])
    around = Geometry(len(stall.board), cols).neighbour_table()[cell]
    values = [stall.board[n // cols][n % cols] for n in around]
    if cell not in free or any(
        v is None and n not in free for n, v in zip(around, values, strict=True)
    ):
        return None
    return (values.count(None), values.count(-1))


@pytest.mark.parametrize(
    ("corners", "tolerance"), [(True, "0.1"), (False, "0.1"), (True, "0.137"), (True, "0.0919")]
)
def test_candidates_are_ordered_and_one_isolated_cell_stands_for_its_kind(
    intermediate_stalls: list[Stall], corners: bool, tolerance: str
) -> None:
    best = Best(tolerance=float(tolerance), corners=corners, width=10**6)
    merged = 0
    guessing = [stall for stall in intermediate_stalls if not stall.odds.safe]
    for number, stall in enumerate(guessing):
        mined = stall.odds.mined
        cells = best._candidates(stall.position, stall.odds, stall.board, random.Random(number))
        unknown = set(mined)
        cols = len(stall.board[0])
        table = Geometry(len(stall.board), cols).neighbour_table()
        if corners:
            keys = [(mined[c], sum(n in unknown for n in table[c])) for c in cells]
        else:
            keys = [(mined[c], 0) for c in cells]
        assert keys == sorted(keys)
        kinds = [(mined[c], isolated(stall, c)) for c in cells if isolated(stall, c) is not None]
        assert len(kinds) == len(set(kinds))
        total, least = stall.odds.placements, min(mined.values())
        keep = 1 - Fraction(tolerance)
        eligible = [c for c in mined if total - mined[c] >= keep * (total - least)]
        stood_for = {(mined[c], isolated(stall, c)) for c in eligible}
        assert {c for c in eligible if isolated(stall, c) is None} <= set(cells)
        assert set(cells) <= set(eligible)
        assert stood_for - {(m, None) for m in mined.values()} == set(kinds)
        merged += len(eligible) - len(cells)
    assert merged > 10


def test_best_fifty_is_read_back_and_the_error_names_the_policies() -> None:
    assert policy_named("best-fifty") == Best(fifty=False)
    assert Best(fifty=False).name == "best-fifty"
    with pytest.raises(ValueError, match=r"choose one of best, safest, random$"):
        policy_named("luck")


def test_an_unavoidable_fifty_fifty_is_found_after_other_constraints() -> None:
    position, _, view = enclosed_fifty_fifty()
    # The same stall with another constraint before each component's own.
    other = ((3, 9, 15), 1)
    reordered = Position(
        view,
        [[other, *component] for component in position.components],
        position.unconstrained,
        position.mines_found,
    )
    assert fifty_fifty(reordered, view) in (0, 1)


def test_the_outlook_of_a_cell_with_no_unknown_neighbour() -> None:
    # ``? * 1 ? ?`` with 2 mines: cell 3 is safe, the other mine is on 0 or on 4; cell 0
    # sees only the known mine.
    view = view_of("?*1??")
    position = position_of(view)
    look = outlook(position, odds(position, 2), view, 0)
    assert look.by_clue == {1: Fraction(1, 2)}
    assert look.dead


def test_between_equal_secondary_safeties_progress_decides() -> None:
    best = Best(endgame=False, fifty=False)
    decided = 0
    for number, stall in enumerate(stalls(9, 9, 10, range(3))):
        if stall.odds.safe:
            continue
        rng = random.Random(number)
        cells = best._candidates(stall.position, stall.odds, stall.board, rng)
        looks = [outlook(stall.position, stall.odds, stall.board, cell) for cell in cells]
        living = [look for look in looks if not look.dead]
        if not living:
            continue
        top = max(look.lookahead for look in living)
        tied = [look for look in living if look.lookahead == top]
        chosen = best.choose(stall.position, stall.odds, stall.board, random.Random(number))
        assert chosen in {look.cell for look in tied}
        progress = {look.cell: look.progress for look in tied}
        assert progress[chosen] == max(progress.values())
        decided += len(set(progress.values())) > 1
    assert decided >= 1


def test_progress_breaks_a_tie_of_secondary_safety_only_when_it_is_on() -> None:
    # Cell 17 is the safest candidate (10/11) but makes progress less often (5/11) than the
    # candidates 19, 18, 9 and 8 (9/11 each, progress 9/11), whose secondary safety it ties.
    view = view_of("..1??\n122??\n*3*2?\n?????")
    position = position_of(view)
    chances = odds(position, 5)
    looks = {cell: outlook(position, chances, view, cell) for cell in (17, 19, 18, 9, 8)}
    assert {look.lookahead for look in looks.values()} == {Fraction(9, 11)}
    assert looks[17].safe > looks[19].safe and looks[17].progress < looks[19].progress
    with_progress = Best(endgame=False, fifty=False)
    assert with_progress._candidates(position, chances, view, random.Random(0))[0] == 17
    assert with_progress.choose(position, chances, view, random.Random(0)) in (19, 18, 9, 8)
    without = Best(endgame=False, fifty=False, progress=False)
    assert without.choose(position, chances, view, random.Random(0)) == 17


def test_without_look_ahead_the_safer_of_equal_progress_wins() -> None:
    # Cells 4 (safe 5/7), 16 and 17 (9/14 each) make progress equally often (2/7), more
    # than any other candidate: the safest of them, 4, wins.
    view = view_of(".1*2??\n.12???\n..1???")
    position = position_of(view)
    chances = odds(position, 4)
    best = Best(lookahead=False, endgame=False, fifty=False)
    cells = best._candidates(position, chances, view, random.Random(0))
    looks = [outlook(position, chances, view, cell) for cell in cells]
    top = max(look.progress for look in looks)
    assert {look.cell for look in looks if look.progress == top} == {4, 16, 17}
    assert chances.probability(4) < chances.probability(16) == chances.probability(17)
    assert best.choose(position, chances, view, random.Random(0)) == 4


def test_a_dead_candidate_does_not_raise_the_bar_for_living_ones() -> None:
    # Cells 33 and 36 can show only a 1 (dead), with a secondary safety of 46/75; the living
    # candidates 38 (7/15) and 30 (13/30) fall below it. Dead candidates come last, so 38
    # wins: the look-ahead must not drop the living ones for falling short of a dead one.
    view = view_of("..1*11??\n..2233??\n..1*2**?\n112233??\n??1??1??")
    position = position_of(view)
    chances = odds(position, 10)
    best = Best(endgame=False, fifty=False)
    cells = best._candidates(position, chances, view, random.Random(0))
    looks = {cell: outlook(position, chances, view, cell) for cell in cells}
    assert sorted(cells) == [30, 33, 36, 38]
    assert looks[33].dead and looks[36].dead and looks[36].lookahead == Fraction(46, 75)
    assert not looks[38].dead and looks[38].lookahead == Fraction(7, 15) > looks[30].lookahead
    assert best.choose(position, chances, view, random.Random(0)) == 38


def test_best_skips_the_clues_of_candidates_that_cannot_win(
    intermediate_stalls: list[Stall], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A candidate whose counted clues show it cannot reach the best secondary safety so far
    # is given up: best counts fewer positions than the full outlooks of its candidates.
    counted = 0

    def counting(*args: Any, **kwargs: Any) -> Tally:
        nonlocal counted
        counted += 1
        return combine(*args, **kwargs)

    monkeypatch.setattr(lookahead_module, "combine", counting)
    best = Best(endgame=False, fifty=False)
    in_full = by_best = 0
    for number, stall in enumerate(intermediate_stalls):
        if stall.odds.safe:
            continue
        cells = best._candidates(stall.position, stall.odds, stall.board, random.Random(number))
        counted = 0
        for cell in cells:
            outlook(stall.position, stall.odds, stall.board, cell)
        in_full += counted if len(cells) > 1 else 0
        counted = 0
        best.choose(stall.position, stall.odds, stall.board, random.Random(number))
        by_best += counted
    assert by_best < in_full


def test_isolated_cells_are_alike_by_their_known_mines_too() -> None:
    # ``? * ? * ?`` with one more mine, no clue: cells 0 and 4 each touch one known mine and
    # stand for each other; cell 2 touches two, a kind of its own.
    view = view_of("?*?*?")
    position = position_of(view)
    chances = odds(position, 3)
    cells = Best()._candidates(position, chances, view, random.Random(0))
    assert sorted(cells) in ([0, 2], [2, 4])


@pytest.mark.parametrize("gone", REMOVED)
def test_a_removed_ingredient_is_refused_naming_those_that_exist(gone: str) -> None:
    with pytest.raises(ValueError) as raised:
        policy_named(f"best+{gone}")
    message = str(raised.value)
    assert f"{gone} was removed from best" in message
    assert "tolerance, corners, lookahead, progress, endgame, fifty" in message
    assert "\n" not in message
    with pytest.raises(ValueError, match="no ingredient"):
        Best.using(gone)
