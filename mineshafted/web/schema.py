"""Schema: the JSON of every request and answer of the API, as the OpenAPI document shows it.

These models document the API (``GET /openapi.json``, ``GET /api``); the server reads
request bodies with its own checks (:mod:`.bodies`), which name each problem's place the way
the command line does, and the tests validate real answers against these models (every model
forbids fields it does not list), so the document cannot drift from what the server says.
Needs the ``web`` extra (pydantic comes with FastAPI).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

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
    "StepIn",
    "StepOut",
    "StepsOut",
    "WatchIn",
    "WatchOut",
]

Grid = list[list[int | None]]
Pair = list[int]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PositionIn(_Model):
    """A position, as ``mineshafted probabilities`` reads it."""

    board: Grid = Field(
        description="Rows of cells: an int 0-8 is a revealed clue, -1 a known mine, null an "
        "unknown cell. At most 1,000,000 cells.",
        examples=[[[0, 1, None], [0, 1, None]]],
    )
    mines: int = Field(description="The board's mine total, known mines included.", ge=0)


class ExplainIn(PositionIn):
    """A position and the cell to explain."""

    cell: Pair = Field(description="[row, column] of an unknown cell the position decides.")


class LoadIn(_Model):
    """A text pasted or read from a file by the page."""

    text: str = Field(
        description="A position file, a puzzle file, a game record (JSON Lines), or a text "
        "grid: one row a line, digits for clues, '.' for 0, '?' unknown, '*' or 'F' a known "
        "mine."
    )
    mines: int | None = Field(
        None, description="The mine total for a text grid (which carries none)."
    )


class GameIn(_Model):
    """A new live game."""

    rows: int = Field(description="1 to 1,000; rows x columns at most 40,000.")
    cols: int = Field(description="1 to 1,000.")
    mines: int = Field(description="0 up to what fits beside the first move.")
    first: Literal["safe", "opening"] = Field(
        "safe", description="The first click is never a mine (safe) or always a 0 (opening)."
    )
    board: Literal["random", "no-guess"] = Field(
        "random",
        description="A random board, or one made at the first click that logic alone "
        "finishes from there.",
    )
    seed: int | None = Field(
        None,
        description="0 to 2**53 - 1: the same seed and first click make the same board. "
        "Random when null.",
    )
    technique: str | None = Field(
        None,
        description="For a no-guess board: its rating, the weakest technique that solves it "
        "(count, subset, ac3, complete or total; see GET /api/config). Any board the "
        "complete deduction solves when null.",
    )


class CellIn(_Model):
    """A cell of a live game."""

    cell: Pair = Field(description="[row, column].")


class WatchIn(_Model):
    """A board and a player to watch."""

    player: str = Field(
        description="'policy:best', a registered agent's name, or 'rules' (see GET /api/config)."
    )
    rules: str | None = Field(None, description="The S4 rule file's text, for 'rules'.")
    game: str | None = Field(
        None, description="The id of a finished live game: its board and first click."
    )
    rows: int | None = Field(None, description="The board, when no game is given.")
    cols: int | None = None
    mines: int | None = None
    seed: int | None = None
    first: Literal["safe", "opening"] = "safe"
    board: Literal["random", "no-guess"] = "random"
    technique: str | None = None
    start: Pair | None = Field(None, description="The first click, [row, column]; [0, 0].")


class StepIn(_Model):
    """How many steps to take."""

    count: int = Field(1, description="1 to 1,000.")


class ErrorOut(_Model):
    """Any refusal: 400 not JSON, 404 no such game, 409 not now, 413 too large, 415 not
    JSON's content type, 422 malformed or undecided, 503 past the compute budget or busy."""

    error: str = Field(description="One line saying what is wrong and where.")


class AnalysisOut(_Model):
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


class ExplanationOut(_Model):
    """Why a position decides a cell."""

    cell: Pair
    value: Literal["safe", "mine"]
    clues: list[Pair] = Field(
        description="Revealed clues whose constraints alone (with the total only when "
        "uses_total) force the cell, none of them superfluous; nearest first."
    )
    uses_total: bool = Field(description="Whether the mine total is needed too.")
    technique: Literal["count", "subset", "ac3", "complete", "total"] = Field(
        description="The weakest technique whose reasoning decides the cell from the position."
    )
    text: str = Field(description="The explanation in a sentence.")


class LoadOut(_Model):
    """The position a text holds."""

    kind: Literal["text", "position", "puzzle", "record"]
    board: Grid
    mines: int
    name: str | None


class SettingsOut(_Model):
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


class _Counters(_Model):
    status: Literal["playing", "won", "lost"]
    flags: int
    mines_left: int = Field(description="The total less the flags.")
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


class MoveOut(_Counters):
    """What an action changed."""

    revealed: list[list[int]] = Field(description="[row, column, value] of each cell revealed.")
    flagged: list[Pair] = Field(description="Every flagged cell after the action.")
    note: str | None = Field(None, description="Why a chord changed nothing.")


class HintOut(_Model):
    """The cell to reveal next."""

    cell: Pair
    safe: bool
    probability: float
    text: str
    explanation: ExplanationOut | None


class ConfigOut(_Model):
    """What the server offers."""

    players: list[str]
    techniques: list[str] = Field(description="The ratings a no-guess board can be made for.")
    levels: dict[str, list[int]] = Field(description="Name -> [rows, columns, mines].")
    limits: dict[str, int | float]


class WatchOut(_Model):
    """A watched game, ready to step through."""

    id: str
    rows: int
    cols: int
    mines: int
    player: str
    note: str
    total: int = Field(description="How many steps the game has.")
    step: int = Field(description="How many have been taken.")


class StepOut(_Model):
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


class StepsOut(_Model):
    """The next steps of a watched game."""

    steps: list[StepOut]
    step: int
    total: int
    done: bool
    status: Literal["playing", "won", "lost"]
    guesses: int | None = Field(None, description="Once done: how many guesses were made.")
