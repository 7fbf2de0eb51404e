"""Watching: a board played to its end by an agent, the ``best`` policy or S4 rules, as steps.

The whole game is played at once (in a worker, under the compute budget) and kept as a list
of steps; the page asks for them one at a time, so it shows the game as it goes, each step
with the reasons the replay page shows.

Glossary
--------
player
    Who plays: a registered agent by name (:func:`mineshafted.agents.agent_names`),
    :data:`POLICY` (the sweep with the mine total, and the ``best`` guessing policy at each
    stall, every reveal with the stage that proved it), or :data:`RULES` (an S4 rule file).
step
    One action (a reveal, a flag, an unflag) with what followed from it: the cells it
    revealed, why, a guess's mine probability and the odds of every unknown cell then (the
    ``best`` policy's guesses), a mine hit, the end.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Final

from ..agents import agent, agent_names
from ..board import MINE, Board, Cell
from ..game import (
    AfterMine,
    FirstMove,
    Game,
    GameRecord,
    MineHit,
    Outcome,
    Reveal,
    Rules,
)
from ..generate import generate
from ..probability import Best
from ..probability.loop import play_out
from ..rules import parse_rules, play
from ..text import visible
from .errors import RequestError

__all__ = ["POLICY", "REASONS", "RULES", "Watch", "Watched", "players", "steps_of", "watch"]

POLICY: Final = "policy:best"
"""The player that is classic play's sweep and ``best`` policy, with its reasons."""

RULES: Final = "rules"
"""The player that is an uploaded S4 rule file."""

REASONS: Final = {
    "start": "the start cell, safe by the rules",
    "count": "counting: one clue's count decides it",
    "subset": "subset: a difference of two clues' constraints decides it",
    "ac3": "AC-3: arc consistency over the clue variables",
    "complete": "component search: one value in every consistent placement",
    "total": "the mine total: the same in every placement of the remaining mines",
    "best guess": "a guess by the best policy",
    "guess": "a guess",
    "first move": "the first move, a guess",
    "inferred safe": "the agent's knowledge proves it safe",
    "inferred mine": "the agent's knowledge proves it a mine",
    "random guess": "a guess at random",
    "knowledge guess": "a guess among the cells the agent's knowledge mentions",
    "free guess": "no rule applies: a free guess (the interpreter reveals a safe square)",
}
"""What each reason a record may hold means; a reason not here is an S4 rule's name."""


@dataclass(frozen=True)
class Watch:
    """A board and a player to watch play it."""

    rows: int
    cols: int
    mines: int
    player: str
    seed: int
    """Draws the board (and the no-guess generator's perturbations) and the player's chance."""
    first: FirstMove = FirstMove.SAFE
    start: Cell = 0
    """The first cell revealed (an S4 rule file makes its own first move)."""
    no_guess: bool = False
    layout: tuple[Cell, ...] | None = None
    """The mines of a given board (a finished live game's); drawn from the seed when
    ``None``."""
    rules: str | None = None
    """The S4 rule file's text, for :data:`RULES`."""
    seconds: float = 5.0
    """The time the generator and the rule interpreter may take."""
    generator: dict[str, Any] = field(default_factory=dict)
    """More keyword arguments for the no-guess generator (a technique)."""


@dataclass
class Watched:
    """A watched game kept by the server: its steps, how many the page has been sent, and
    its board (for a take-over; never sent)."""

    rows: int
    cols: int
    mines: int
    player: str
    note: str
    steps: list[dict[str, Any]]
    status: str
    guesses: int
    layout: tuple[Cell, ...] = ()
    """The board's mines."""
    taken: int = 0

    def meta(self, key: str) -> dict[str, Any]:
        """What the page is told of the watched game."""
        return {
            "id": key,
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "player": self.player,
            "note": self.note,
            "total": len(self.steps),
            "step": self.taken,
        }


def players() -> list[str]:
    """Every player there is: :data:`POLICY`, the registered agents, :data:`RULES`.

    Examples
    --------
    >>> players()[0], players()[-1], "kb" in players()
    ('policy:best', 'rules', True)
    """
    return [POLICY, *agent_names(), RULES]


def watch(spec: Watch) -> dict[str, Any]:
    """Play ``spec``'s board with its player to the end; the game as steps.

    Returns
    -------
    dict
        ``steps`` (see :func:`steps_of`), ``status`` (``won``, ``lost`` or ``playing`` when
        the rules ran out of time), ``guesses`` and ``note`` (how the game was played).

    Raises
    ------
    RequestError
        422: no such player, or rules that do not parse (the message names the line).

    Examples
    --------
    >>> played = watch(Watch(9, 9, 10, "policy:best", seed=2))
    >>> played["status"], played["steps"][0]["reason"], played["steps"][0]["cell"]
    ('won', 'start', [0, 0])
    """
    if spec.player not in players():
        raise RequestError(422, f"player: {spec.player!r} is not one of {', '.join(players())}")
    rng = random.Random(f"watch:{spec.seed}")
    if spec.player == RULES:
        return _rules(spec)
    game, rated = _game(spec)
    if spec.player == POLICY:
        guesses = _play_best(game, spec.start, rng)
        note = "the sweep with the mine total; the best policy at each stall"
    else:
        first = game.reveal(spec.start, reason="start")
        if not game.over and not first.hit:
            agent(spec.player).play(game, rng)
        guesses = sum(1 for e in game.record.events if isinstance(e, Reveal) and e.guess)
        note = f"the {spec.player} agent"
    assert game.board is not None
    return {
        "steps": steps_of(game.record),
        "status": game.status.value,
        "guesses": guesses,
        "note": note + rated,
        "layout": sorted(game.board.mines),
    }


def steps_of(record: GameRecord) -> list[dict[str, Any]]:
    """A record's actions as steps, JSON-ready, cells as ``[row, column]``.

    Each step: ``kind`` (``reveal``, ``flag``, ``unflag``), ``cell``, ``revealed``
    (``[row, column, value]`` each, ``-1`` a mine), ``reason`` and ``text`` (what it did and
    why), ``guess``, ``probability``, ``odds`` (``[row, column, probability]`` of every
    unknown cell, at a guess that recorded them), ``hit``, ``status`` after it, and at the
    end ``mines`` (every mine of the board). A reason is an S4 rule's name when the rules
    played: from outside, so its control characters are written as escapes.

    Examples
    --------
    >>> game = Game.on(Board.from_grid([[0, 1, -1]]), rules=Rules.MINE_SHAFTED)
    >>> _ = game.reveal(0, reason="start"), game.flag(2, reason="count")
    >>> _ = game.reveal(1, reason="count")
    >>> for step in steps_of(game.record):
    ...     print(step["text"])
    Revealed row 1, column 1: clue 0. Why: start, the start cell, safe by the rules.
    Flagged row 1, column 3. Why: count, counting: one clue's count decides it.
    Revealed row 1, column 2: clue 1. Why: count, counting: one clue's count decides it. The \
game is won.
    """
    cols = record.header.cols
    steps: list[dict[str, Any]] = []
    for event in record.events:
        if isinstance(event, MineHit):
            steps[-1]["hit"] = True
            continue
        if isinstance(event, Outcome):
            if steps:
                steps[-1]["status"] = event.status.value
                steps[-1]["mines"] = [list(divmod(c, cols)) for c in event.mines]
            continue
        step: dict[str, Any] = {
            "kind": event.kind,
            "cell": list(divmod(event.cell, cols)),
            "revealed": [],
            "reason": None if event.reason is None else visible(event.reason),
            "guess": False,
            "probability": None,
            "odds": None,
            "hit": False,
            "status": "playing",
        }
        if isinstance(event, Reveal):
            step["revealed"] = [[c // cols, c % cols, v] for c, v in event.revealed]
            step["guess"] = event.guess
            step["probability"] = event.probability
            chances = (event.detail or {}).get("odds")
            if isinstance(chances, dict):
                step["odds"] = [
                    [int(c) // cols, int(c) % cols, p]
                    for c, p in sorted(chances.items(), key=lambda item: int(item[0]))
                ]
        steps.append(step)
    for step in steps:
        step["text"] = _text(step)
    return steps


# -- helpers ------------------------------------------------------------------------------


def _game(spec: Watch) -> tuple[Game, str]:
    """The game to watch: a given board, a no-guess board, or one drawn from the seed; and,
    for a no-guess board, its rating, to add to the note."""
    rules = Rules(spec.first, auto_expand=True, after_mine=AfterMine.END, total_known=True)
    fixed = Rules(FirstMove.NONE, auto_expand=True, after_mine=AfterMine.END, total_known=True)
    if spec.layout is not None:
        return Game.on(Board.from_mines(spec.rows, spec.cols, spec.layout), rules=fixed), ""
    if spec.no_guess:
        made = generate(
            spec.rows,
            spec.cols,
            spec.mines,
            seed=spec.seed,
            start=spec.start,
            timeout=spec.seconds,
            **spec.generator,
        )
        rated = f" (a no-guess board rated {made.technique.value})"
        return Game.on(made.board, rules=fixed), rated
    game = Game.draw(spec.rows, spec.cols, spec.mines, rules=rules, seed=spec.seed)
    return game, ""


def _rules(spec: Watch) -> dict[str, Any]:
    """An S4 rule file plays the board from nothing revealed."""
    if not spec.rules:
        raise RequestError(422, "rules: missing: the S4 rule file's text")
    ruleset = parse_rules(spec.rules, origin="rules")
    game, rated = _game(spec)
    if game.board is None:  # drawn at the first move: make it now, as Play would
        game.reveal(spec.start)
    assert game.board is not None
    result = play(ruleset, game.board, seed=spec.seed, time_limit=spec.seconds * 0.8)
    assert result.record is not None
    status = "playing" if result.finish.value == "timeout" else result.finish.value
    return {
        "steps": steps_of(result.record),
        "status": status,
        "guesses": result.guesses,
        "note": f"S4 rules ({len(ruleset.rules)} rule(s)){rated}: {result.finish.value}, "
        f"score {result.score:g}",
        "layout": sorted(game.board.mines),
    }


def _play_best(game: Game, start: Cell, rng: random.Random) -> int:
    """Classic play's sweep and ``best`` policy through the package's one game loop, each
    reveal with its reason: the stage that proved the cell, or the guess with its probability
    and the odds of every unknown cell. Returns the number of guesses."""
    guesses = play_out(
        game, Best(), rng, start=start, reason="best guess", record_odds=True, stages=True
    )
    return len(guesses)


def _text(step: dict[str, Any]) -> str:
    """What a step did and why, in the replay page's words."""
    row, col = step["cell"]
    parts = []
    if step["kind"] == "reveal":
        value = step["revealed"][0][2]
        said = "a mine" if value == MINE else f"clue {value}"
        text = f"Revealed row {row + 1}, column {col + 1}: {said}"
        more = len(step["revealed"]) - 1
        if more:
            text += f", and {more} more cell(s) around the zero"
        parts.append(text + ".")
        if step["guess"]:
            p = step["probability"]
            parts.append("A guess" + ("" if p is None else f", mine probability {p:.1%}") + ".")
    else:
        did = "Flagged" if step["kind"] == "flag" else "Took the flag off"
        parts.append(f"{did} row {row + 1}, column {col + 1}.")
    reason = step["reason"]
    if reason is not None:
        meaning = REASONS.get(reason)
        parts.append(f"Why: {reason}, {meaning}." if meaning else f"Why: the rule {reason}.")
    if step["hit"]:
        parts.append("A mine was hit.")
    if step["status"] != "playing":
        parts.append(f"The game is {step['status']}.")
    return " ".join(parts)
