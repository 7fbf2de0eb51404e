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
from mineshafted.game import (
    AfterMine,
    FirstMove,
    Flag,
    Game,
    GameStatus,
    MineHit,
    Reveal,
    Rules,
    View,
)
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


@pytest.mark.parametrize(
    "name",  # best's endgame search takes it over half a second: in the slow set
    [pytest.param(name, marks=pytest.mark.slow) if name == "best" else name for name in NAMES],
)
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
    from pathlib import Path

    from mineshafted import BoardManager, Sweep, read_puzzles
    from mineshafted.probability import Best, odds

    shipped = Path(__file__).resolve().parents[2] / "puzzles" / "needs-guess"
    for path in sorted(shipped.glob("*.json")):
        (puzzle,) = read_puzzles(path)
        board = puzzle.board
        sweep = Sweep(BoardManager(board), start=puzzle.start, mines=board.mine_total)
        report = sweep.run()
        assert not report.solved
        position = sweep.position()
        want = Best().choose(position, odds(position, board.mine_total), report.board, rng(1))
        game = Game.on(board, rules=Rules.CLASSIC)
        game.reveal(puzzle.start)
        agent("best").play(game, rng(1))
        first = next(e for e in game.record.events if isinstance(e, Reveal) and e.guess)
        assert first.cell == want, path.name


def rng(seed: int) -> random.Random:
    return random.Random(seed)


# The games the csp and best agents played on three CS440 boards of a density study (side 12,
# 58 mines, seed 4, density 0.4) before their loop became classic play's: score, first guesses,
# number of guesses.
BEFORE = {
    ("csp", 0): (0.689655, [108, 127, 92, 103, 62, 72], 43),
    ("csp", 1): (0.775862, [28, 104, 118, 82, 79, 127], 38),
    ("csp", 2): (0.706897, [91, 38, 40, 15, 61, 84], 40),
    ("best", 0): (0.793103, [0, 24, 36, 48, 50, 27], 29),
    ("best", 1): (0.793103, [2, 24, 11, 143, 142, 132], 36),
    ("best", 2): (0.87931, [11, 10, 8, 7, 44, 59], 28),
}


LONG_GAMES = {("best", 0), ("best", 1)}
"""Games whose endgame search takes over half a second: in the slow set."""


@pytest.mark.parametrize(
    ("name", "run"),
    [
        pytest.param(*key, marks=pytest.mark.slow) if key in LONG_GAMES else key
        for key in sorted(BEFORE)
    ],
)
def test_the_csp_and_best_agents_play_the_games_they_played_before(name: str, run: int) -> None:
    from mineshafted.studies import PairedBoard

    game = PairedBoard(12, 12, 58, Rules.CS440, 4, "0.4", run).game(name)
    guesses = [e.cell for e in game.record.events if isinstance(e, Reveal) and e.guess]
    assert (round(game.score, 6), guesses[:6], len(guesses)) == BEFORE[name, run]


@pytest.mark.parametrize(("name", "policy"), [("csp", "RandomGuess"), ("best", "Best")])
def test_the_sweeping_agents_play_through_the_one_game_loop(
    name: str, policy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mineshafted.agents.deduction as deduction

    calls: list[tuple[str, bool]] = []
    loop = deduction.play_out

    def watched(game: Game, chooser: object, *args: object, **options: bool) -> object:
        calls.append((type(chooser).__name__, options["flag"]))
        return loop(game, chooser, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(deduction, "play_out", watched)
    game = Game.draw(9, 9, 10, rules=Rules.CLASSIC, seed=1)
    game.reveal(40)
    agent(name).play(game, rng(1))
    assert game.over and calls == [(policy, True)]


def test_the_random_guess_of_the_csp_agent_costs_no_count(monkeypatch: pytest.MonkeyPatch) -> None:
    import mineshafted.probability.loop as play

    def refused(*args: object) -> None:
        raise AssertionError("the odds were counted")

    monkeypatch.setattr(play, "odds", refused)
    game = Game.draw(12, 12, 58, rules=Rules.CS440, seed=3)
    game.reveal(0)
    agent("csp").play(game, rng(3))
    assert game.over and any(isinstance(e, Reveal) and e.guess for e in game.record.events)
    dense = Game.draw(12, 12, 58, rules=Rules.CS440, seed=3)
    dense.reveal(0)
    with pytest.raises(AssertionError, match="counted"):
        agent("best").play(dense, rng(3))


def test_without_the_total_the_best_agent_guesses_as_the_csp_agent_does() -> None:
    hidden = Rules(FirstMove.SAFE, auto_expand=True, after_mine=AfterMine.END, total_known=False)
    for seed in range(6):
        played = []
        for name in ("csp", "best"):
            game = Game.draw(9, 9, 12, rules=hidden, seed=seed)
            game.reveal(0)
            agent(name).play(game, rng(seed))
            played.append(game.record.events)
        assert played[0] == played[1]


@pytest.mark.parametrize("name", NAMES)
def test_a_revealed_mine_counts_toward_the_clues_beside_it(name: str) -> None:
    # "* 1 ?": the mine stepped on at 0 is the 1's mine, so cell 2 is safe.
    view = View(view_of("*1?"), frozenset(), None, GameStatus.PLAYING)
    assert agent(name).infer(view).safe == {2}
