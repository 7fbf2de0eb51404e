"""Every agent: the registry, sound inference in play, the inclusion chain, guessing, continuing."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mineshafted.agents import (
    AGENTS,
    Agent,
    BasicV2Agent,
    ClueEquations,
    UnknownAgentError,
    agent,
    agent_names,
)
from mineshafted.board import MINE, Board, Geometry
from mineshafted.game import Flag, Game, GameStatus, MineHit, Reveal, Rules, View
from mineshafted.solver import Sweep, decided_by_total, tally

from ..conftest import view_of

NAMES = ["kb", "kb-merge", "basic", "improved", "basic-v2", "improved-v2", "csp", "best"]


@st.composite
def games(draw: st.DrawFn, rules: Rules) -> Game:
    """A random game under ``rules`` with its first cell revealed."""
    rows, cols = draw(st.integers(2, 8)), draw(st.integers(2, 8))
    mines = draw(st.integers(0, rows * cols - 1))
    game = Game.draw(rows, cols, mines, rules=rules, seed=draw(st.integers(0, 2**32)))
    game.reveal(draw(st.integers(0, rows * cols - 1)))
    return game


def test_the_registry_names_every_agent_once() -> None:
    assert agent_names() == NAMES
    for name in NAMES:
        made = agent(name)
        assert isinstance(made, Agent) and made.name == name
    assert {cls.name for cls in AGENTS.values()} == set(NAMES)


def test_an_unknown_agent_is_refused_by_name() -> None:
    with pytest.raises(UnknownAgentError, match="'oracle'") as caught:
        agent("oracle")
    assert caught.value.name == "oracle"


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("rules", [Rules.CLASSIC, Rules.CS440], ids=["classic", "cs440"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_inference_is_sound_only_guesses_hit_mines(
    name: str, rules: Rules, data: st.DataObject
) -> None:
    game = data.draw(games(rules))
    agent(name).play(game, random.Random(data.draw(st.integers(0, 99))))
    assert game.over
    assert game.board is not None
    mines = game.board.mines
    events = game.record.events
    for before, event in itertools.pairwise(events):
        if isinstance(event, MineHit):
            assert isinstance(before, Reveal) and before.guess, (
                f"{name} inferred mine {event.cell} safe"
            )
    flags = {e.cell for e in events if isinstance(e, Flag)}
    assert flags <= mines, f"{name} flagged safe cell(s) {sorted(flags - mines)}"


@settings(max_examples=60, deadline=None)
@given(game=games(Rules.CS440), reveals=st.lists(st.integers(0, 63), max_size=12))
def test_inference_grows_along_the_chains_and_is_true(game: Game, reveals: list[int]) -> None:
    # basic <= improved <= csp and kb <= kb-merge <= csp, on the same positions.
    for cell in reveals:
        if not game.over and cell < game.geometry.cells and game.shown(cell) is None:
            game.reveal(cell, guess=True)
    view = game.view()
    assert game.board is not None
    mines = game.board.mines
    found = {name: agent(name).infer(view) for name in NAMES}
    for name, inference in found.items():
        assert inference.mines <= mines, name
        assert not inference.safe & mines, name
    for chain in (["basic", "improved", "csp"], ["kb", "kb-merge", "csp"]):
        for smaller, larger in itertools.pairwise(chain):
            assert found[smaller].safe <= found[larger].safe, (smaller, larger)
            assert found[smaller].mines <= found[larger].mines, (smaller, larger)
    assert found["kb"] == found["basic"]  # the same rules, written two ways


def test_improved_and_merge_see_what_basic_and_kb_miss() -> None:
    # A 3x3 board with mines at 0 and 2: the bottom two rows revealed, the top row hidden.
    game = Game.on(Board.from_grid([[MINE, 2, MINE], [1, 2, 1], [0, 0, 0]]), rules=Rules.CS440)
    game.reveal(8)
    view = game.view()
    assert agent("basic").infer(view).mines == agent("kb").infer(view).mines == frozenset()
    for name in ("improved", "kb-merge", "csp"):
        assert agent(name).infer(view).mines == {0, 2}, name
        assert agent(name).infer(view).safe == {1}, name


def test_v2_guesses_a_cell_its_knowledge_mentions() -> None:
    eq = ClueEquations(neighbours=Geometry(2, 3).neighbour_table())
    for cell, value in ((3, 1), (4, 2), (5, 1)):
        eq.learn_clue(cell, value)
    eq.infer()
    hidden = {0, 1, 2}
    picks = {BasicV2Agent().guess(eq, hidden | {9}, random.Random(s)) for s in range(30)}
    assert picks == {0, 1, 2}
    empty = ClueEquations(neighbours=Geometry(2, 3).neighbour_table())
    assert BasicV2Agent().guess(empty, {5}, random.Random(0)) == 5


@pytest.mark.parametrize("name", ["basic", "improved-v2", "csp"])
def test_under_cs440_play_goes_on_after_a_mine_to_the_last_safe_cell(name: str) -> None:
    for seed in range(20):
        game = Game.draw(8, 8, 24, rules=Rules.CS440, seed=seed)
        game.reveal(27)
        agent(name).play(game, random.Random(seed))
        if game.mines_hit:
            break
    else:
        pytest.fail("no game hit a mine")
    assert game.over and not game.won
    assert all(game.shown(c) is not None for c in range(64) if c not in game.board.mines)
    assert 0 < game.score < 1


def test_an_agent_makes_the_first_move_when_nothing_is_revealed() -> None:
    for name in NAMES:
        game = Game.draw(6, 6, 4, rules=Rules.CLASSIC, seed=3)
        agent(name).play(game, random.Random(3))
        assert game.over, name


@settings(max_examples=80, deadline=None)
@given(game=games(Rules.CLASSIC), picks=st.lists(st.integers(0, 63), max_size=6))
def test_the_sweeps_total_stage_decides_what_tally_decides_at_each_stall(
    game: Game, picks: list[int]
) -> None:
    assert game.board is not None
    first = game.record.header.first
    assert first is not None
    sweep = Sweep(game.manager(), start=first)
    report = sweep.run()
    for pick in picks:
        if report.solved or game.over:
            break
        position = sweep.position()
        want = tally(position, game.mines).certain()
        assert decided_by_total(position, game.mines) == want
        safe = [c for c in report.undetermined if c not in game.board.mines]
        if not safe:
            break
        sweep.guess(safe[pick % len(safe)])  # the test peeks at the board to pick a safe guess
        report = sweep.advance()


def test_the_best_agent_guesses_with_classic_plays_best_policy() -> None:
    import random
    from pathlib import Path

    from mineshafted import BoardManager, Sweep, read_puzzles
    from mineshafted.agents.deduction import BestAgent, best_policy
    from mineshafted.probability import odds

    assert BestAgent().policy() is best_policy
    shipped = Path(__file__).resolve().parents[2] / "puzzles" / "needs-guess"
    for path in sorted(shipped.glob("*.json")):
        (puzzle,) = read_puzzles(path)
        board = puzzle.board
        sweep = Sweep(BoardManager(board), start=puzzle.start)
        assert not sweep.run().solved
        chances = odds(sweep.position(), board.mine_count)
        cell = best_policy(sweep, board.mine_count, random.Random(0))
        # best keeps to the cells within its tolerance (0.05) of the lowest probability
        assert chances.probability(cell) <= min(chances.fractions().values()) + 0.05


@pytest.mark.parametrize("name", NAMES)
def test_a_revealed_mine_counts_toward_the_clues_beside_it(name: str) -> None:
    # "* 1 ?": the mine stepped on at 0 is the 1's mine, so cell 2 is safe.
    view = View(view_of("*1?"), frozenset(), None, GameStatus.PLAYING)
    assert agent(name).infer(view).safe == {2}
