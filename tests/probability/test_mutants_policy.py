"""Guessing policy: details mutation testing found unchecked (look-ahead, progress, candidates)."""

from __future__ import annotations

import doctest
import random
from fractions import Fraction

import pytest

from mineshafted.board import Geometry
from mineshafted.errors import PartialGrid
from mineshafted.probability import Best, Safest, odds, outlook, play_game, policy_named
from mineshafted.probability import policy as policy_module
from mineshafted.probability.policy import _fifty_fifty
from mineshafted.probability.view import position_of
from mineshafted.solver import Position

from .test_endgame import best_play
from .test_policy import Recording, Stall, enclosed_fifty_fifty, placements, stalls


@pytest.fixture(scope="module")
def small() -> list[Stall]:
    found = stalls(5, 5, 5, range(40))
    assert len(found) > 15
    return found


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


def test_lookahead_and_progress_agree_with_brute_force(small: list[Stall]) -> None:
    checked = 0
    for stall in small[:12]:
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


def test_the_policy_examples_hold() -> None:
    # The module's examples (run by pytest from the package too) under the tests' selection.
    failed, tried = doctest.testmod(policy_module)
    assert (failed, tried > 5) == (0, True)


@pytest.fixture(scope="module")
def intermediate() -> list[Stall]:
    found = [s for s in stalls(16, 16, 40, range(12)) if not s.odds.safe]
    assert len(found) > 15
    return found


def ranked(best: Best, stall: Stall, seed: int) -> int:
    """The cell ``best`` should choose, ranking every candidate by its full outlook."""
    cells = best._candidates(stall.position, stall.odds, stall.board, random.Random(seed))
    if len(cells) == 1 or not (best.progress or best.lookahead):
        return cells[0]
    looks = [outlook(stall.position, stall.odds, stall.board, cell) for cell in cells]
    order = {cell: rank for rank, cell in enumerate(cells)}
    if best.lookahead:
        looks.sort(
            key=lambda k: (k.dead, -k.lookahead, -k.progress if best.progress else 0, order[k.cell])
        )
    else:
        looks.sort(key=lambda k: (-k.progress, -k.safe, order[k.cell]))
    return looks[0].cell


@pytest.mark.parametrize(
    "best",
    [
        Best(endgame=False, fifty=False, progress=False),
        Best(endgame=False, fifty=False, lookahead=False),
        Best(endgame=False, fifty=False, lookahead=False, progress=False),
        Best(endgame=False, fifty=False, width=2),
    ],
)
def test_each_ingredient_chooses_by_its_full_ranking(
    intermediate: list[Stall], small: list[Stall], best: Best
) -> None:
    differs = 0
    for number, stall in enumerate([*intermediate, *small]):
        if stall.odds.safe:
            continue
        chosen = best.choose(stall.position, stall.odds, stall.board, random.Random(number))
        assert chosen == ranked(best, stall, number)
        first = best._candidates(stall.position, stall.odds, stall.board, random.Random(number))
        differs += chosen != first[0]
    # With neither look-ahead nor progress the first candidate wins; otherwise often not.
    assert differs > 3 if best.progress or best.lookahead else differs == 0


def test_best_takes_the_endgames_reveal_where_the_heuristic_would_win_less() -> None:
    recording = Recording(Safest(), 6)
    for seed in range(40):
        play_game(4, 5, 6, seed=seed, policy=recording)
    better = 0
    for number, stall in enumerate(recording.stalls):
        if stall.odds.placements > 60 or stall.odds.safe:
            continue
        left = stall.mines - stall.position.mines_found
        _, wins, by_first = best_play(stall.board, left)
        heuristic = Best(endgame=False).choose(
            stall.position, stall.odds, stall.board, random.Random(number)
        )
        chosen = Best().choose(stall.position, stall.odds, stall.board, random.Random(number))
        assert by_first[chosen] == wins
        better += by_first[heuristic] < wins
    assert better >= 5


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
    intermediate: list[Stall], corners: bool, tolerance: str
) -> None:
    best = Best(tolerance=float(tolerance), corners=corners, width=10**6)
    merged = 0
    for number, stall in enumerate(intermediate):
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
    assert _fifty_fifty(reordered, view) in (0, 1)


def test_the_outlook_of_a_cell_with_no_unknown_neighbour() -> None:
    # ``? * 1 ? ?`` with 2 mines: cell 3 is safe, the other mine is on 0 or on 4; cell 0
    # sees only the known mine.
    view: PartialGrid = [[None, -1, 1, None, None]]
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


def test_isolated_cells_are_alike_by_their_known_mines_too() -> None:
    # ``? * ? * ?`` with one more mine, no clue: cells 0 and 4 each touch one known mine and
    # stand for each other; cell 2 touches two, a kind of its own.
    view: PartialGrid = [[None, -1, None, -1, None]]
    position = position_of(view)
    chances = odds(position, 3)
    cells = Best()._candidates(position, chances, view, random.Random(0))
    assert sorted(cells) in ([0, 2], [2, 4])
