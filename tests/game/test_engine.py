"""Game: each rule's effect, winning and losing, seeded determinism, the view, illegal actions."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mineshafted import MINE, Board, Geometry, InvalidBoardError
from mineshafted.errors import GameOverError, IllegalMoveError
from mineshafted.game import (
    AfterMine,
    FirstMove,
    Flag,
    Game,
    GameStatus,
    MineHit,
    Outcome,
    Reveal,
    Rules,
)

from .strategies import Action, actions, boards, play, rules

pytestmark = pytest.mark.usefixtures("each_core")  # every test under each core

NO_HELP = Rules(FirstMove.NONE, auto_expand=False)
"""A fixed board as is, nothing expands, a mine ends it, the total shown."""


@pytest.fixture
def corner_mine() -> Board:
    return Board.from_text(
        """
        * . . .
        . . . .
        . . . *
        """
    )


def zero_region_and_border(board: Board, cell: int) -> set[int]:
    """Independently of the engine: the zeros connected to ``cell`` and every cell beside them."""
    table = board.geometry.neighbour_table()
    zeros = nx.Graph()
    zeros.add_nodes_from(c for c, v in enumerate(board.values) if v == 0)
    zeros.add_edges_from((c, n) for c in zeros for n in table[c] if n in zeros)
    region = nx.node_connected_component(zeros, cell)
    return region | {n for c in region for n in table[c]}


# -- first move ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_safe_first_move_moves_a_mine_under_the_first_reveal(corner_mine: Board, seed: int) -> None:
    game = Game.on(corner_mine, rules=Rules(FirstMove.SAFE, auto_expand=False), seed=seed)
    event = game.reveal(0)
    board = game.board
    assert board is not None
    assert not event.hit
    assert 0 not in board.mines and 11 in board.mines
    assert board.mine_total == corner_mine.mine_total
    assert Board.from_grid(board.to_grid()) == board  # every clue recomputed
    assert event.revealed == ((0, board.values[0]),)
    assert game.record.header.layout == (0, 11)  # the board as given, for a replay


def test_the_moved_mine_is_placed_by_the_seed(corner_mine: Board) -> None:
    def moved(seed: int) -> frozenset[int]:
        game = Game.on(corner_mine, rules=Rules.CLASSIC, seed=seed)
        game.reveal(0)
        assert game.board is not None
        return game.board.mines

    assert moved(3) == moved(3)
    assert len({moved(seed) for seed in range(8)}) > 1


def test_safe_first_move_leaves_alone_a_board_safe_at_the_first_reveal(corner_mine: Board) -> None:
    game = Game.on(corner_mine, rules=Rules.CLASSIC, seed=1)
    game.reveal(5)
    assert game.board == corner_mine


@pytest.mark.parametrize("seed", range(10))
def test_a_drawn_board_is_drawn_at_the_first_reveal_avoiding_it(seed: int) -> None:
    game = Game.draw(3, 3, 8, rules=Rules.CLASSIC, seed=seed)
    assert game.board is None
    cell = seed % 9
    event = game.reveal(cell)
    assert event.revealed == ((cell, len(Geometry(3, 3).neighbours(cell))),)
    assert game.won  # the only safe cell is revealed


@pytest.mark.parametrize("cell", [0, 5, 19])
def test_an_opening_first_move_shows_a_zero(cell: int) -> None:
    for seed in range(5):
        game = Game.draw(4, 5, 11, rules=Rules(FirstMove.OPENING, auto_expand=False), seed=seed)
        assert game.reveal(cell).revealed == ((cell, 0),)
        assert game.board is not None and game.board.mine_total == 11


def test_an_opening_moves_every_mine_out_of_the_block_on_a_fixed_board() -> None:
    board = Board.from_text(
        """
        * * . .
        * . . .
        . . . .
        """
    )
    game = Game.on(board, rules=Rules(FirstMove.OPENING), seed=2)
    game.reveal(0)
    assert game.board is not None
    assert game.board.mine_total == 3
    assert game.board.mines.isdisjoint({0, 1, 4, 5})
    assert game.shown(0) == 0


def test_an_opening_without_room_for_the_mines_is_refused() -> None:
    game = Game.draw(3, 3, 1, rules=Rules(FirstMove.OPENING), seed=1)
    with pytest.raises(
        IllegalMoveError, match=r"cell 4 \(row 1, column 1\): .* keeps 9 cell\(s\) clear"
    ) as e:
        game.reveal(4)
    assert e.value.cell == 4
    assert game.record.header.first is None and game.record.events == []
    assert game.reveal(0).revealed[0] == (0, 0)  # a corner's opening of 4 leaves room


def test_no_first_move_help_plays_the_board_as_is(corner_mine: Board) -> None:
    game = Game.on(corner_mine, rules=NO_HELP, seed=1)
    assert game.reveal(0).hit
    assert game.status is GameStatus.LOST
    assert game.board == corner_mine


def test_a_drawn_board_without_first_move_help_is_drawn_at_once() -> None:
    game = Game.draw(4, 4, 5, rules=Rules.MINE_SHAFTED, seed=9)
    assert game.board is not None and game.board.mine_total == 5


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "rules"),
    [
        (0, 3, 0, Rules.CLASSIC),
        (3, 3, 9, Rules.CLASSIC),
        (3, 3, 10, Rules.MINE_SHAFTED),
        (2, 2, -1, Rules.CLASSIC),
    ],
)
def test_impossible_draws_are_refused(rows: int, cols: int, mines: int, rules: Rules) -> None:
    with pytest.raises(InvalidBoardError):
        Game.draw(rows, cols, mines, rules=rules)


# -- expansion ----------------------------------------------------------------------------

EXPANDING = Board.from_text(
    """
    . . . . * .
    . . . . . .
    * . . . . .
    . . . * . .
    . . . . . *
    """
)


@pytest.mark.parametrize("cell", [c for c, v in enumerate(EXPANDING.values) if v == 0])
def test_a_zero_reveals_its_whole_region_and_border(cell: int) -> None:
    game = Game.on(EXPANDING, rules=Rules(FirstMove.NONE), seed=1)
    event = game.reveal(cell)
    cells = [c for c, _ in event.revealed]
    assert cells[0] == cell and len(cells) == len(set(cells))
    assert set(cells) == zero_region_and_border(EXPANDING, cell)
    assert all(EXPANDING.values[c] == v for c, v in event.revealed)


def test_without_expansion_a_zero_reveals_only_itself() -> None:
    game = Game.on(EXPANDING, rules=NO_HELP, seed=1)
    assert game.reveal(0).revealed == ((0, 0),)
    assert sum(v is not None for row in game.view().grid for v in row) == 1


def test_expansion_passes_over_flags() -> None:
    game = Game.on(EXPANDING, rules=Rules(FirstMove.NONE), seed=1)
    game.flag(7)
    cells = {c for c, _ in game.reveal(0).revealed}
    assert 7 not in cells
    assert cells == zero_region_and_border(EXPANDING, 0) - {7}


# -- after a mine, winning, the score -----------------------------------------------------


def test_a_mine_ends_a_classic_game(corner_mine: Board) -> None:
    game = Game.on(corner_mine, rules=NO_HELP, seed=1)
    game.reveal(5)
    event = game.reveal(11)
    assert event.hit and event.revealed == ((11, MINE),)
    assert (game.status, game.over, game.won, game.mines_hit) == (
        GameStatus.LOST,
        True,
        False,
        (11,),
    )
    assert game.record.events[-2:] == [MineHit(11), Outcome(GameStatus.LOST, (0, 11))]
    for act in (game.reveal, game.flag, game.unflag):
        with pytest.raises(GameOverError, match=r"cell 6 \(row 1, column 2\): .* over \(lost\)"):
            act(6)


def test_play_continues_after_a_mine_and_the_game_ends_lost(corner_mine: Board) -> None:
    rules = Rules(FirstMove.NONE, auto_expand=False, after_mine=AfterMine.CONTINUE)
    game = Game.on(corner_mine, rules=rules)
    assert game.reveal(11).hit
    assert game.status is GameStatus.PLAYING and game.mines_hit == (11,)
    assert game.shown(11) == MINE
    with pytest.raises(IllegalMoveError, match="revealed, so it cannot be flagged"):
        game.flag(11)
    for cell in range(1, 11):
        assert game.status is GameStatus.PLAYING
        game.reveal(cell)
    assert (game.status, game.over, game.won) == (GameStatus.LOST, True, False)
    assert game.record.events[-1] == Outcome(GameStatus.LOST, (0, 11))


def test_the_score_counts_flagged_mines_never_stepped_on() -> None:
    board = Board.from_text(
        """
        * . . *
        . . . .
        * . . *
        """
    )
    game = Game.on(board, rules=Rules(FirstMove.NONE, after_mine=AfterMine.CONTINUE))
    game.flag(0)
    game.flag(3)
    game.flag(5)  # safe: earns nothing
    game.reveal(11)  # stepped on: earns nothing
    assert game.score == 2 / 4
    game.unflag(3)
    assert game.score == 1 / 4


def test_the_score_of_a_board_without_mines_is_one() -> None:
    assert Game.draw(2, 2, 0, rules=Rules.CS440, seed=1).score == 1.0


def test_a_game_is_won_when_the_last_safe_cell_is_revealed(corner_mine: Board) -> None:
    game = Game.on(corner_mine, rules=NO_HELP, seed=1)
    safe = [c for c in range(12) if c not in corner_mine.mines]
    for cell in safe[:-1]:
        game.reveal(cell)
        assert game.status is GameStatus.PLAYING
    game.reveal(safe[-1])
    assert (game.status, game.won, game.over, game.mines_hit) == (GameStatus.WON, True, True, ())
    assert game.record.events[-1] == Outcome(GameStatus.WON, (0, 11))


# -- the view and the player's actions ----------------------------------------------------


@pytest.mark.parametrize(("rules", "told"), [(Rules.CLASSIC, 2), (Rules.MINE_SHAFTED, None)])
def test_the_view_shows_the_total_only_when_the_rules_tell_it(
    corner_mine: Board, rules: Rules, told: int | None
) -> None:
    game = Game.on(corner_mine, rules=rules, seed=1)
    game.reveal(1)
    game.flag(11)
    view = game.view()
    assert view.mines == told
    assert view.flags == {11}
    assert view.grid[0][1] == 1 and view.grid[0][0] is None
    assert view.status is GameStatus.PLAYING


def test_revealing_a_revealed_cell_changes_nothing(corner_mine: Board) -> None:
    game = Game.on(corner_mine, rules=NO_HELP, seed=1)
    game.reveal(1)
    before = list(game.record.events)
    assert game.reveal(1, reason="again").revealed == ()
    assert game.record.events == before


def test_flags_come_and_go_and_are_recorded_once(corner_mine: Board) -> None:
    game = Game.on(corner_mine, rules=NO_HELP, seed=1)
    assert game.flag(0, reason="corner")
    assert not game.flag(0)
    assert game.flags == {0}
    assert game.unflag(0) and not game.unflag(0)
    kinds = [(e.kind, getattr(e, "reason", None)) for e in game.record.events]
    assert kinds == [("flag", "corner"), ("unflag", None)]


def test_a_guess_is_recorded_with_its_probability(corner_mine: Board) -> None:
    game = Game.on(corner_mine, rules=NO_HELP, seed=1)
    game.reveal(6, guess=True, probability=0.25, reason="least risk", detail={"front": 3})
    assert game.record.events == [
        Reveal(6, ((6, 1),), True, 0.25, reason="least risk", detail={"front": 3})
    ]


@pytest.mark.parametrize("cell", [-1, 12, 10**6, "3", True, None])
def test_a_cell_off_the_board_is_refused(corner_mine: Board, cell: object) -> None:
    game = Game.on(corner_mine, rules=Rules.CLASSIC, seed=1)
    for act in (game.reveal, game.flag, game.unflag, game.shown):
        with pytest.raises(IllegalMoveError, match=r"cell .* is off the board: cells are 0\.\.11"):
            act(cell)  # type: ignore[operator]


def test_revealing_a_flagged_cell_is_refused(corner_mine: Board) -> None:
    game = Game.on(corner_mine, rules=Rules.CLASSIC, seed=1)
    game.flag(6)
    with pytest.raises(IllegalMoveError, match=r"cell 6 \(row 1, column 2\): flagged") as e:
        game.reveal(6)
    assert e.value.cell == 6


def test_a_probability_outside_0_to_1_is_refused(corner_mine: Board) -> None:
    with pytest.raises(IllegalMoveError, match=r"probability of 1\.5 is not in 0\.\.1"):
        Game.on(corner_mine, rules=Rules.CLASSIC).reveal(5, guess=True, probability=1.5)


# -- seeds ------------------------------------------------------------------------------


def played(seed: int | None, rules: Rules = Rules.CLASSIC) -> Game:
    game = Game.draw(9, 9, 10, rules=rules, seed=seed)
    for cell in (40, 0, 80, 8, 72):
        if game.over:
            break
        if game.shown(cell) is None:
            game.reveal(cell)
    return game


@pytest.mark.parametrize(
    "rules", [Rules.CLASSIC, Rules.MINE_SHAFTED, Rules.CS440, Rules(FirstMove.OPENING)]
)
def test_the_same_seed_and_actions_give_the_same_game(rules: Rules) -> None:
    first, again = played(7, rules), played(7, rules)
    assert first.board == again.board
    assert first.record == again.record


@pytest.mark.parametrize("rules", [Rules.CLASSIC, Rules.MINE_SHAFTED])
def test_different_seeds_give_different_boards(rules: Rules) -> None:
    boards = [played(seed, rules).board for seed in range(6)]
    assert len({b.mines for b in boards if b is not None}) == 6


def test_a_game_without_a_seed_keeps_the_one_it_drew() -> None:
    game = played(None)
    assert isinstance(game.seed, int) and game.record.header.seed == game.seed
    assert played(game.seed).board == game.board


# -- invariants -----------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(board=boards(), rules=rules, plan=actions, seed=st.integers(0, 2**32))
def test_the_engine_keeps_its_invariants(
    board: Board, rules: Rules, plan: list[Action], seed: int
) -> None:
    game = Game.on(board, rules=rules, seed=seed)
    play(game, plan)
    truth = game.board
    assert truth is not None  # a fixed board
    assert truth.mine_total == board.mine_total
    shown = [v for row in game.view().grid for v in row]
    assert all(v is None or v == truth.values[c] for c, v in enumerate(shown))
    assert {c for c, v in enumerate(shown) if v == MINE} == set(game.mines_hit)
    assert game.flags.isdisjoint(c for c, v in enumerate(shown) if v is not None)
    all_safe_shown = all(v is not None for c, v in enumerate(shown) if c not in truth.mines)
    if game.record.header.first is not None:  # the end is judged at each reveal
        assert game.won == (all_safe_shown and not game.mines_hit)
        ends = all_safe_shown or (bool(game.mines_hit) and rules.after_mine is AfterMine.END)
        assert game.over == ends
    first = game.record.header.first
    if first is not None and rules.first_move is FirstMove.SAFE:
        assert first not in truth.mines
    if first is not None and rules.first_move is FirstMove.OPENING:
        assert truth.values[first] == 0
    reveals = [e for e in game.record.events if isinstance(e, Reveal)]
    for event in reveals:  # expansion never reveals a mine, and a reveal shows its own cell first
        assert event.revealed[0][0] == event.cell
        assert all(v != MINE for _, v in event.revealed[1:])
        if not rules.auto_expand:
            assert len(event.revealed) == 1
    if rules.auto_expand:
        zeros = [c for c, v in enumerate(shown) if v == 0]
        table = truth.geometry.neighbour_table()
        flagged = {e.cell for e in game.record.events if isinstance(e, Flag)}
        assert all(shown[n] is not None or n in flagged for c in zeros for n in table[c])
