"""Schema: the JSON of every request and answer of the API, as the OpenAPI document shows it.

The request models (:mod:`.requests`, re-exported here) are the checks: FastAPI validates
each body by its model, and a refusal names the field the way the command line does
(:func:`.refusals.validation_error` turns Pydantic's errors into one line). A position
(``board`` and ``mines``) is the one body read by the command's own reader instead
(:func:`mineshafted.probability.parse_position`, in a worker: it may be a million cells), so
the API takes exactly the files ``mineshafted probabilities`` takes and says what is wrong
in the same words; its model documents it. The tests validate real answers against the
answer models (every model forbids fields it does not list), so the document cannot drift
from what the server says. Needs the ``web`` extra (pydantic comes with FastAPI).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .requests import (
    CellIn,
    ExplainIn,
    GameIn,
    Grid,
    LoadIn,
    Model,
    Pair,
    PositionIn,
    StepIn,
    TakeOverIn,
    WatchIn,
    check_board,
    check_cell,
    techniques,
)

__all__ = [
    "AnalysisOut",
    "CellIn",
    "ConfigOut",
    "ErrorOut",
    "ExplainIn",
    "ExplanationOut",
    "GameIn",
    "GameOut",
    "HintOut",
    "LoadIn",
    "LoadOut",
    "MoveOut",
    "PositionIn",
    "ReviewOut",
    "StepIn",
    "StepOut",
    "StepsOut",
    "SurveyOut",
    "TakeOverIn",
    "WatchIn",
    "WatchOut",
    "check_board",
    "check_cell",
    "techniques",
]


class ErrorOut(Model):
    """Any refusal: 400 not JSON, 404 no such game, 409 not now, 413 too large (a body, or a
    position to count), 415 not JSON's content type, 422 malformed (or, to explain, a cell the
    position does not decide), 503 past the compute budget or busy."""

    error: str = Field(description="One line saying what is wrong and where.")


class AnalysisOut(Model):
    """A position's exact odds, decided cells and best move."""

    probabilities: list[list[float | None]] = Field(
        description="As `mineshafted probabilities --json`: each unknown cell's exact chance "
        "of a mine, 1.0 for a known mine, null for a clue."
    )
    mines_left: int = Field(description="The total less the known mines.")
    placements: str = Field(
        description="How many placements of the mines left agree with every clue, in full "
        "(or in scientific form past 4300 digits)."
    )
    safe: list[Pair] = Field(description="Unknown cells with no mine in any placement.")
    mines: list[Pair] = Field(description="Unknown cells with a mine in every placement.")
    best: Pair | None = Field(
        description="A safe cell if there is one, else the best policy's guess; null when "
        "only mines are left."
    )
    best_probability: float | None = Field(description="The best move's chance of a mine.")
    best_by: Literal["safe", "policy", "safest"] | None = Field(
        None,
        description="How the best move was chosen: a safe cell; the best policy's guess (up "
        "to 40,000 unknown cells); or, above that, the safest cell.",
    )


class ExplanationOut(Model):
    """Why a position decides a cell."""

    cell: Pair
    value: Literal["safe", "mine"]
    clues: list[Pair] = Field(
        description="The revealed clues the sentence names (the page rings them), nearest "
        "first: their constraints alone force the cell, none of them superfluous (with the "
        "total only when uses_total; a total argument that would need more than 8 clues "
        "names only those of the cell's own group, or none, and speaks of the border as a "
        "whole)."
    )
    uses_total: bool = Field(description="Whether the mine total is needed too.")
    technique: Literal["count", "subset", "ac3", "complete", "total"] = Field(
        description="The first rung of the ladder whose reasoning decides the cell from the "
        "position (the weakest that does)."
    )
    text: str = Field(
        description="The verdict and the argument in one paragraph, cells as 'row R, "
        "column C' counted from 1: 'Row 1, column 3 is safe. The 1 at row 2, column 1 needs "
        "1 mine among row 1, columns 1 and 2. ...'"
    )
    steps: list[str] = Field(
        description="The argument after the verdict, one step a line: each reads one clue "
        "(or a bound a line above found) and says what follows.",
    )
    cells: list[Pair] = Field(
        default_factory=list,
        description="The unknown cells the steps name besides the cell, in order (the page "
        "marks them, with the cell and the clues, while it shows the explanation).",
    )


class LoadOut(Model):
    """The position a text holds."""

    kind: Literal["text", "position", "puzzle", "record"]
    board: Grid
    mines: int
    name: str | None


class SettingsOut(Model):
    """A live game's settings."""

    rows: int
    cols: int
    mines: int
    seed: int | None = Field(
        description="The seed that draws the board: null while the game is on (it would "
        "show the board), the number once it is over."
    )
    first: Literal["safe", "opening"]
    board: Literal["random", "no-guess"]
    technique: str | None


class _Counters(Model):
    status: Literal["playing", "won", "lost"]
    flags: int
    mines_left: int = Field(description="The total less the flags (0 once won).")
    actions: int = Field(0, description="Reveals, flags and chords the server took.")
    bbbv: int | None = Field(
        None,
        description="Once over: the board's 3BV, the fewest reveals that clear it (its "
        "openings, and its clues beside no opening).",
    )
    efficiency: float | None = Field(None, description="Once won: 3BV over actions.")
    seconds: float = Field(description="Since the first reveal.")
    mines: list[Pair] | None = Field(None, description="Every mine, once the game is over.")
    wrong_flags: list[Pair] | None = Field(None, description="Flags on safe cells, once over.")
    hit: list[Pair] | None = Field(None, description="The mine revealed, once lost.")
    seed: int | None = Field(None, description="The board's seed, once the game is over.")
    rating: str | None = Field(
        None,
        description="A no-guess board's rating (the weakest technique that solves it), once "
        "it is made.",
    )


class GameOut(_Counters):
    """What the page shows of a live game."""

    id: str = Field(description="The game's id, for its endpoints.")
    settings: SettingsOut
    board: Grid = Field(description="Clues as revealed, -1 a revealed mine, null hidden.")
    flagged: list[Pair] = Field(description="The flagged cells.")
    origin: Literal["play", "watch"] = Field(
        "play",
        description="A game of Play, or one taken over from a watched game (whose board "
        "the watcher may have seen: not a secret).",
    )


class MoveOut(_Counters):
    """What an action changed."""

    revealed: list[list[int]] = Field(description="[row, column, value] of each cell revealed.")
    flagged: list[Pair] = Field(description="Every flagged cell after the action.")
    note: str | None = Field(None, description="Why a chord changed nothing.")


class HintOut(Model):
    """The cell to reveal next."""

    cell: Pair
    safe: bool
    probability: float
    text: str
    explanation: ExplanationOut | None


class ConfigOut(Model):
    """What the server offers."""

    players: list[str]
    techniques: list[str] = Field(description="The ratings a no-guess board can be made for.")
    levels: dict[str, list[int]] = Field(description="Name -> [rows, columns, mines].")
    limits: dict[str, int | float]


class WatchOut(Model):
    """A watched game, ready to step through."""

    id: str
    rows: int
    cols: int
    mines: int
    player: str
    note: str
    total: int = Field(description="How many steps the game has.")
    step: int = Field(description="How many have been taken.")


class StepOut(Model):
    """One step of a watched game."""

    kind: Literal["reveal", "flag", "unflag"]
    cell: Pair
    revealed: list[list[int]]
    reason: str | None
    text: str
    guess: bool
    probability: float | None
    odds: list[list[float]] | None = Field(
        description="[row, column, probability] of every unknown cell, at a guess of the "
        "best policy."
    )
    hit: bool
    status: Literal["playing", "won", "lost"]
    mines: list[Pair] | None = None


class StepsOut(Model):
    """The next steps of a watched game."""

    steps: list[StepOut]
    step: int
    total: int
    done: bool
    status: Literal["playing", "won", "lost"]
    guesses: int | None = Field(None, description="Once done: how many guesses were made.")


class KnownCell(Model):
    """What the policy knows of one unknown cell at a stall."""

    cell: Pair
    mine: float = Field(description="Its exact chance of a mine.")
    secondary: float = Field(
        description="Secondary safety: the chance it is safe, times how safe the best next "
        "guess is then (the best policy ranks its candidates by it)."
    )
    progress: float = Field(
        description="The chance it is safe and its clue decides at least one other cell."
    )
    dead: bool = Field(description="It can show only one clue: revealing it tells nothing.")


class EndgameOut(Model):
    """The endgame search's answer: best play, exactly."""

    cell: Pair = Field(description="The reveal that wins most often.")
    wins: int = Field(description="Placements best play wins.")
    placements: int
    chance: float = Field(description="wins / placements: the exact chance of a win.")


class SurveyOut(Model):
    """What the best policy knows at a position: each cell's outlook, the fifty-fifties, and
    the endgame's exact chance of a win."""

    stall: bool = Field(description="No unknown cell is certainly safe.")
    cells: list[KnownCell] = Field(description="Every unknown cell not decided, at a stall.")
    fifties: list[list[Pair]] = Field(
        description="Pairs of cells holding one mine between them that no cell can ever tell "
        "apart: a guess at even odds, some time."
    )
    endgame: EndgameOut | None = Field(
        description="When few placements are left and the exact search finishes."
    )
    best: Pair | None = Field(description="The best policy's choice.")


class ReviewMove(Model):
    """One move of a finished game, judged from what the player could see then."""

    kind: Literal["reveal", "flag", "unflag"]
    cell: Pair
    revealed: list[list[int]]
    verdict: Literal["first", "certain", "best", "guess", "avoidable", "flag", "wrong flag"] = (
        Field(
            description="first (safe by the rules); certain (no placement had a mine there); "
            "best (a guess when no cell was safe, as safe as the safest cell); guess (riskier "
            "than the safest, with no safe cell); avoidable (a guess while a cell was "
            "certainly safe); flag or wrong flag."
        )
    )
    probability: float | None = Field(description="Its chance of a mine then (a reveal).")
    safest: float | None = Field(description="The lowest chance of a mine anywhere then.")
    safe: int = Field(description="How many cells were certainly safe then.")
    text: str


class ReviewOut(Model):
    """A finished game, move by move."""

    moves: list[ReviewMove]
    guesses: list[float] = Field(description="The chance of a mine at each guess taken.")
    mines: int
